import { describe, expect, test } from 'vitest';
import { LayeredSets } from '../../src/repo/layered-sets.js';

const sets = (entries: Record<string, string[]>) => new Map(Object.entries(entries).map(([key, values]) => [key, new Set(values)]));
/** What a copy gives: the org's map copied, each of the file's keys set to the union. */
const copied = (org: Map<string, Set<string>>, file: Map<string, Set<string>>) => {
  const merged = new Map<string, ReadonlySet<string>>(org);
  for (const [key, values] of file) merged.set(key, new Set([...(merged.get(key) ?? []), ...values]));
  return merged;
};
const plain = (map: ReadonlyMap<string, ReadonlySet<string>>) => [...map].map(([key, values]) => [key, [...values]]);

describe('the org\'s facts per blueprint with a file\'s own read through (issue 41)', () => {
  const org = sets({ service: ['owning_team'], domain: ['teams'], team_page: [] });
  const file = sets({ domain: ['owners', 'teams'], svc1: ['owning_team'] });
  const layered = new LayeredSets(org, file);
  const copy = copied(org, file);

  test('reads as the copy it replaces: each key, its values in order, the size, the order of iteration', () => {
    expect(plain(layered)).toEqual(plain(copy));
    expect([...layered.keys()]).toEqual(['service', 'domain', 'team_page', 'svc1']);
    expect([...layered.values()].map((values) => [...values])).toEqual([...copy.values()].map((values) => [...values]));
    expect(layered.size).toBe(4);
    const visited: string[] = [];
    layered.forEach((values, key, map) => {
      expect(map).toBe(layered);
      visited.push(`${key}:${[...values].join('+')}`);
    });
    expect(visited).toEqual(['service:owning_team', 'domain:teams+owners', 'team_page:', 'svc1:owning_team']);
  });

  test('a key only the org holds is the org\'s own set; one both hold is their union, made once; one neither holds is absent', () => {
    expect(layered.get('service')).toBe(org.get('service'));
    expect([...layered.get('domain')!]).toEqual(['teams', 'owners']);
    expect(layered.get('domain')).toBe(layered.get('domain'));
    expect(layered.has('svc1')).toBe(true);
    expect(layered.has('missing')).toBe(false);
    expect(layered.get('missing')).toBeUndefined();
  });

  test('neither map is changed', () => {
    expect(plain(org)).toEqual([['service', ['owning_team']], ['domain', ['teams']], ['team_page', []]]);
    expect(plain(file)).toEqual([['domain', ['owners', 'teams']], ['svc1', ['owning_team']]]);
  });
});
