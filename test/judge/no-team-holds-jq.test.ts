/**
 * Issue 39, build 7: after the migration, a team value no team of the org holds today breaks in a
 * jq expression too (not only in `$team` rules): it is compared with the user's teams and matches
 * nothing now. The teams it could have meant are named. A literal a team holds, or one the
 * expression never compares with team values, stays as the rest of the judge says.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, MIGRATED_ORGANIZATION, migrationPart, org, servicesWithCalculations } from './two-worlds.js';

const jq = useJqEngine();
const LOCATION = 'permissions.execute.policy.conditions[0]';

const judgedIn = (migrated: boolean, condition: string) => {
  const report = analyze(
    buildCatalog(
      org({
        ...(migrated && { organization: MIGRATED_ORGANIZATION }),
        actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: {}, required: [] } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com/hook' } }],
        actionPermissions: { deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } } } },
      }),
      { jq },
    ),
  );
  return [...report.findings, ...(report.verified ?? [])].find((f) => f.resource.identifier === 'deploy' && f.location.startsWith(LOCATION));
};

describe('a team value no team holds today, in a jq expression, after the migration', () => {
  it('breaks and names the teams it could have meant', () => {
    const finding = judgedIn(true, '.user.team | any(. == "data-science")');
    expect(finding?.verdict).toBe('breaks');
    expect(finding?.reason).toContain('"data-science" is no team of the org today');
    expect(finding?.reason).toContain('"data_science" (Data Science)');
  });

  it('a value a team holds today is judged as before', () => {
    const finding = judgedIn(true, '.user.team | any(. == "data_science")');
    expect(finding?.verdict).toBe('unaffected');
  });

  it('a literal never compared with team values is no team value', () => {
    const finding = judgedIn(true, '(.user.team | length > 0) and .user.email != "data-science@example.com"');
    expect(finding?.reason ?? '').not.toContain('is no team of the org today');
  });

  // What the expression does with the literal decides, not equality: a prefix or another case
  // that a team of today's org meets is no ghost; one no team meets is.
  it.each([
    ['.user.team | any(startswith("data-"))', 'breaks'],
    ['.user.team | any(startswith("plat"))', 'kept'],
    ['.user.team | any(ascii_upcase == "DATA_SCIENCE")', 'kept'],
    ['.user.team | any(ascii_upcase == "DATA-SCIENCE")', 'breaks'],
    // A separator is no team value, though the teams show through it.
    ['.user.team | join(", ") | length > 3', 'kept'],
  ])('%s: a literal judged by what the expression does with it (%s)', (condition, expected) => {
    const finding = judgedIn(true, condition);
    if (expected === 'breaks') expect(finding?.verdict).toBe('breaks');
    expect((finding?.reason ?? '').includes('is no team of the org today')).toBe(expected === 'breaks');
  });

  it('before the migration the same value is left to the rest of the judge', () => {
    expect(judgedIn(false, '.user.team | any(. == "data-science")')?.reason ?? '').not.toContain('is no team of the org today');
  });
});

// Held-out check: a fallback's sentinel compared only with itself (`(.team[0] // "unowned") !=
// "unowned"`) stands for no team, not a team that is gone: jq gives the same in both worlds, and the
// verdict is that class's. The sentinel beside a ghost compared with teams still lets the ghost break.
describe('a literal that stands for no team, after the migration', () => {
  const calculation = (expression: string) => judged(jq, servicesWithCalculations({ flag: [expression, 'boolean'] }, migrationPart(true)), 'calculationProperties.flag.calculation').finding;

  it.each(['(.team[0] // "unowned") != "unowned"', '(.team | first // "none") == "none"', '.team | map(select(. != "nobody")) | length > 0'])('%s is judged by what jq gives in both worlds', (expression) => {
    const finding = calculation(expression);
    expect(finding.reason).not.toContain('is no team of the org today');
    expect(finding.verdict).toBe(expectedVerdict(expectedClass(jq, 'entity', expression), 'shown'));
  });

  it('a ghost compared with teams beside such a sentinel still breaks', () => {
    const finding = calculation('(.team[0] // "unowned") == "data-science"');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('"data-science" is no team of the org today');
    expect(finding.reason).not.toContain('"unowned" is no team');
  });
});
