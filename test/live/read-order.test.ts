import { describe, expect, it } from 'vitest';
import { createFetchTransport, type Transport } from '../../src/api/transport.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { withSandbox } from './harness.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';

/**
 * Issue 33: the reads that unlock thousands of others go first. The client starts with four
 * requests in flight; a small list that unlocks nothing (integrations, webhooks, teams,
 * scorecards, users) queued ahead of the blueprints' permissions held them back by a second and
 * more on the 10x org, while the large lists held the other slots.
 */
describe('the order of the live reads', () => {
  it('sends the blueprints\' permission reads before the lists no other read waits for, and still reads those', async () => {
    await withSandbox({ latencyMs: 20 }, async (sandbox) => {
      const sent: string[] = [];
      const fetchTransport = createFetchTransport();
      const transport: Transport = (request) => {
        const url = new URL(request.url);
        sent.push(url.pathname);
        return fetchTransport(request);
      };
      const client = sandboxClient(sandbox, { transport, concurrency: 4 });
      const snapshot = await fetchLiveSnapshot(client);
      expect(snapshot.incomplete ?? []).toEqual([]);
      const firstPermission = sent.findIndex((path) => /^\/v1\/blueprints\/[^/]+\/permissions$/.test(path));
      expect(firstPermission).toBeGreaterThan(0);
      for (const path of ['/v1/integration', '/v1/webhooks', '/v1/teams', '/v1/scorecards', '/v1/users']) {
        expect(sent.indexOf(path), path).toBeGreaterThan(firstPermission);
      }
      expect(snapshot.integrations?.length).toBeGreaterThan(0);
      expect(snapshot.scorecards?.length).toBeGreaterThan(0);
    });
  });
});
