/**
 * Issue 39: on a migrated org, an expression that compares team values with a transformation of
 * identifiers (a case fold, a slug, `@base64d`, `split("_")[0]`) is written for what the org holds
 * today, though no literal of it is an identifier to read back. Running it over each of the org's
 * teams in both worlds decides: with identifiers it sets some teams apart, and every team it set
 * apart with titles it still does. One that set a team apart by its title and no longer does breaks.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { expectedClass, inputOf, judged, migrationPart, servicesWithCalculations, TEAMS, type World } from './two-worlds.js';

const jq = useJqEngine();

const judgedOnMigratedOrg = (expression: string) => judged(jq, servicesWithCalculations({ flag: [expression, 'boolean'] }, migrationPart(true)), 'calculationProperties.flag.calculation').finding;

/** The titles of the teams the expression sets apart from a team no string of it meets, each team alone, in one world: what jq says. */
const setApart = (expression: string, world: World) => {
  const run = (input: JsonValue) => JSON.stringify(jq.evaluate(input, expression));
  const nobody = run({ ...(inputOf('entity', [], world) as JsonObject), team: ['\u0001nobody'] });
  return TEAMS.filter((team) => run(inputOf('entity', [team.name], world)) !== nobody).map((team) => team.name);
};
/** Written for identifiers: with identifiers it sets some teams apart, and every team it set apart with titles. */
const writtenForIdentifiers = (expression: string) => {
  const after = setApart(expression, 'after');
  return after.length > 0 && setApart(expression, 'before').every((title) => after.includes(title));
};

describe('a comparison with a transformation of identifiers, on a migrated org', () => {
  it.each([
    '.team[0] | split("_")[0] == "data"',
    '.team | map(ascii_upcase) | index("DATA_SCIENCE") != null',
    '.team[0] == ("cWE=" | @base64d)',
    '.team[0] | gsub("_"; "-") == "data-science"',
    // A regex whose alternatives are identifiers: every alternative meets a team's identifier today.
    '.team[0] | test("^(data_science|qa)$")',
    '.team | any(test("^(platform|z_alpha)$"))',
  ])('%s is written for identifiers: unaffected', (expression) => {
    expect(expectedClass(jq, 'entity', expression)).toBe('changed');
    expect(writtenForIdentifiers(expression)).toBe(true);
    expect(judgedOnMigratedOrg(expression)?.verdict).toBe('unaffected');
  });

  it.each([
    // A transformation of a title: it set Data Science apart before and sets nobody apart now.
    '.team[0] | split(" ")[0] == "Data"',
    '.team[0] == ("UUE=" | @base64d)',
    // A title beside an identifier: QA is no longer set apart.
    '.team[0] == "QA" or .team[0] == "data_science"',
    // A regex whose alternatives are titles, or a title beside an identifier.
    '.team[0] | test("^(Data Science|QA)$")',
    '.team[0] | test("^(data_science|QA)$")',
  ])('%s still breaks', (expression) => {
    expect(expectedClass(jq, 'entity', expression)).toBe('changed');
    expect(writtenForIdentifiers(expression)).toBe(false);
    expect(judgedOnMigratedOrg(expression)?.verdict).toBe('breaks');
  });
});
