import { describe, expect, it } from 'vitest';
import { createFetchTransport, type Transport } from '../../src/api/transport.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { withSandbox } from './harness.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';

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

  it('sends the closing read of the organization with the last reads, not a round trip after they all landed (issue 41)', async () => {
    // Enough permission reads that many are still queued behind 4 in flight when the lists are in.
    const snapshot = generateSyntheticOrg({ blueprints: 30, actions: 60, pages: 20 });
    await withSandbox({ snapshot }, async (sandbox) => {
      const events: string[] = [];
      const fetchTransport = createFetchTransport();
      const transport: Transport = async (request) => {
        const path = new URL(request.url).pathname;
        events.push(`send ${path}`);
        const response = await fetchTransport(request);
        events.push(`answer ${path}`);
        return response;
      };
      const client = sandboxClient(sandbox, { transport, concurrency: 4 });
      const fetched = await fetchLiveSnapshot(client);
      expect(fetched.incomplete ?? []).toEqual([]);
      const organizationSends = events.flatMap((event, index) => (event === 'send /v1/organization' ? [index] : []));
      expect(organizationSends).toHaveLength(2);
      const lastOtherAnswer = events.reduce((last, event, index) => (event.startsWith('answer ') && event !== 'answer /v1/organization' ? index : last), -1);
      // Sent while the last few reads were still in flight (each of the 4 slots then held one).
      expect(organizationSends[1]).toBeLessThan(lastOtherAnswer);
      const sentAfter = events.slice(organizationSends[1]! + 1).filter((event) => event.startsWith('send ')).length;
      expect(sentAfter).toBe(0);
    });
  });
});
