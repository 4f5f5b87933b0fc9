/** Calculation properties (a value people read): the class computed here by running jq on both worlds decides the expected verdict. */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { prefetchRuleJq } from '../../src/jq/prefetch-rules.js';
import { judgeRule } from '../../src/judge/site-judge.js';
import { calculationProperty } from '../../src/rules/calculation-property.js';
import { expectedVerdict, judged, judgeTable, org, type Row } from './two-worlds.js';

const ROWS: Row[] = [
  { name: 'the teams as they are: identifiers where titles were', expression: '.team', shows: 'substituted' },
  { name: 'joined: titles inside one string become identifiers', expression: '.team | join(", ")', shows: 'substituted' },
  { name: 'the first team after sorting: titles and identifiers sort differently', expression: '.team | sort | .[:1]', shows: 'changed' },
  { name: 'a slug normaliser fits only teams whose identifier is that slug', expression: '.team | map(ascii_downcase | gsub(" "; "_"))', shows: 'changed' },
  { name: 'a title comparison', expression: '.team | index("QA") != null', shows: 'changed' },
  { name: 'an identifier comparison, before the migration', expression: '.team | index("qa") != null', shows: 'changed' },
  { name: 'how many teams', expression: '.team | length', shows: 'same' },
  { name: 'a substring of a title', expression: '.team | any(contains("Data"))', shows: 'changed' },
];

const jq = useJqEngine();

const snapshot = (calculation: string) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { owners: { title: 'Owners', calculation, type: 'string' } } }] });

judgeTable('calculation: (expression, teams) → (class, verdict)', {
  jq,
  kind: 'entity',
  rows: ROWS,
  snapshot: (row) => snapshot(row.expression),
  location: 'calculationProperties.owners.calculation',
  verdict: (klass) => expectedVerdict(klass, 'shown'),
});

describe('impact.entities on the finding', () => {
  it('counts the blueprint\'s entities whose value changes, computed in jq on both worlds', () => {
    const expression = '.team | index("QA") != null';
    const entities = [
      { identifier: 'a', team: ['QA'] },
      { identifier: 'b', team: ['Alpha'] },
      { identifier: 'c', team: ['QA', 'Beta'] },
    ];
    const snap = { ...snapshot(expression), entities: { service: entities } };
    const { finding } = judged(jq, snap, 'calculationProperties.owners.calculation');
    const toId = new Map([['QA', 'qa'], ['Alpha', 'z_alpha'], ['Beta', 'a_beta']]);
    const run = (team: string[]) => JSON.stringify(jq.evaluate({ team }, expression));
    const changed = entities.filter((e) => run(e.team) !== run(e.team.map((t) => toId.get(t)!))).length;
    expect(changed).toBe(2);
    expect(finding.impact?.entities).toMatchObject({ changed, read: 3, example: { identifier: 'a', before: 'true', after: 'false' } });
  });

  it('is planned with the rest of the rules\' jq work: judging the rule asks jq nothing more for it', () => {
    // A plan's answers make every calculation unaffected: the entities' runs are planned all the same.
    const snap = { ...snapshot('.team | index("Alpha") != null'), entities: { service: [{ identifier: 'd', team: ['Alpha'] }, { identifier: 'e', team: ['Beta'] }] } };
    const catalog = buildCatalog(snap, { jq });
    prefetchRuleJq(catalog, [calculationProperty], judgeRule);
    const planned = jq.requests!();
    const [finding] = judgeRule(catalog, calculationProperty);
    expect(finding?.impact?.entities).toMatchObject({ changed: 1, read: 2 });
    expect(jq.requests!() - planned).toBe(0);
  });
});
