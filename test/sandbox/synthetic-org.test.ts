import { describe, expect, it } from 'vitest';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { plannedEntitySearches } from '../../src/sources/live.js';
import { validateSnapshot } from '../../src/sources/validate-snapshot.js';

describe('generateSyntheticOrg', () => {
  const size = { blueprints: 300, actions: 500, pages: 100 };

  it('builds a valid org-snapshot/1 of the requested size, the same every time', () => {
    const org = generateSyntheticOrg(size);
    expect(() => validateSnapshot(JSON.parse(JSON.stringify(org)), 'synthetic')).not.toThrow();
    expect(org.blueprints).toHaveLength(300);
    expect(org.actions).toHaveLength(500);
    expect(org.pages).toHaveLength(100);
    expect(Object.keys(org.blueprintPermissions ?? {})).toHaveLength(300);
    // Automations and entity pages have no permissions of their own (permission-plan.ts).
    const automations = org.actions?.filter((a) => JSON.stringify(a.trigger).includes('"type":"automation"')).length ?? 0;
    const entityPages = org.pages?.filter((p) => p.type === 'entity').length ?? 0;
    expect(automations).toBeGreaterThan(100);
    expect(entityPages).toBeGreaterThan(10);
    expect(Object.keys(org.actionPermissions ?? {})).toHaveLength(500 - automations);
    expect(Object.keys(org.pagePermissions ?? {})).toHaveLength(100 - entityPages);
    expect(JSON.stringify(generateSyntheticOrg(size))).toBe(JSON.stringify(org));
    expect(JSON.stringify(generateSyntheticOrg({ ...size, seed: 1 }))).not.toBe(JSON.stringify(org));
  });

  it('in distinct-expression mode repeats no jq expression, and reads the same team values', () => {
    const expressionsOf = (text: string) => [...text.matchAll(/"(?:calculation|jqQuery|team|identifier)":"(\.(?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    const shared = expressionsOf(JSON.stringify(generateSyntheticOrg(size)));
    const distinct = expressionsOf(JSON.stringify(generateSyntheticOrg({ ...size, distinctExpressions: true })));
    expect(new Set(shared).size).toBeLessThan(50); // 40 teams in the index("…") conditions and inputs
    expect(distinct.length).toBeGreaterThan(100);
    expect(new Set(distinct).size).toBe(distinct.length);
    expect(distinct.filter((e) => e?.startsWith('.user.team')).length).toBe(shared.filter((e) => e?.startsWith('.user.team')).length);
  });

  it('holds the team references a real org has, in every shape the fetcher distinguishes', () => {
    const org = generateSyntheticOrg(size);
    const text = JSON.stringify(org);
    const titles = new Set(org.teams?.map((t) => t.name));
    const inherited = org.blueprints.filter((b) => b.teamInheritance !== undefined);
    const teamRelation = org.blueprints.filter((b) => JSON.stringify(b.relations).includes('"target":"_team"'));
    expect(inherited.length).toBeGreaterThan(20);
    expect(teamRelation.some((b) => b.teamInheritance === undefined)).toBe(true);
    expect(teamRelation.some((b) => b.teamInheritance !== undefined)).toBe(true);
    expect(org.blueprints.some((b) => b.ownership !== undefined)).toBe(true);
    expect(org.blueprints.filter((b) => plannedEntitySearches(b).length > 0).length).toBeGreaterThan(150);
    const entityTeams = Object.values(org.entities ?? {}).flat().flatMap((e) => (Array.isArray(e?.team) ? e.team : []));
    expect(entityTeams.some((t) => typeof t === 'string' && titles.has(t))).toBe(true);
    for (const needle of ['"property":"$team"', '.user.team', '.relations.teams', '"excludedFields":["teams"]', '{{ .event.diff.after.team }}']) {
      expect(text).toContain(needle);
    }
  });
});
