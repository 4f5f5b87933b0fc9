import { describe, expect, it } from 'vitest';
import { createApiClient, type ClientEvent } from '../../src/api/client.js';
import { EPOCH_RESET_THRESHOLD, rateLimitedForSeconds, readRateLimitHeaders, requestClassOf } from '../../src/api/rate-limit.js';
import { DEFAULT_RETRY_POLICY } from '../../src/api/retry-policy.js';
import type { TransportRequest } from '../../src/api/transport.js';
import { clientWith } from '../helpers/fake-client.js';
import { toResponse, type ScriptedResponse } from '../helpers/fake-transport.js';
import { createTimerClock } from '../helpers/timer-clock.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const OK: ScriptedResponse = { status: 200, body: { ok: true, blueprints: [] } };
const headers = (values: Record<string, string>) => new Headers(values);

describe('x-ratelimit-reset as the service sends it: seconds, or a UTC epoch over 10,000 (Ocean\'s rule)', () => {
  it('a small value is seconds to wait', () => {
    expect(readRateLimitHeaders(headers({ 'x-ratelimit-reset': '42' }), NOW)).toEqual({ resetSeconds: 42, resetForm: 'seconds' });
    expect(readRateLimitHeaders(headers({ 'x-ratelimit-reset': String(EPOCH_RESET_THRESHOLD) }), NOW)).toMatchObject({ resetForm: 'seconds' });
  });
  it('a value over 10,000 is the epoch second of the reset: the wait is what is left until then', () => {
    const epoch = NOW / 1_000 + 17;
    expect(readRateLimitHeaders(headers({ 'x-ratelimit-reset': String(epoch) }), NOW)).toEqual({ resetSeconds: 17, resetForm: 'epoch' });
    // An epoch already past: the window has reset, nothing to wait for.
    expect(readRateLimitHeaders(headers({ 'x-ratelimit-reset': String(NOW / 1_000 - 5) }), NOW)).toMatchObject({ resetSeconds: 0, resetForm: 'epoch' });
  });
  it('Retry-After in seconds or as an HTTP date; a 429 waits for the later of the two', () => {
    expect(readRateLimitHeaders(headers({ 'retry-after': '8' }), NOW).retryAfterSeconds).toBe(8);
    expect(readRateLimitHeaders(headers({ 'retry-after': new Date(NOW + 12_000).toUTCString() }), NOW).retryAfterSeconds).toBe(12);
    expect(rateLimitedForSeconds({ resetSeconds: 3, retryAfterSeconds: 8 })).toBe(8);
    expect(rateLimitedForSeconds({ resetSeconds: 9, retryAfterSeconds: 2 })).toBe(9);
    expect(rateLimitedForSeconds({ retryAfterSeconds: 2 })).toBe(2);
    expect(rateLimitedForSeconds({})).toBeUndefined();
  });
  it('request classes: the entity API apart from the rest', () => {
    expect(['/v1/entities/search', '/v1/blueprints/svc/entities/search', '/v1/blueprints/svc/entities', '/v1/blueprints/svc/entities-count'].map(requestClassOf)).toEqual(['entities', 'entities', 'entities', 'entities']);
    expect(['/v1/blueprints', '/v1/blueprints/svc/permissions', '/v1/pages/p/permissions', '/v1/migrations', '/v1/auth/access_token'].map(requestClassOf)).toEqual(['other', 'other', 'other', 'other', 'other']);
  });
});

describe('a service whose clock is not ours (issue 32 item 8)', () => {
  // The service's clock 10 minutes ahead: an epoch reset is a time on its clock, read against its Date header.
  const AHEAD = 10 * 60_000;
  const serviceDate = (ms: number) => new Date(ms).toUTCString();
  it('an epoch reset is read against the Date header when the service sends one', () => {
    const serviceNow = NOW + AHEAD;
    const read = readRateLimitHeaders(headers({ date: serviceDate(serviceNow), 'x-ratelimit-reset': String(serviceNow / 1_000 + 17) }), NOW);
    expect(read).toMatchObject({ resetSeconds: 17, resetForm: 'epoch' });
    expect(readRateLimitHeaders(headers({ date: serviceDate(serviceNow), 'retry-after': serviceDate(serviceNow + 12_000) }), NOW).retryAfterSeconds).toBe(12);
    // No Date, or one that is not a date: our clock, as before.
    expect(readRateLimitHeaders(headers({ date: 'yesterday', 'x-ratelimit-reset': String(NOW / 1_000 + 17) }), NOW).resetSeconds).toBe(17);
  });
  it('a 429 whose epoch reset is 7 s away on the service\'s clock waits 7 s, not 607 s over the cap', async () => {
    const start = Date.UTC(2025, 0, 1);
    const answer = { status: 429, headers: { date: serviceDate(start + AHEAD), 'x-ratelimit-reset': String((start + AHEAD) / 1_000 + 7) } };
    const { client, clock } = clientWith([answer, OK]);
    await expect(client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(clock.sleeps).toEqual([7_000]);
  });
  it('a spent budget whose epoch reset is 5 s away on the service\'s clock holds the next request 5 s', async () => {
    const start = Date.UTC(2025, 0, 1);
    const spent = { status: 200, body: { ok: true, blueprints: [] }, headers: { date: serviceDate(start + AHEAD), 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((start + AHEAD) / 1_000 + 5) } };
    const { client, clock } = clientWith([spent, OK], { concurrency: 1 });
    await client.get('/v1/blueprints', 'blueprints');
    await client.get('/v1/blueprints', 'blueprints');
    expect(clock.sleeps).toEqual([5_000]);
  });
});

describe('the client waits as the service asks', () => {
  it('a 429 with an epoch reset waits until that second, not for decades', async () => {
    const { client, clock } = clientWith([{ status: 429, headers: { 'x-ratelimit-reset': String(Date.UTC(2025, 0, 1) / 1_000 + 7) } }, OK]);
    await expect(client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(clock.sleeps).toEqual([7_000]);
    expect(client.stats().seen).toMatchObject({ resetEpoch: 1, resetSeconds: 0 });
  });
  it('a 429 whose epoch reset is already past by our clock (skew) still waits a second, never retries at once', async () => {
    const { client, clock } = clientWith([{ status: 429, headers: { 'x-ratelimit-reset': String(Date.UTC(2025, 0, 1) / 1_000 - 3) } }, { status: 429, headers: { 'x-ratelimit-reset': '0' } }, OK]);
    await client.get('/v1/blueprints', 'blueprints');
    expect(clock.sleeps).toEqual([1_000, 1_000]);
  });
  it('a 429 with Retry-After only waits Retry-After, not the 60 s fallback', async () => {
    const { client, clock } = clientWith([{ status: 429, headers: { 'retry-after': '3' } }, OK]);
    await client.get('/v1/blueprints', 'blueprints');
    expect(clock.sleeps).toEqual([3_000]);
    expect(client.stats().seen.retryAfter).toBe(1);
  });
  it('a wait over the single cap gives up at once, names the cap and says so as an event', async () => {
    const events: ClientEvent[] = [];
    const { client, clock } = clientWith([{ status: 429, headers: { 'retry-after': '900' } }], { onEvent: (event) => events.push(event) });
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow('GET /v1/blueprints: rate limited (HTTP 429) and asked to wait 900 s, over the 300 s this tool waits');
    expect(clock.sleeps).toEqual([]);
    expect(events).toContainEqual({ type: 'rate-limit-cap', reason: expect.stringContaining('over the 300 s this tool waits') });
  });
  it('waits that together pass the total cap give up there, naming it', async () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxTotalRateLimitWaitMs: 20_000 };
    const steps = Array.from({ length: 5 }, () => ({ status: 429, headers: { 'x-ratelimit-reset': '8' } }));
    const { client, clock } = clientWith(steps, { policy });
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(
      'GET /v1/blueprints: the rate limit already held this run 16 s and asked for 8 s more, over the 20 s this tool waits in all',
    );
    expect(clock.sleeps).toEqual([8_000, 8_000]);
    expect(client.stats().seen.capped).toBe(1);
  });
});

/** A service whose entity API and other reads have separate budgets; every request is logged with the time it was sent. */
function twoClassService(clock: { now: () => number }, answer: (request: TransportRequest, at: number) => ScriptedResponse) {
  const sent: Array<{ path: string; at: number }> = [];
  const transport = async (request: TransportRequest) => {
    const at = clock.now();
    sent.push({ path: new URL(request.url).pathname, at });
    await new Promise((resolve) => setImmediate(resolve));
    return toResponse(answer(request, at));
  };
  return { sent, transport };
}

describe('429 waits per request class, the restored budget used by every waiting request at once (issue 23 item 7)', () => {
  it('a 429 on the entity API holds no other read', async () => {
    const clock = createTimerClock(NOW);
    const start = clock.now();
    const { sent, transport } = twoClassService(clock, (request, at) =>
      request.url.includes('/entities/search') && at < start + 30_000
        ? { status: 429, headers: { 'x-ratelimit-reset': '30' } }
        : { status: 200, body: { ok: true, entities: [], permissions: {} } },
    );
    // The other read starts as soon as the search is told to wait, before the clock can move.
    let read: Promise<unknown> | undefined;
    const onEvent = (event: ClientEvent) => {
      if (event.type === 'rate-limit-wait') read ??= client.get('/v1/pages/p/permissions', 'permissions');
    };
    const client = createApiClient({ baseUrl: new URL('https://api.example.test'), credentials: { kind: 'token', token: 't' }, transport, now: clock.now, sleep: clock.sleep, concurrency: 4, onEvent });
    const search = client.searchEntities('svc', { combinator: 'and', rules: [] }, { limit: 10, maxEntities: 10 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await read;
    expect(sent.find((request) => request.path === '/v1/pages/p/permissions')?.at).toBe(start);
    await search;
    expect(sent.filter((request) => request.path.includes('search')).map((request) => request.at - start)).toEqual([0, 30_000]);
  });

  it('after the reset, every request that waited goes at once instead of one probe per window', async () => {
    const clock = createTimerClock(NOW);
    const start = clock.now();
    const windowMs = 5_000;
    // The window the run starts in is spent by the org's other traffic; each new one holds 4.
    const used = new Map<number, number>();
    const { sent, transport } = twoClassService(clock, (_request, at) => {
      const index = Math.floor((at - start) / windowMs);
      const count = (used.get(index) ?? (index === 0 ? 4 : 0)) + 1;
      used.set(index, count);
      const rate = { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': String(Math.max(0, 4 - count)), 'x-ratelimit-reset': String(Math.ceil((start + (index + 1) * windowMs - at) / 1_000)) };
      return count > 4 ? { status: 429, headers: rate } : { status: 200, headers: rate, body: { ok: true, permissions: {} } };
    });
    const client = createApiClient({ baseUrl: new URL('https://api.example.test'), credentials: { kind: 'token', token: 't' }, transport, now: clock.now, sleep: clock.sleep, concurrency: 4 });
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => client.get(`/v1/pages/${id}/permissions`, 'permissions')));
    // Four 429s in the spent window, then the four retries together at its reset: one wait, no probe round.
    const retries = sent.slice(4).map((request) => request.at - start);
    expect(retries).toEqual([windowMs, windowMs, windowMs, windowMs]);
    expect(client.stats().requests).toBe(8);
  });
});
