/**
 * A calculation derived from team values is filled into the sample entities of the expressions that
 * can see it (they read it by name, or read beyond fixed paths), and only of those. Given every one of
 * its blueprint's, each expression filled them all on each context: a blueprint of n such calculations
 * cost n² runs (120 took 40 s in one org's analysis). Counted in runs, not timed.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JqEngine } from '../../src/jq/engine.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

const FIRST = '.team | join(", ") | . + " (0)"';

function orgWithCalculations(count: number): OrgSnapshot {
  const calculationProperties: JsonObject = { c000: { title: 'c000', type: 'string', calculation: FIRST } };
  for (let i = 1; i < count; i++) calculationProperties[`c${String(i).padStart(3, '0')}`] = { title: `c${i}`, type: 'string', calculation: `.team | join(", ") | . + " (${i})"` };
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_calc', name: 'Calculations' },
    teams: [
      { name: 'Platform Team', identifier: 'platform' },
      { name: 'Payments', identifier: 'payments' },
    ],
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties }],
    entities: { service: [{ identifier: 's1', team: ['Platform Team'] }] },
  };
}

/** How often jq was asked to run `expression` in one analysis of `org`, and the findings on it. */
function runsOf(org: OrgSnapshot, expression: string): { runs: number; findings: string[] } {
  let runs = 0;
  const counting: JqEngine = { ...jq, evaluate: (input, text) => ((runs += text === expression ? 1 : 0), jq.evaluate(input, text)) };
  const report = analyze(buildCatalog(org, { jq: counting }));
  const findings = report.findings.filter((finding) => finding.location.includes('c000')).map((finding) => `${finding.category} ${finding.verdict ?? '-'}`);
  return { runs, findings };
}

describe('derived calculations an expression cannot see', () => {
  it('are not run for it: a calculation is run as often beside 40 others as beside 4', () => {
    const few = runsOf(orgWithCalculations(5), FIRST);
    const many = runsOf(orgWithCalculations(41), FIRST);
    expect(few.runs).toBeGreaterThan(0);
    expect(many.runs).toBe(few.runs);
    // The same verdict on it either way.
    expect(many.findings).toEqual(few.findings);
    expect(few.findings.length).toBeGreaterThan(0);
  });
});
