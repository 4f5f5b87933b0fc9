import { describe, expect, it } from 'vitest';
import { resolveInheritance } from '../../src/catalog/inheritance.js';
import type { JsonObject } from '../../src/model/json.js';
import { betaBlueprint, blueprint, catalogOf, deepFreeze, org } from '../support/rule-tester.js';

const rel = (target: string, many = false) => ({ target, many, required: false });
const index = (...blueprints: JsonObject[]) => deepFreeze(new Map(blueprints.map((b) => [b.identifier as string, b])));

describe('resolveInheritance, hop by hop', () => {
  const chain = index(
    blueprint('domain'),
    blueprint('service', { relations: { domain: rel('domain'), owners: rel('_team', true) } }),
    blueprint('deployment', { relations: { service: rel('service'), services: rel('service', true) } }),
  );

  it('follows a two-hop path to its target', () => {
    expect(resolveInheritance('deployment', 'service.domain', chain, '_team')).toEqual({
      kind: 'inherited',
      path: 'service.domain',
      hops: [
        { relation: 'service', from: 'deployment', to: 'service', many: false },
        { relation: 'domain', from: 'service', to: 'domain', many: false },
      ],
      target: 'domain',
      problems: [],
    });
  });

  it('a one-relation path to _team is the beta case', () => {
    expect(resolveInheritance('service', 'owners', chain, '_team')).toEqual({ kind: 'team-relation', path: 'owners', relation: 'owners' });
  });

  it('a many hop is resolved but carries a problem', () => {
    const result = resolveInheritance('deployment', 'services', chain, '_team');
    expect(result.kind).toBe('inherited');
    expect(result.kind === 'inherited' && result.problems.join()).toContain('many relation');
  });

  it('a dangling hop stops at the missing relation, keeping the hops so far', () => {
    const result = resolveInheritance('deployment', 'service.nope.domain', chain, '_team');
    expect(result).toMatchObject({ kind: 'unresolved', problem: expect.stringContaining('"service" has no relation "nope"') });
    expect(result.kind === 'unresolved' && result.hops.map((h) => h.relation)).toEqual(['service']);
  });

  it('a relation to an unknown blueprint is unresolved', () => {
    const result = resolveInheritance('x', 'ghost', index(blueprint('x', { relations: { ghost: rel('nowhere') } })), '_team');
    expect(result).toMatchObject({ kind: 'unresolved', problem: expect.stringContaining('unknown blueprint "nowhere"') });
  });

  it('reaching _team after several hops, or before the path ends, is unresolved', () => {
    expect(resolveInheritance('deployment', 'service.owners', chain, '_team')).toMatchObject({
      kind: 'unresolved',
      problem: expect.stringContaining('a relation to "_team"'),
      fixedPath: 'service',
    });
    expect(resolveInheritance('deployment', 'service.owners.x', chain, '_team')).toMatchObject({ kind: 'unresolved', problem: expect.stringContaining('before the path ends') });
  });

  it('a cycle (and a self loop) ends, however long the path', () => {
    const loop = index(blueprint('a', { relations: { b: rel('b'), self: rel('a') } }), blueprint('b', { relations: { a: rel('a') } }));
    const long = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? 'b' : 'a')).join('.');
    expect(resolveInheritance('a', long, loop, '_team')).toMatchObject({ kind: 'unresolved', problem: expect.stringContaining('cycle') });
    expect(resolveInheritance('a', 'self', loop, '_team')).toMatchObject({ kind: 'unresolved', problem: expect.stringContaining('cycle') });
  });

  it('an empty or malformed path does not throw', () => {
    expect(resolveInheritance('deployment', '', chain, '_team').kind).toBe('unresolved');
    expect(resolveInheritance('deployment', 'service..domain', chain, '_team').kind).toBe('unresolved');
    expect(resolveInheritance('unknown', 'service', chain, '_team').kind).toBe('unresolved');
  });
});

describe('buildCatalog indexes', () => {
  const catalog = catalogOf(
    org({
      blueprints: [
        betaBlueprint('repository', 'owning_team'),
        blueprint('cloud', { relations: { responsible: rel('_team', true) } }),
        blueprint('service', { relations: { repo: rel('repository') }, teamInheritance: { path: 'repo' } }),
        { identifier: 'broken', relations: 'not an object', teamInheritance: { path: 'x' } },
      ],
    }),
  );

  it('knows team relations, removed relations and each inheritance resolution', () => {
    expect(Object.fromEntries(catalog.teamRelations)).toEqual({ repository: ['owning_team'], cloud: ['responsible'] });
    expect([...(catalog.removedRelations.get('repository') ?? [])]).toEqual(['owning_team']);
    expect(catalog.removedRelations.has('cloud')).toBe(false);
    expect([...catalog.allRemovedRelations]).toEqual(['owning_team']);
    expect(catalog.inheritance.get('service')).toMatchObject({ kind: 'inherited', target: 'repository' });
    expect(catalog.inheritance.get('broken')).toMatchObject({ kind: 'unresolved' });
    expect(catalog.entitiesFetched).toBe(false);
  });
});
