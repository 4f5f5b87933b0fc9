import { describe, expect, it } from 'vitest';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture } from '../live/harness.js';
import { sandboxClient } from './sandbox-client.js';
import { startSandbox, type Sandbox, type SandboxOptions } from './server.js';

/**
 * The two searches as the service documents them (docs/live-service.md): a blueprint's
 * search takes `{query, include, exclude, limit, from}` and pages; the search across blueprints
 * takes the query itself as its body, `include`/`exclude`/`allow_partial_results` as query
 * parameters, and answers every match at once with `matchingBlueprints`, without paging.
 */
const owned = { combinator: 'and', rules: [{ property: '$team', operator: 'isNotEmpty' }] };

async function withSandbox<T>(options: Partial<SandboxOptions>, use: (sandbox: Sandbox, post: (path: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>) => Promise<T>) {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ snapshot: await loadFixture(), now: clock.now, idleTimeoutMs: 30_000, ...options });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  try {
    return await use(sandbox, post);
  } finally {
    await sandbox.close();
  }
}

const identifiers = (body: Record<string, unknown>) => (body.entities as Array<{ identifier: string }>).map((entity) => entity.identifier);

describe('the sandbox serves both searches as documented', () => {
  it("a blueprint's search reads its query from `query`, pages 200 by default and refuses members outside its schema", async () => {
    const fixture = await loadFixture();
    const many: OrgSnapshot = { ...fixture, entities: { ...fixture.entities, service: Array.from({ length: 250 }, (_, i) => ({ identifier: `s${i}`, team: ['t'] })) } };
    await withSandbox({ snapshot: many }, async (_sandbox, post) => {
      const first = await post('/v1/blueprints/service/entities/search', { query: owned });
      expect(first.status).toBe(200);
      expect(identifiers(first.body)).toHaveLength(200);
      expect(typeof first.body.next).toBe('string');
      const none = await post('/v1/blueprints/service/entities/search', { query: { combinator: 'and', rules: [{ property: '$team', operator: 'isEmpty' }] }, limit: 10 });
      expect(identifiers(none.body)).toEqual([]);
      // The query's own members at the top are not a blueprint search's body.
      const bare = await post('/v1/blueprints/service/entities/search', owned);
      expect(bare.status).toBe(422);
      expect(bare.body.message).toBe('a blueprint\'s search body does not take "combinator", "rules"');
    });
  });

  it('the search across blueprints takes the body as the query, answers matchingBlueprints and no next, and refuses a wrapped query', async () => {
    await withSandbox({}, async (_sandbox, post) => {
      const across = await post('/v1/entities/search?include=identifier&include=blueprint', { combinator: 'and', rules: [{ property: '$blueprint', operator: 'in', value: ['service'] }, ...owned.rules] });
      expect(across.status).toBe(200);
      expect(identifiers(across.body)).toEqual(['svc-0', 'svc-1', 'svc-2', 'svc-3', 'svc-4', 'svc-5', 'svc-6', 'svc-7']);
      expect(across.body.matchingBlueprints).toEqual(['service']);
      expect(across.body).not.toHaveProperty('next');
      const wrapped = await post('/v1/entities/search', { query: owned, limit: 1000 });
      expect(wrapped.status).toBe(422);
      expect(wrapped.body.message).toBe('the search across blueprints (its body is the query) does not take "query", "limit"');
    });
  });

  it('a blueprint it cannot search: named in failedBlueprints with allow_partial_results=true, else the request fails', async () => {
    await withSandbox({ failedBlueprints: ['service'] }, async (_sandbox, post) => {
      const partial = await post('/v1/entities/search?allow_partial_results=true', owned);
      expect(partial.status).toBe(200);
      expect(partial.body.failedBlueprints).toEqual(['service']);
      expect(identifiers(partial.body).some((id) => id.startsWith('svc-'))).toBe(false);
      expect((await post('/v1/entities/search', owned)).status).toBe(500);
    });
  });
});

describe('the client sends the documented shape', () => {
  it("a blueprint's search: `{query, limit, include, from}`, paged to the end", async () => {
    await withSandbox({}, async (sandbox) => {
      const client = sandboxClient(sandbox, { concurrency: 4 });
      const found = await client.searchEntities('service', { combinator: 'and', rules: owned.rules }, { limit: 3, maxEntities: 100, include: ['$identifier'] });
      expect(found).toHaveLength(8);
      expect(sandbox.requests.map((r) => r.path)).toEqual(Array.from({ length: 3 }, () => '/v1/blueprints/service/entities/search'));
    });
  });
});
