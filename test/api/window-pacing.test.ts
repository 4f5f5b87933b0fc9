import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { isPaced, nextStartAfter } from '../../src/api/window-pacing.js';
import type { TransportResponse } from '../../src/api/transport.js';
import { toResponse } from '../helpers/fake-transport.js';

const MAX_WAIT = 300_000;

describe('window pacing (issue 17, §8.1)', () => {
  it('paces only a known window with less than half of its budget left beside those in flight', () => {
    const budget = { limit: 100, remaining: 60, resetAt: 10_000 };
    expect(isPaced(undefined, 0, 0, MAX_WAIT)).toBe(false);
    expect(isPaced({ remaining: 10, resetAt: 10_000 }, 0, 0, MAX_WAIT)).toBe(false); // no limit header
    expect(isPaced(budget, 10, 0, MAX_WAIT)).toBe(false); // 50 left: the first half goes at once
    expect(isPaced(budget, 11, 0, MAX_WAIT)).toBe(true);
    expect(isPaced(budget, 11, 10_000, MAX_WAIT)).toBe(false); // the reset has come
    expect(isPaced({ ...budget, resetAt: 400_000 }, 11, 0, MAX_WAIT)).toBe(false); // not a window
  });

  it('spaces the next start so what is left ends before the reset, from the budget at this start', () => {
    const budget = { limit: 100, remaining: 10, resetAt: 10_000 };
    // One in flight (this start): 9 left and 10 gaps to the reset.
    expect(nextStartAfter(budget, 1, 0)).toBe(1_000);
    expect(nextStartAfter(budget, 1, 5_000)).toBe(5_500);
    expect(nextStartAfter({ ...budget, remaining: 1 }, 1, 4_000)).toBe(10_000);
    expect(nextStartAfter(budget, 1, 10_000)).toBe(10_000);
    expect(nextStartAfter(undefined, 1, 3_000)).toBe(3_000);
  });
});

/** A service allowing `limit` requests per window, counted when the request arrives. */
function windowedService(limit: number, windowMs: number, now: () => number) {
  const perWindow = new Map<number, number>();
  let tooMany = 0;
  const answer = (countedAt: number) => {
    const index = Math.floor(countedAt / windowMs);
    const used = (perWindow.get(index) ?? 0) + 1;
    perWindow.set(index, used);
    if (used > limit) tooMany++;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - used)),
      'x-ratelimit-reset': String(Math.ceil(((index + 1) * windowMs - countedAt) / 1_000)),
    };
    return used > limit ? toResponse({ status: 429, headers, body: { ok: false } }) : toResponse({ status: 200, headers, body: { ok: true, teams: [] } });
  };
  return { answer, perWindow, tooMany: () => tooMany, now };
}

/** A client on a fake clock (`clock.time`, moved by its sleeps) answered by `answer`, or at once by the service. */
function clientOn(clock: { time: number }, concurrency: number, answer: () => Promise<TransportResponse>) {
  return createApiClient({
    baseUrl: new URL('https://api.example.test'),
    credentials: { kind: 'token', token: 't' },
    transport: answer,
    now: () => clock.time,
    sleep: async (ms) => {
      clock.time += ms;
    },
    concurrency,
  });
}

/** The service's answer, given after a turn of the event loop so requests overlap. */
const answeredNext = (service: ReturnType<typeof windowedService>, clock: { time: number }) => async () => {
  const response = service.answer(clock.time);
  await new Promise((resolve) => setImmediate(resolve));
  return response;
};

describe('the client spends each window whole, and no 429 (issue 17)', () => {
  it('at concurrency 32, every full window gets its whole budget: no start is booked past the reset', async () => {
    const clock = { time: 1_000 };
    const service = windowedService(100, 10_000, () => clock.time);
    const client = clientOn(clock, 32, answeredNext(service, clock));
    await Promise.all(Array.from({ length: 350 }, () => client.get('/v1/teams', 'teams')));
    expect(service.tooMany()).toBe(0);
    // Started 1 s into window 0: windows 0, 1, 2 are (nearly) full, the rest goes in window 3. A
    // spent window is trusted only to the latest reset its answers name (up to a second late),
    // which may push a few of a window's last starts into the next one.
    const perWindow = [...service.perWindow.values()];
    expect(perWindow).toHaveLength(4);
    expect(perWindow.slice(0, 3).every((count) => count >= 95)).toBe(true);
    expect(clock.time).toBeLessThan(40_000);
  });

  it('a slow answer, read after fresher ones, lowers the budget and never reopens it (no 429)', async () => {
    const clock = { time: 0 };
    const service = windowedService(10, 10_000, () => clock.time);
    let hold: (() => void) | undefined;
    let first = true;
    const client = clientOn(clock, 4, async () => {
      const response = service.answer(clock.time);
      if (first) first = false;
      else if (!hold) await new Promise<void>((resolve) => (hold = resolve)); // the second: counted at t = 0, answered at 1.5 s
      return response;
    });
    await client.get('/v1/teams', 'teams'); // 9 left, reset in 10 s
    const slow = client.get('/v1/teams', 'teams');
    for (let i = 0; i < 20 && !hold; i++) await new Promise((resolve) => setImmediate(resolve));
    clock.time = 1_500;
    hold?.(); // "8 left, reset in 10 s", read at 1.5 s: it looks like a later window's answer
    await slow;
    await Promise.all(Array.from({ length: 12 }, () => client.get('/v1/teams', 'teams')));
    expect(service.tooMany()).toBe(0);
    expect(service.perWindow.get(0)).toBe(10);
  });

  it('a window spent between the reset and the later reset we estimated gets no probe before its own reset (no 429)', async () => {
    const clock = { time: 9_900 };
    const service = windowedService(10, 10_000, () => clock.time);
    const client = clientOn(clock, 1, answeredNext(service, clock));
    await client.get('/v1/teams', 'teams'); // 9 left, "reset in 1 s": we believe 10.9 s, the service resets at 10 s
    clock.time = 10_000;
    // Sent against window 0's 9, counted in window 1, whose answers say 9, 8 … 0, reset in 10 s.
    await Promise.all(Array.from({ length: 14 }, () => client.get('/v1/teams', 'teams')));
    expect(service.tooMany()).toBe(0);
    expect(service.perWindow.get(1)).toBe(10);
    expect(service.perWindow.get(2)).toBe(4);
  });
});
