/**
 * Issue 39, item 4: a calculation derived from team values that is no plain pass-through (`join`,
 * `map`, a case fold) holds values that differ between the worlds, and the rules that read it (a
 * scorecard condition, a widget filter, an input's dataset) are judged by running it there: the calculation on an
 * entity of every team set, titles before the migration and identifiers after it, then the rule's
 * operator. Each expected class is computed here in jq the same way; the judge's own code decides
 * nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedRuleClass, expectedVerdict, inputOf, judgeTable, servicesWithCalculations, TEAM_SETS, type ExpectedClass, type Row } from './two-worlds.js';

const jq = useJqEngine();

type Where = 'scorecard' | 'widget' | 'dataset';

const LOCATION: Record<Where, string> = {
  scorecard: 'rules[0].query.conditions[0]',
  widget: 'widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]',
  dataset: 'trigger.userInputs.properties.target.dataset.rules[0]',
};

const snapshot = (calculation: string, rule: JsonObject, where: Where) =>
  servicesWithCalculations({ owners_text: [calculation, 'string'] }, {
    ...(where === 'dataset' && {
      actions: [
        {
          identifier: 'deploy',
          title: 'Deploy',
          trigger: { type: 'self-service', operation: 'CREATE', userInputs: { properties: { target: { type: 'string', format: 'entity', blueprint: 'service', dataset: { combinator: 'and', rules: [rule] } } } } },
          invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
        },
      ],
    }),
    ...(where === 'dataset'
      ? {}
      : where === 'scorecard'
      ? { scorecards: [{ identifier: 'sc', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'r', title: 'R', level: 'Gold', query: { combinator: 'and', conditions: [rule] } }] }] }
      : { pages: [{ identifier: 'services', title: 'Services', type: 'dashboard', widgets: [{ id: 'w1', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [rule] } } } } }] }] }),
  });

/** The calculation's strings on an entity of `titles`, in one world, as the rule sees them. */
function calculated(calculation: string, titles: readonly string[], world: 'before' | 'after'): string[] {
  const result = jq.evaluate(inputOf('entity', titles, world), calculation);
  if (!result.ok) return ['<an error>'];
  return result.values.flatMap((value) => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : [JSON.stringify(value)]));
}

/** The rule's class, by matching it in jq on the calculation run on every team set in both worlds. */
function expected(calculation: string, operator: string, values: string[]): ExpectedClass {
  const changes = TEAM_SETS.some((set) => expectedRuleClass.match(jq, operator, calculated(calculation, set, 'before'), values) !== expectedRuleClass.match(jq, operator, calculated(calculation, set, 'after'), values));
  return changes ? 'changed' : 'same';
}

const ROWS: { calculation: string; operator: string; values: string[] }[] = [
  { calculation: '.team | join(", ")', operator: 'contains', values: ['Data Science'] },
  { calculation: '.team | join(", ")', operator: 'beginsWith', values: ['Platform'] },
  { calculation: '.team | map(ascii_downcase)', operator: '=', values: ['qa'] },
  { calculation: '.team | map(ascii_downcase)', operator: 'containsAny', values: ['alpha'] },
  { calculation: '.team | map(ascii_downcase) | join(",")', operator: 'beginsWith', values: ['platform'] },
  { calculation: '.team | map(ascii_downcase | gsub(" "; "_"))', operator: 'in', values: ['data_science'] },
];

describe('a rule on a calculation derived from team values', () => {
  for (const row of ROWS) {
    for (const where of ['scorecard', 'widget', 'dataset'] as const) {
      it(`${row.calculation} ${row.operator} ${JSON.stringify(row.values)} (${where})`, () => {
        const rule = { property: 'owners_text', operator: row.operator, value: row.values.length === 1 ? row.values[0]! : row.values };
        const report = analyze(buildCatalog(snapshot(row.calculation, rule, where), { jq }));
        const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION[where]);
        const klass = expected(row.calculation, row.operator, row.values);
        expect(finding?.verdict ?? 'unaffected').toBe(klass === 'changed' ? 'breaks' : 'unaffected');
        if (klass === 'changed') expect(finding?.reason).toContain('on calculation property "owners_text" (derived from $team');
      });
    }
  }

  it('the rows show both classes', () => {
    const classes = new Set(ROWS.map((row) => expected(row.calculation, row.operator, row.values)));
    expect([...classes].sort()).toEqual(['changed', 'same']);
  });
});

// jq reading a derived calculation (another calculation here) reads what that calculation gives in
// each world: its class is computed by running the reader on an entity whose property holds it.
interface ReaderRow extends Row {
  derivedFrom: string;
  reader: string;
}
const reading = (derivedFrom: string, reader: string, shows?: ExpectedClass): ReaderRow => ({
  name: `${reader} over ${derivedFrom}`,
  derivedFrom,
  reader,
  expression: `(.properties.owners_text = (${derivedFrom})) | ${reader}`,
  ...(shows && { shows }),
});

judgeTable('a calculation reading a calculation derived from team values', {
  jq,
  kind: 'entity',
  rows: [
    reading('.team | join(", ")', '.properties.owners_text | contains("QA")', 'changed'),
    reading('.team | join(", ")', '.properties.owners_text | length > 0', 'same'),
    reading('.team | map(ascii_downcase)', '.properties.owners_text | index("qa") != null', 'same'),
    reading('.team | map(ascii_downcase)', '.properties.owners_text | any(startswith("platform ("))', 'changed'),
  ],
  snapshot: (row) => servicesWithCalculations({ owners_text: [row.derivedFrom, 'string'], flag: [row.reader, 'boolean'] }),
  location: 'calculationProperties.flag.calculation',
  verdict: (klass) => expectedVerdict(klass, "shown"),
  check: ({ finding }) => expect(finding.reason).toContain("a calculation derived from team values"),
});

// Held-out check: a rule value that is no string (a boolean, a number, null) on a calculation
// derived from team values was dropped without a finding, a verified entry or a note. Its class is
// computed here in jq, the calculation's own value (a scalar as the one value it holds) matched.
function calculatedJson(calculation: string, titles: readonly string[], world: 'before' | 'after'): JsonValue[] {
  const result = jq.evaluate(inputOf('entity', titles, world), calculation);
  if (!result.ok) return ['<an error>'];
  return result.values.flatMap((value) => (Array.isArray(value) ? value : [value]));
}
function expectedScalar(calculation: string, operator: string, value: JsonValue): ExpectedClass {
  const matches = (held: JsonValue[]) => {
    const result = jq.evaluate({ teams: held, values: [value] }, SCALAR_MATCH[operator]!);
    return result.ok && result.values[0] === true;
  };
  return TEAM_SETS.some((set) => matches(calculatedJson(calculation, set, 'before')) !== matches(calculatedJson(calculation, set, 'after'))) ? 'changed' : 'same';
}
const SCALAR_MATCH: Record<string, string> = {
  '=': '.values as $v | .teams as $t | ($v | length > 0) and all($v[]; . as $x | $t | index([$x]) != null)',
  '!=': '.values as $v | .teams as $t | any($v[]; . as $x | $t | index([$x]) != null) | not',
};
const SCALAR_ROWS: { calculation: string; operator: string; value: JsonValue }[] = [
  { calculation: '.team | index("QA") != null', operator: '=', value: true },
  { calculation: '.team | map(ascii_downcase) | index("platform (eu)") != null', operator: '=', value: true },
  { calculation: '.team | index("QA") != null', operator: '!=', value: false },
  { calculation: '.team | map(select(. == "Alpha")) | length', operator: '=', value: 1 },
  { calculation: '.team | map(ascii_downcase) | index("platform (eu)") != null', operator: '=', value: 1 },
  { calculation: '.team | index("QA") != null', operator: '!=', value: 7 },
];

describe('a rule with a value that is no string, on a calculation derived from team values', () => {
  for (const row of SCALAR_ROWS) {
    it(`${row.calculation} ${row.operator} ${JSON.stringify(row.value)} (widget)`, () => {
      const rule = { property: 'owners_text', operator: row.operator, value: row.value };
      const report = analyze(buildCatalog(snapshot(row.calculation, rule, 'widget'), { jq }));
      const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === LOCATION.widget);
      const klass = expectedScalar(row.calculation, row.operator, row.value);
      expect(finding?.verdict).toBe(klass === 'changed' ? 'breaks' : 'unaffected');
    });
  }

  it('the rows show both classes', () => {
    expect([...new Set(SCALAR_ROWS.map((row) => expectedScalar(row.calculation, row.operator, row.value)))].sort()).toEqual(['changed', 'same']);
  });

  it('a null value is judged, not dropped', () => {
    const rule = { property: 'owners_text', operator: '=', value: null };
    const report = analyze(buildCatalog(snapshot('.team | map(ascii_downcase) | first', rule, 'widget'), { jq }));
    expect([...report.findings, ...(report.verified ?? [])].some((f) => f.location === LOCATION.widget)).toBe(true);
  });

  it('a value of a shape no rule takes is said, not dropped', () => {
    const rule = { property: 'owners_text', operator: '=', value: { some: 'object' } };
    const report = analyze(buildCatalog(snapshot('.team | join(",")', rule, 'widget'), { jq }));
    const finding = report.findings.find((f) => f.location === LOCATION.widget);
    expect(finding?.verdict).toBe('review');
    expect(finding?.reason).toContain('a value of a shape this tool does not know');
  });
});
