/**
 * Issue 39: on a migrated org, an expression that compares team values with a transformation of
 * identifiers (a case fold, a slug, `@base64d`, `split("_")[0]`) is written for what the org holds
 * today, though no literal of it is an identifier to read back. Running it over each of the org's
 * teams in both worlds decides: with identifiers it sets some teams apart, and every team it set
 * apart with titles it still does. One that set a team apart by its title and no longer does breaks.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, judged, migrationPart, servicesWithCalculations } from './two-worlds.js';

const jq = useJqEngine();

const judgedOnMigratedOrg = (expression: string) => judged(jq, servicesWithCalculations({ flag: [expression, 'boolean'] }, migrationPart(true)), 'calculationProperties.flag.calculation').finding;

describe('a comparison with a transformation of identifiers, on a migrated org', () => {
  it.each([
    '.team[0] | split("_")[0] == "data"',
    '.team | map(ascii_upcase) | index("DATA_SCIENCE") != null',
    '.team[0] == ("cWE=" | @base64d)',
    '.team[0] | gsub("_"; "-") == "data-science"',
  ])('%s is written for identifiers: unaffected', (expression) => {
    expect(expectedClass(jq, 'entity', expression)).toBe('changed');
    expect(judgedOnMigratedOrg(expression)?.verdict).toBe('unaffected');
  });

  it.each([
    // A transformation of a title: it set Data Science apart before and sets nobody apart now.
    '.team[0] | split(" ")[0] == "Data"',
    '.team[0] == ("UUE=" | @base64d)',
    // A title beside an identifier: QA is no longer set apart.
    '.team[0] == "QA" or .team[0] == "data_science"',
  ])('%s still breaks', (expression) => {
    expect(expectedClass(jq, 'entity', expression)).toBe('changed');
    expect(judgedOnMigratedOrg(expression)?.verdict).toBe('breaks');
  });
});
