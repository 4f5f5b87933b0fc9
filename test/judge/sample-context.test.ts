import { describe, expect, it } from 'vitest';
import { buildTeamDirectory } from '../../src/catalog/teams.js';
import { extractReferences, type FieldPath } from '../../src/jq/references.js';
import { policyQueryIds, sampleInput, sampleTeams, TEAM_MARKERS } from '../../src/judge/worlds.js';
import { unfilledPaths } from '../../src/judge/unfilled.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { assessTeamExpression } from '../../src/judge/team-impact.js';

function paths(source: string): FieldPath[] {
  const result = extractReferences(source);
  if (!result.ok) throw result.error;
  return result.references.paths;
}

describe('sampleTeams', () => {
  it('takes teams whose identifier is known and differs from the title', () => {
    const directory = buildTeamDirectory([{ name: 'same', identifier: 'same' }, { name: 'Payments', identifier: 'payments' }, { name: 'SRE', identifier: 'sre' }], []);
    expect(sampleTeams(directory)).toEqual([{ title: 'Payments', identifier: 'payments' }, { title: 'SRE', identifier: 'sre' }]);
  });

  it('falls back to marked stand-ins when the org names no identifiers', () => {
    const [a, b] = sampleTeams(buildTeamDirectory([{ name: 'Data Science' }], []));
    expect(a.standIn).toBe('placeholder');
    expect(b.standIn).toBe('placeholder');
  });

  it('says so in the reason, and never puts a stand-in into a rewrite', async () => {
    const teams = buildTeamDirectory([{ name: 'Data Science' }], []);
    const impact = assessTeamExpression('.team | join(",")', { teams, removedRelations: new Set(), jq: await loadJqEngine(), sample: 'entity' });
    expect(impact?.verdict).toBe('review');
    expect(impact?.evaluation).toContain('the org names too few team identifiers, so stand-in teams were used');
    expect(impact?.rewrite).toBeUndefined();
  });
});

describe('sampleInput', () => {
  const teams = [{ title: 'Payments', identifier: 'payments' }, { title: 'SRE', identifier: 'sre' }] as const;

  it('writes every team slot in the requested form', () => {
    expect(sampleInput('user-input', 0, teams, 'title', [])).toMatchObject({ user: { team: ['Payments'] }, entity: { team: ['Payments'] } });
    expect(sampleInput('user-input', 2, teams, 'identifier', [])).toMatchObject({ user: { team: ['payments'] }, entity: { team: ['sre'] } });
  });

  it('writes markers, strings no team, title or identifier holds, in the marker form', () => {
    const input = sampleInput('user-input', 1, teams, 'marker', []);
    expect(input).toMatchObject({ user: { team: [...TEAM_MARKERS] }, entity: { team: [...TEAM_MARKERS] } });
    for (const marker of TEAM_MARKERS) expect(teams.flatMap((t) => [t.title, t.identifier])).not.toContain(marker);
  });

  it('puts the entity\'s teams into properties known to hold team values', () => {
    const input = sampleInput('entity', 1, teams, 'title', [], ['owning_team']);
    expect(input).toMatchObject({ team: ['Payments', 'SRE'], properties: { owning_team: ['Payments', 'SRE'] } });
    expect((sampleInput('entity', 1, teams, 'title', []) as { properties: object }).properties).toEqual({});
  });

  it('gives a diff different teams before and after in one variant', () => {
    const input = sampleInput('action-run', 2, teams, 'title', []) as { diff: { before: { team: string[] }; after: { team: string[] } } };
    expect(input.diff.before.team).not.toEqual(input.diff.after.team);
  });

  it('holds the results of exactly the queries a policy condition names', () => {
    const ids = policyQueryIds(paths('.results.oncall.entities | map(.team) | . + [.results.owners.entities[0].team] | $x.results.nope'));
    expect(ids).toEqual(['oncall', 'owners']);
    expect(Object.keys((sampleInput('policy', 0, teams, 'title', ids) as { results: object }).results)).toEqual(['oncall', 'owners']);
  });
});

describe('unfilledPaths', () => {
  const teams = [{ title: 'Payments', identifier: 'payments' }, { title: 'SRE', identifier: 'sre' }] as const;
  const text = (source: string, input: ReturnType<typeof sampleInput>) => unfilledPaths(paths(source), input).map((p) => source.slice(p.start, p.end));

  it('counts paths that resolve from the root or from any object in the sample', () => {
    const input = sampleInput('policy', 0, teams, 'title', ['oncall']);
    expect(text('.results.oncall.entities | map(.team, .identifier)', input)).toEqual([]);
    expect(text('.results.oncall.entities[].team', input)).toEqual([]);
  });

  it('reports what the sample cannot know', () => {
    const input = sampleInput('entity', 0, teams, 'title', []);
    expect(text('.team | index(.properties.owner) != null', input)).toEqual(['.properties.owner']);
    expect(text('.user.team', input)).toEqual(['.user.team']);
  });
});

describe('unfilledPaths, anchored where the expression reads', () => {
  const teams = [{ title: 'Payments', identifier: 'payments' }, { title: 'SRE', identifier: 'sre' }] as const;
  const run = sampleInput('action-run', 0, teams, 'title', [], [], { teams: ['payments'] });
  it('a path read at the top of the input is filled only there', () => {
    const source = '.relations.teams';
    expect(unfilledPaths(paths(source), run, () => true).map((p) => source.slice(p.start, p.end))).toEqual(['.relations.teams']);
  });
  it('any other is filled where some object of the sample holds it', () => {
    expect(unfilledPaths(paths('.relations.teams'), run)).toEqual([]);
  });
});
