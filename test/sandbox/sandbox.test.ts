import { describe, expect, it } from 'vitest';
import { loadFixture } from '../live/harness.js';
import { matchQuery } from './search.js';
import { startSandbox } from './server.js';

const entity = { identifier: 'svc-1', title: 'Billing', team: ['Payments', 'Platform Team'], relations: { owner: ['payments'], system: 'core' } };
const q = (property: string, operator: string, value?: unknown) => ({ combinator: 'and', rules: [{ property, operator, ...(value === undefined ? {} : { value }) }] });

describe('sandbox search rules', () => {
  it.each([
    [q('$team', '=', 'Payments'), true],
    [q('$team', '=', 'Ghost'), false],
    [q('$team', '!=', 'Payments'), false],
    [q('$team', 'in', ['Ghost', 'Platform Team']), true],
    [q('$team', 'isNotEmpty'), true],
    [q('$team', 'isEmpty'), false],
    [q('$identifier', '=', 'svc-1'), true],
    [q('$identifier', 'in', ['a', 'b']), false],
    [q('$title', '!=', 'Other'), true],
    [q('owner', 'isNotEmpty'), true],
    [q('owner', '=', 'payments'), true],
    [q('system', 'in', ['core']), true],
    [q('missing_relation', 'isEmpty'), true],
    [{ combinator: 'or', rules: [q('$title', '=', 'x'), q('$team', '=', 'Payments')] }, true],
    [{ combinator: 'and', rules: [q('$title', '=', 'x'), q('$team', '=', 'Payments')] }, false],
  ])('%j → %s', (query, expected) => {
    expect(matchQuery(entity, 'service', query as Record<string, unknown>)).toBe(expected);
  });
});

describe('sandbox server', () => {
  it('pages searches, answers the contract envelopes, logs requests and refuses writes', async () => {
    const sandbox = await startSandbox({ snapshot: await loadFixture() });
    try {
      const auth = { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' };
      const searchPage = async (from?: string) => {
        const response = await fetch(`${sandbox.url}/v1/blueprints/service/entities/search`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ query: q('$team', 'isNotEmpty'), limit: 3, ...(from ? { from } : {}) }),
        });
        return (await response.json()) as { ok: boolean; entities: Array<{ identifier: string }>; next?: string };
      };
      const ids: string[] = [];
      let page = await searchPage();
      for (let i = 0; i < 10; i++) {
        ids.push(...page.entities.map((e) => e.identifier));
        if (!page.next) break;
        page = await searchPage(page.next);
      }
      expect(ids).toEqual(['svc-0', 'svc-1', 'svc-2', 'svc-3', 'svc-4', 'svc-5', 'svc-6', 'svc-7']);

      const blueprints = await fetch(`${sandbox.url}/v1/blueprints`, { headers: auth });
      expect(((await blueprints.json()) as { ok: boolean; blueprints: unknown[] }).blueprints).toHaveLength(8);
      const unauthenticated = await fetch(`${sandbox.url}/v1/blueprints`);
      expect(unauthenticated.status).toBe(401);
      expect(await unauthenticated.json()).toEqual({ ok: false, error: 'unauthorized', message: 'missing or unknown bearer token' });
      const write = await fetch(`${sandbox.url}/v1/blueprints`, { method: 'POST', headers: auth, body: '{}' });
      expect(write.status).toBe(405);
      const bulk = await fetch(`${sandbox.url}/v1/blueprints/service/entities/bulk`, { method: 'POST', headers: auth, body: '{}' });
      expect(bulk.status).toBe(404);
      expect(sandbox.requests.slice(-4).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /v1/blueprints 200',
        'GET /v1/blueprints 401',
        'POST /v1/blueprints 405',
        'POST /v1/blueprints/service/entities/bulk 404',
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it('stops by itself after its idle timeout', async () => {
    const sandbox = await startSandbox({ snapshot: await loadFixture(), idleTimeoutMs: 20 });
    await expect(sandbox.closed).resolves.toBeUndefined();
    await expect(fetch(`${sandbox.url}/v1/teams`)).rejects.toThrow();
  });
});
