/**
 * Issue 39, held-out check: with no teams map, a team known by title only may be given any identifier,
 * its title itself among them (an org's Ops/Ops). A change only the pending stand-in shows is no break:
 * `breaks` only when jq shows the change with every identifier the team could be given, else the
 * `identifier-unknown` review, for expressions and for search rules alike (one row of the table).
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import type { Verdict } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { expectedRuleClass, judged, org } from './two-worlds.js';

const jq = useJqEngine();
const TITLES_ONLY = [{ name: 'Data Science' }, { name: 'QA' }, { name: 'Alpha' }];
const SHAPED_LIKE_AN_IDENTIFIER = /^[A-Za-z0-9@_.+:/=-]+$/;

/** The title in an identifier's characters: each run of other characters as "_", "-" or nothing, in its case and lower case. */
const titleSpellings = (title: string) => ['_', '-', ''].flatMap((joint) => {
  const text = title.split(/[^A-Za-z0-9]+/).filter(Boolean).join(joint);
  return [text, text.toLowerCase()];
});

/**
 * Identifiers the team may get, as the tests see it: its title where the title could be one, the
 * title in an identifier's characters, one no string meets, and each string the site spells that is
 * shaped like an identifier.
 */
const possibleIdentifiers = (title: string, strings: readonly string[]) => [
  ...(SHAPED_LIKE_AN_IDENTIFIER.test(title) ? [title] : []),
  ...titleSpellings(title),
  'fresh_7919',
  ...strings.filter((text) => SHAPED_LIKE_AN_IDENTIFIER.test(text) && text.length > 1),
];
const stringsOf = (expression: string) => [...expression.matchAll(/"([^"]*)"/g)].map(([, text]) => text!);

/** The verdict from jq's answers with each possible identifier: a change with all is a break, with some a review. */
function verdictOver(changedWith: boolean[]): Verdict {
  if (changedWith.every(Boolean)) return 'breaks';
  return changedWith.some(Boolean) ? 'review' : 'unaffected';
}

function calculationVerdict(expression: string, title: string): Verdict {
  const run = (team: string) => JSON.stringify(jq.evaluate({ identifier: 'e', title: 'e', team: [team], properties: {}, relations: {} }, expression));
  return verdictOver(possibleIdentifiers(title, stringsOf(expression)).map((identifier) => run(title) !== run(identifier)));
}

/** The same for an automation's condition over a change that takes the team away (`.diff.before` holds it, `.diff.after` none). */
function takenAwayVerdict(expression: string, title: string): Verdict {
  const run = (team: string) => JSON.stringify(jq.evaluate({ diff: { before: { identifier: 'e', team: [team] }, after: { identifier: 'e', team: [] } } }, expression));
  return verdictOver(possibleIdentifiers(title, stringsOf(expression)).map((identifier) => run(title) !== run(identifier)));
}

function ruleVerdict(operator: string, values: string[], title: string): Verdict {
  const match = (team: string) => expectedRuleClass.match(jq, operator, [team], values);
  return verdictOver(possibleIdentifiers(title, values).map((identifier) => match(title) !== match(identifier)));
}

const service = (parts: JsonObject) =>
  org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...parts }], entities: { service: TITLES_ONLY.map((team, i) => ({ identifier: `s${i}`, title: `s${i}`, team: [team.name] })) } }, TITLES_ONLY);

describe('calculations over a team known by title only', () => {
  it.each([
    ['.team | index("QA") != null', 'QA', 'review'],
    ['.team | map(ascii_upcase) | index("ALPHA") != null', 'Alpha', 'review'],
    ['.team | index("Data Science") != null', 'Data Science', 'breaks'],
  ] as const)('%s: the verdict jq gives over every identifier %s could get', (calculation, title, shows) => {
    const verdict = calculationVerdict(calculation, title);
    expect(verdict, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, service({ calculationProperties: { c: { title: 'c', calculation, type: 'boolean' } } }), 'calculationProperties.c.calculation');
    expect(finding.verdict).toBe(verdict);
    if (verdict === 'review') expect(finding.reason).toContain(`identifier "${title}" for "${title}"`);
  });
});

describe('scorecard rules on $team over a team known by title only', () => {
  it.each([
    ['!=', 'QA', 'QA', 'review'],
    ['in', ['Alpha', 'alpha'], 'Alpha', 'review'],
    ['in', ['Data Science'], 'Data Science', 'breaks'],
  ] as const)('%s %j: the verdict jq gives over every identifier %s could get', (operator, value, title, shows) => {
    const verdict = ruleVerdict(operator, Array.isArray(value) ? [...value] : [value as string], title);
    expect(verdict, 'the row shows what it says').toBe(shows);
    const scorecards = [{ blueprint: 'service', identifier: 'sc', title: 'sc', rules: [{ identifier: 'r', title: 'r', level: 'Gold', query: { combinator: 'and', conditions: [{ property: '$team', operator, value }] } }] }];
    const { finding } = judged(jq, { ...service({}), scorecards } as ReturnType<typeof org>, 'rules[0].query.conditions[0]');
    expect(finding.verdict).toBe(verdict);
    if (verdict === 'review') expect(finding.reason).toContain(`(the same with identifier "${title}" for "${title}")`);
  });
});

// Held-out m8: a prefix of a title-only team's title in a condition over a change was verified, as the
// change was tried with a team on one side only for the first team picked, never the title-only one.
describe('an automation condition over a change, with a team known by title only', () => {
  it.each([
    ['(.diff.before.team - .diff.after.team) | any(test("^Dat"))', 'Data Science', 'review'],
    ['(.diff.before.team - .diff.after.team) | any(test("^Data Science"))', 'Data Science', 'breaks'],
  ] as const)('%s: the verdict jq gives over every identifier %s could get', (condition, title, shows) => {
    const verdict = takenAwayVerdict(condition, title);
    expect(verdict, 'the row shows what it says').toBe(shows);
    const automation = {
      identifier: 'lost',
      title: 'lost',
      trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', expressions: [condition], combinator: 'and' } },
      invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x', agent: false, synchronized: true, method: 'POST', body: { id: '{{ .event.diff.after.identifier }}' } },
    };
    const { finding } = judged(jq, { ...service({}), actions: [automation] } as ReturnType<typeof org>, 'trigger.condition.expressions[0]');
    expect(finding.verdict).toBe(verdict);
  });
});

// Held-out m11: two one-word teams known by title only, held together by an entity. An expression that
// keeps its result only when both get their titles as identifiers was breaks: each team was given the
// identifiers it could get alone, the other keeping its pending stand-in, so no assignment kept it.
describe('a calculation over two teams known by title only, held together', () => {
  const PAIR = [{ name: 'Payments' }, { name: 'Platform' }];
  const pairOrg = (calculation: string) =>
    org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { c: { title: 'c', calculation, type: 'string' } } }], entities: { service: [{ identifier: 's', title: 's', team: ['Payments', 'Platform'] }, { identifier: 't', title: 't', team: ['Platform'] }] } }, PAIR);
  /** The verdict over every pair of identifiers the two could get, on the pair the org holds. */
  const pairVerdict = (expression: string): Verdict => {
    const run = (team: string[]) => JSON.stringify(jq.evaluate({ identifier: 's', title: 's', team, properties: {}, relations: {} }, expression));
    const options = (title: string) => possibleIdentifiers(title, stringsOf(expression));
    return verdictOver(options('Payments').flatMap((p) => options('Platform').map((q) => run(['Payments', 'Platform']) !== run([p, q]))));
  };
  it.each([
    // Only the pair shows these change: it is kept with both titles as identifiers, together.
    ['.team == ["Payments", "Platform"]', 'review', 'identifiers "Payments" for "Payments" and "Platform" for "Platform"'],
    ['.team | map(select(. == "Payments" or . == "Platform")) | length == 2', 'review', 'identifiers "Payments" for "Payments" and "Platform" for "Platform"'],
    // Each team alone shows this one change, kept with its title.
    ['[.team[] | {"Payments": 1, "Platform": 2}[.]] | add', 'review', 'identifier "Payments" for "Payments"'],
  ] as const)('%s: the verdict jq gives over every pair of identifiers they could get', (calculation, shows, keptWith) => {
    const verdict = pairVerdict(calculation);
    expect(verdict, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, pairOrg(calculation), 'calculationProperties.c.calculation');
    expect(finding.verdict).toBe(verdict);
    expect(finding.reason).toContain(`the same with ${keptWith}`);
  });
  it('with a teams map the identifiers are known, and a change is a break', () => {
    const calculation = '.team == ["Payments", "Platform"]';
    const report = analyze(buildCatalog(pairOrg(calculation), { jq, teamsMap: { Payments: 'payments', Platform: 'platform' } }));
    expect(report.findings.find((f) => f.location === 'calculationProperties.c.calculation')?.verdict).toBe('breaks');
  });
});

// Held-out m14: an "or" of a rule on the team's title and a rule on the identifier it may get keeps
// matching as a whole if the migration gives the team that identifier, and stops otherwise; its title
// rule was breaks, as the group was judged whole only where it held with the pending stand-in.
describe('a scorecard "or" of a title-only team\'s title and an identifier it may get', () => {
  const scorecardOf = (conditions: JsonObject[]) => [{ blueprint: 'service', identifier: 'sc', title: 'sc', rules: [{ identifier: 'r', title: 'r', level: 'Gold', query: { combinator: 'or', conditions } }] }];
  it.each([
    [['Data Science', 'data_science'], 'review'],
    [['Data Science', 'Data Science'], 'breaks'],
  ] as const)('$team = %j, combined with "or": the verdict jq gives over every identifier it could get', (values, shows) => {
    const title = 'Data Science';
    const whole = (team: string) => values.some((value) => expectedRuleClass.match(jq, '=', [team], [value]));
    const verdict = verdictOver(possibleIdentifiers(title, [...values]).map((identifier) => whole(title) !== whole(identifier)));
    expect(verdict, 'the row shows what it says').toBe(shows);
    const snapshot = { ...service({}), scorecards: scorecardOf(values.map((value) => ({ property: '$team', operator: '=', value }))) } as ReturnType<typeof org>;
    for (const location of ['rules[0].query.conditions[0]', 'rules[0].query.conditions[1]']) {
      const { finding } = judged(jq, snapshot, location);
      expect(finding.verdict).toBe(verdict);
      if (verdict === 'review') expect(finding.reason).toContain(`matched as a whole, what it gives depends on the identifier the migration assigns a team known only by title`);
    }
    if (verdict === 'review') {
      // With a teams map the identifier is known: the title rule breaks unless the map gives the spelled one.
      const report = analyze(buildCatalog(snapshot, { jq, teamsMap: { 'Data Science': 'ds', QA: 'qa', Alpha: 'alpha' } }));
      expect(report.findings.find((f) => f.location === 'rules[0].query.conditions[0]')?.verdict).toBe('breaks');
    }
  });
});
