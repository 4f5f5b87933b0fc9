import { describe, expect, it } from 'vitest';
import { extractReferences, relationPaths, teamMetaPaths, valueStrings, type JqReferences } from '../../src/jq/references.js';

function refs(source: string): JqReferences {
  const result = extractReferences(source);
  if (!result.ok) throw result.error;
  return result.references;
}
const teamReads = (source: string) => teamMetaPaths(refs(source)).map((p) => source.slice(p.start, p.end));
const relations = (source: string, ids: string[]) => relationPaths(refs(source), new Set(ids)).map((r) => r.relation);
const values = (source: string) => valueStrings(refs(source)).map((s) => s.value);

describe('team meta property reads', () => {
  it.each([
    ['.team', ['.team']],
    ['.entity.team', ['.entity.team']],
    ['.user.team | contains(["x"])', ['.user.team']],
    ['.results.oncall.entities | map(.team)', ['.team']],
    // A path ends at its last name; `[0]`, `[]` and `?` after it keep the chain but not the text.
    ['.diff.after.team[0]', ['.diff.after.team']],
    ['."team"', ['."team"']],
    ['.["team"]', ['.["team"]']],
    ['.entity["team"]?', ['.entity["team"]']],
    ['.entity.["team"]', ['.entity.["team"]']],
    ['.team?', ['.team']],
    ['. as $e | $e.team', ['$e.team']],
    ['"owner: \\(.team[0])"', ['.team']],
    ['{team}', ['team']],
    ['{identifier, "team"}', ['"team"']],
  ])('%s reads the team', (source, expected) => {
    expect(teamReads(source)).toEqual(expected);
  });

  it.each([
    ['.teams'],
    ['.teamsize'],
    ['.properties.teamsize > 8'],
    ['.properties.team'],
    ['.relations.team'],
    ['"the .team lead"'],
    ['.a # .team'],
    ['{team: .owner}'],
    ['{"team": .owner}'],
    ['[.a, .b]'],
    // the process environment and jq's own location are not org data
    ['$ENV.team'],
    ['$__loc__.team'],
  ])('%s does not read the team', (source) => {
    expect(teamReads(source)).toEqual([]);
  });
});

describe('relation reads', () => {
  it('finds a removed relation in every spelling', () => {
    expect(relations('.relations.owning_team | join(",")', ['owning_team'])).toEqual(['owning_team']);
    expect(relations('.relations["owning_team"][]?', ['owning_team'])).toEqual(['owning_team']);
    expect(relations('.entity.relations."owning_team"', ['owning_team'])).toEqual(['owning_team']);
    expect(relations('.relations.["owning_team"]', ['owning_team'])).toEqual(['owning_team']);
    expect(relations('.relations | .owning_team | length', ['owning_team'])).toEqual(['owning_team']);
  });

  it('ignores other relations, look-alikes and text', () => {
    expect(relations('.relations.domain', ['owning_team'])).toEqual([]);
    expect(relations('.relations.owning_teams', ['owning_team'])).toEqual([]);
    expect(relations('"see .relations.owning_team"', ['owning_team'])).toEqual([]);
    expect(relations('.properties.owning_team', ['owning_team'])).toEqual([]);
    expect(relations('.relations | keys', ['owning_team'])).toEqual([]);
  });
});

describe('compared string literals', () => {
  it('keeps compared values and drops object keys and bracket keys', () => {
    expect(values('.team | contains(["Platform Team"])')).toEqual(['Platform Team']);
    expect(values('{"owner": .team, team: "Payments"}')).toEqual(['Payments']);
    expect(values('.["Platform Team"]')).toEqual([]);
  });

  it('does not treat an interpolated string as a whole value', () => {
    // Its literal text is "Payments", but the string is a template, never equal to "Payments".
    expect(values('"\\(.prefix)Payments"')).toEqual([]);
    // Strings inside the interpolation are still values.
    expect(values('"\\(.team | index("Payments"))"')).toEqual(['Payments']);
  });

  it('collects object keys, shorthand included', () => {
    expect(refs('{team: .a, "title": .b, identifier}').objectKeys).toEqual(['team', 'title', 'identifier']);
  });
});
