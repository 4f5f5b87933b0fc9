/**
 * Issue 39, item 4: a calculation property that passes the entity's team values on (`.team`) holds
 * team values, titles before the migration and identifiers after it, as a mirror of `$team` does:
 * its readers (a scorecard rule, a calculation) read team values. Whether it passes them on is
 * decided by running it in both worlds, never by its text; one that only counts them does not.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, judged, servicesWithCalculations } from './two-worlds.js';

const jq = useJqEngine();

const withCalculation = (calculation: string): OrgSnapshot =>
  servicesWithCalculations({ owners: [calculation, 'array'], qa_owned: ['.properties.owners | index("QA") != null', 'boolean'] }, {
    scorecards: [{ identifier: 'ownership', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'qa', title: 'QA', level: 'Gold', query: { combinator: 'and', conditions: [{ property: 'owners', operator: 'containsAny', value: ['QA'] }] } }] }],
  });

describe('a calculation that passes team values on is team-valued for its readers (item 4)', () => {
  it('a scorecard rule comparing it with a title breaks, as on $team', () => {
    expect(expectedClass(jq, 'entity', '.team', true)).toBe('substituted');
    const { finding } = judged(jq, withCalculation('.team'), 'rules[0].query.conditions[0]');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('on calculation property "owners" (it passes the values of $team on)');
  });

  it('a calculation reading it with a title breaks', () => {
    const { finding } = judged(jq, withCalculation('.team'), 'calculationProperties.qa_owned.calculation');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('a calculation that passes them on');
  });

  it('one that only counts the teams holds no team value: its readers are not flagged', () => {
    expect(expectedClass(jq, 'entity', '.team | length')).toBe('same');
    const report = analyze(buildCatalog(withCalculation('.team | length'), { jq }));
    expect(report.findings.filter((f) => f.location === 'rules[0].query.conditions[0]' || f.location === 'calculationProperties.qa_owned.calculation')).toEqual([]);
  });
});
