import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { clientWith } from '../helpers/fake-client.js';
import type { Step } from '../helpers/fake-transport.js';
import { CutAnswerError } from '../../src/api/transport.js';

const page = (ids: string[], next?: string): Step => ({ status: 200, body: { ok: true, entities: ids.map((identifier) => ({ identifier })), ...(next ? { next } : {}) } });
const all = { combinator: 'and' as const, rules: [] };

describe('limits that cut a read are gaps, never silent', () => {
  it('a full read capped at maxEntities while pages go on throws; a sample does not', async () => {
    const cut = clientWith([page(['a', 'b'], 'c1'), page(['c', 'd'], 'c2')]);
    await expect(cut.client.searchEntities('svc', all, { limit: 2, maxEntities: 4 })).rejects.toThrow(
      new ApiError('POST /v1/blueprints/svc/entities/search: more than 4 entities match; the read is cut there'),
    );
    const sample = clientWith([page(['a', 'b'], 'c1'), page(['c', 'd'], 'c2')]);
    expect(await sample.client.searchEntities('svc', all, { limit: 2, maxEntities: 4, sample: true })).toHaveLength(4);
  });

  it('a next that comes back to an earlier cursor throws at once', async () => {
    const { client, fake } = clientWith([page(['a'], 'c1'), page(['b'], 'c2'), page(['a'], 'c1')]);
    await expect(client.searchEntities('svc', all, { limit: 1, maxEntities: 100 })).rejects.toThrow(/next repeats a cursor after 3 page\(s\)/);
    expect(fake.log).toHaveLength(3);
  });

  it('pages stream to onPage and are not kept', async () => {
    const { client } = clientWith([page(['a', 'b'], 'c1'), page(['c'])]);
    const seen: string[][] = [];
    const kept = await client.searchEntities('svc', all, { limit: 2, maxEntities: 100, onPage: (entities) => {
      seen.push(entities.map((e) => String(e.identifier)));
    } });
    expect(seen).toEqual([['a', 'b'], ['c']]);
    expect(kept).toEqual([]);
  });

  it('a spent budget whose reset is past 300 s is not waited for: the request fails with the reason', async () => {
    const { client, clock } = clientWith([{ status: 200, body: { ok: true, blueprints: [] }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '9000', 'x-ratelimit-limit': '100' } }]);
    await client.get('/v1/blueprints', 'blueprints');
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(
      'GET /v1/blueprints: the rate-limit budget is spent and asked to wait 9000 s, over the 300 s this tool waits',
    );
    expect(clock.sleeps).toEqual([]);
  });
});

describe('a 200 answer cut before its end (issue 23)', () => {
  it('is retried, and the whole answer that follows is read', async () => {
    const { client, fake } = clientWith([{ throws: new CutAnswerError() }, { status: 200, body: { ok: true, blueprints: [{ identifier: 'svc' }] } }]);
    expect(await client.get('/v1/blueprints', 'blueprints')).toEqual([{ identifier: 'svc' }]);
    expect(fake.log).toHaveLength(2);
  });

  it('cut on every attempt, it is an error naming why, not a shorter list', async () => {
    const { client } = clientWith(Array.from({ length: 12 }, () => ({ throws: new CutAnswerError() })));
    await expect(client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(/GET \/v1\/blueprints: the answer was cut before its end/);
  });
});
