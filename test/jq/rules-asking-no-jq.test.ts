import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeRule } from '../../src/judge/site-judge.js';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { prefetchRuleJq } from '../../src/jq/prefetch-rules.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { RULES } from '../../src/rules/index.js';
import type { Rule } from '../../src/rules/rule.js';
import { loadSnapshotFile } from '../../src/sources/snapshot-file.js';
import { analysableSnapshot } from '../../src/sources/validate-snapshot.js';

/**
 * A rule flagged `asksJq: false` is left out of the dry run that plans jq's work: the flag must be
 * true to what the rule does. Each rule runs on every fixture org (before and after the migration)
 * and a synthetic one, with the real engine counting what it is asked.
 */
let jq: JqEngine;
const orgs: [string, OrgSnapshot][] = [];
beforeAll(async () => {
  jq = await loadJqEngine({ workers: 1 });
  for (const dir of ['fixtures', 'test/fixtures']) {
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
      // Every org fixture, found by its format, so one added later is covered too.
      if (!/"format"\s*:\s*"org-snapshot\/1"/.test(readFileSync(`${dir}/${name}`, 'utf8').slice(0, 4096))) continue;
      orgs.push([name, analysableSnapshot((await loadSnapshotFile(`${dir}/${name}`)).snapshot)]);
    }
  }
  orgs.push(['synthetic', generateSyntheticOrg({ blueprints: 12, actions: 24, pages: 6, distinctExpressions: true })]);
});
afterAll(() => jq.close?.());

function counting(engine: JqEngine): { engine: JqEngine; asked: () => number } {
  let asked = 0;
  return {
    engine: {
      validate: (expression) => (asked++, engine.validate(expression)),
      evaluate: (input, expression) => (asked++, engine.evaluate(input, expression)),
    },
    asked: () => asked,
  };
}

function askedBy(rule: Rule): number {
  let total = 0;
  for (const [, org] of orgs) {
    const counter = counting(jq);
    judgeRule(buildCatalog(org, { jq: counter.engine }), rule);
    total += counter.asked();
  }
  return total;
}

describe('rules that ask jq nothing', { timeout: 120_000 }, () => {
  it.each(RULES.filter((rule) => rule.asksJq === false).map((rule) => [rule.category, rule] as const))('%s asks jq nothing on any fixture', (_name, rule) => {
    expect(askedBy(rule)).toBe(0);
  });

  it('the count sees rules that do ask (negative case)', () => {
    for (const category of ['calculation-property', 'action-user-input', 'action-mapping', 'action-dynamic-permission']) {
      const rule = RULES.find((candidate) => candidate.category === category)!;
      expect(rule.asksJq).toBeUndefined();
      expect(askedBy(rule)).toBeGreaterThan(0);
    }
  });

  it('the dry run skips a rule flagged so', () => {
    let checked = 0;
    const flagged: Rule = { category: 'scorecard-rule', asksJq: false, check: () => (checked++, []) };
    const asking: Rule = { category: 'scorecard-rule', check: () => (checked++, []) };
    const catalog = buildCatalog(orgs[0]![1], { jq });
    prefetchRuleJq(catalog, [flagged], judgeRule);
    expect(checked).toBe(0);
    prefetchRuleJq(catalog, [asking], judgeRule);
    expect(checked).toBe(1);
  });
});
