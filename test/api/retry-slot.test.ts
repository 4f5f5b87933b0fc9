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
