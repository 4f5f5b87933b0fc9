import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { TransportRequest } from '../../src/api/transport.js';
import { toResponse } from '../helpers/fake-transport.js';

/**
 * A client at concurrency 1 whose first request to `failingPath` answers 503 once; `sent` lists
 * every path in the order it went out. `answerLater` lets other requests start before an answer.
 */
function clientFailingOnce(failingPath: string, sleep: () => Promise<void>, options: { answerLater?: boolean; body: Record<string, unknown> }) {
  const sent: string[] = [];
  let failed = false;
  const client = createApiClient({
    baseUrl: new URL('https://api.example.test'),
    credentials: { kind: 'token', token: 'secret-token' },
    transport: async (request: TransportRequest) => {
      const path = new URL(request.url).pathname;
      sent.push(path);
      if (options.answerLater) await new Promise((resolve) => setImmediate(resolve));
      if (path === failingPath && !failed) {
        failed = true;
        return toResponse({ status: 503 });
      }
      return toResponse({ status: 200, body: { ok: true, ...options.body } });
    },
    now: () => 0,
    sleep,
    concurrency: 1,
  });
  return { client, sent };
}

describe('a retry waiting out its backoff holds no concurrency slot (issue 17)', () => {
  it('at concurrency 1, a second request goes out while the first sleeps before its retry', async () => {
    const sleeping: Array<() => void> = [];
    // A sleeper the test wakes by hand: the backoff lasts until then.
    const { client, sent } = clientFailingOnce('/v1/teams', () => new Promise<void>((resolve) => sleeping.push(resolve)), { body: { teams: [], blueprints: [] } });
    const first = client.get('/v1/teams', 'teams');
    const second = client.get('/v1/blueprints', 'blueprints');
    for (let i = 0; i < 20 && sleeping.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sleeping).toHaveLength(1);
    await expect(second).resolves.toEqual([]);
    expect(sent).toEqual(['/v1/teams', '/v1/blueprints']);
    sleeping[0]?.();
    await expect(first).resolves.toEqual([]);
    expect(sent).toEqual(['/v1/teams', '/v1/blueprints', '/v1/teams']);
  });

  it('a retry whose backoff is over goes ahead of first attempts still waiting for a slot', async () => {
    const { client, sent } = clientFailingOnce('/v1/a', async () => {}, { answerLater: true, body: { x: [] } });
    await Promise.all(['/v1/a', '/v1/b', '/v1/c', '/v1/d'].map((path) => client.get(path, 'x')));
    expect(sent).toEqual(['/v1/a', '/v1/b', '/v1/a', '/v1/c', '/v1/d']);
  });
});

describe("a search's next page goes ahead of reads not yet started (issue 33)", () => {
  /** At concurrency 1, every answer a tick later: what is queued meanwhile waits for the one slot. */
  function clientAnsweringLater() {
    const sent: string[] = [];
    const client = createApiClient({
      baseUrl: new URL('https://api.example.test'),
      credentials: { kind: 'token', token: 'secret-token' },
      transport: async (request: TransportRequest) => {
        const from = request.body === undefined ? undefined : (JSON.parse(request.body) as { from?: string }).from;
        const path = new URL(request.url).pathname;
        sent.push(from === undefined ? path : `${path} from ${from}`);
        await new Promise((resolve) => setImmediate(resolve));
        if (path.endsWith('/search')) return toResponse({ status: 200, body: { ok: true, entities: [{ identifier: `e-${from ?? 0}` }], ...(from === undefined ? { next: 'p2' } : from === 'p2' ? { next: 'p3' } : {}) } });
        return toResponse({ status: 200, body: { ok: true, permissions: {} } });
      },
      now: () => 0,
      sleep: async () => {},
      concurrency: 1,
    });
    return { client, sent };
  }
  const all = { combinator: 'and' as const, rules: [] };

  it('each next page goes ahead of the reads still queued when it is asked', async () => {
    const { client, sent } = clientAnsweringLater();
    const search = client.searchEntities('svc', all, { limit: 1, maxEntities: 10 });
    const reads = ['/v1/a/permissions', '/v1/b/permissions'].map((path) => client.get(path, 'permissions'));
    expect((await search).map((entity) => entity.identifier)).toEqual(['e-0', 'e-p2', 'e-p3']);
    await Promise.all(reads);
    // The first answer frees the slot for the read at the head of the queue (the next page is
    // asked only once that answer is read); from then on each page goes before the reads left.
    const svc = '/v1/blueprints/svc/entities/search';
    expect(sent).toEqual([svc, '/v1/a/permissions', `${svc} from p2`, '/v1/b/permissions', `${svc} from p3`]);
  });
});
