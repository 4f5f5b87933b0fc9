/**
 * Issue 39, item 4: a calculation that passes one team on as a string (`.team | first`) is read
 * as jq computes it from the entity in each world, never as the entity's list of teams: a reader
 * comparing it with a string (a calculation, a DAY-2 input's visibility) sees that string. Each
 * expected class is computed here by running the calculation, then the reader, in both worlds.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, inputOf, judged, servicesWithCalculations, TEAM_SETS, type ExpectedClass, type World } from './two-worlds.js';

const jq = useJqEngine();

const LEAD = '.team | first';

/** The entity of `titles` in one world with `lead` as the calculation gives it there. */
function withLead(titles: readonly string[], world: World): JsonValue {
  const entity = inputOf('entity', titles, world) as { properties: Record<string, JsonValue> };
  const lead = jq.evaluate(entity, LEAD);
  entity.properties.lead = lead.ok ? (lead.values[0] ?? null) : null;
  return entity;
}

/** The reader's class: run on the entity of every team set, with its calculation's own value, titles before and identifiers after. */
function expected(reader: (entity: JsonValue) => JsonValue, expression: string): ExpectedClass {
  const run = (world: World, set: readonly string[]) => JSON.stringify(jq.evaluate(reader(withLead(set, world)), expression));
  return TEAM_SETS.some((set) => run('before', set) !== run('after', set)) ? 'changed' : 'same';
}

const services = (parts: Parameters<typeof servicesWithCalculations>[1] = {}) =>
  servicesWithCalculations({ lead: [LEAD, 'string'], lead_is_qa: ['.properties.lead == "QA"', 'boolean'], lead_as_list: ['.properties.lead == ["QA"]', 'boolean'], lead_lower: ['.properties.lead | ascii_downcase', 'string'] }, parts);

/** A DAY-2 action on `service` whose input is shown only when `visible` (jq) is true. */
const dayTwoAction = (visible: string) => ({
  identifier: 'deploy',
  title: 'Deploy',
  trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { reason: { type: 'string', visible: { jqQuery: visible } } } } },
  invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
});

describe('a calculation passing one team on is read as it computes (item 4)', () => {
  it('a calculation comparing it with a title breaks', () => {
    expect(expected((entity) => entity, '.properties.lead == "QA"')).toBe('changed');
    const { finding } = judged(jq, services(), 'calculationProperties.lead_is_qa.calculation');
    expect(finding.verdict).toBe(expectedVerdict('changed', 'shown'));
  });

  it('one comparing it with a list holding that title is false in both worlds: unaffected', () => {
    expect(expected((entity) => entity, '.properties.lead == ["QA"]')).toBe('same');
    const { finding } = judged(jq, services(), 'calculationProperties.lead_as_list.calculation');
    expect(finding.verdict).toBe(expectedVerdict('same', 'shown'));
  });

  it('a scorecard rule on a calculation derived from it in turn breaks', () => {
    const lower = (set: readonly string[], world: World) => jq.evaluate(withLead(set, world), '.properties.lead | ascii_downcase');
    expect(TEAM_SETS.some((set) => JSON.stringify(lower(set, 'before')) !== JSON.stringify(lower(set, 'after')))).toBe(true);
    const rule = { property: 'lead_lower', operator: '=', value: 'data science' };
    const scorecards = [{ identifier: 'sc', title: 'Ownership', blueprint: 'service', rules: [{ identifier: 'r', title: 'R', level: 'Gold', query: { combinator: 'and', conditions: [rule] } }] }];
    const { finding } = judged(jq, services({ scorecards }), 'rules[0].query.conditions[0]');
    expect(finding.verdict).toBe('breaks');
  });

  it('a DAY-2 input shown only for it breaks', () => {
    const visible = '.entity.properties.lead == "Data Science"';
    expect(expected((entity) => ({ user: {}, entity, form: {} }), visible)).toBe('changed');
    const snapshot = services({ actions: [dayTwoAction(visible)] });
    const { finding } = judged(jq, snapshot, 'trigger.userInputs.properties.reason.visible.jqQuery');
    expect(finding.verdict).toBe(expectedVerdict('changed', 'gate'));
  });
});

describe('calculations reading each other are filled in the order they read', () => {
  // `tag` reads `lead` and is defined (and found) first: filled in that order it saw no lead yet.
  const TAG = '"\\(.properties.lead):\\(.team | join(","))"';
  const visible = '.entity.properties.tag == "Data Science:Data Science"';

  it('a DAY-2 input reading a calculation that reads one defined after it breaks', () => {
    const tagged = (set: readonly string[], world: World) => {
      const entity = withLead(set, world) as { properties: Record<string, JsonValue> };
      const tag = jq.evaluate(entity, TAG);
      entity.properties.tag = tag.ok ? (tag.values[0] ?? null) : null;
      return entity;
    };
    const run = (world: World, set: readonly string[]) => JSON.stringify(jq.evaluate({ user: {}, entity: tagged(set, world), form: {} }, visible));
    expect(TEAM_SETS.some((set) => run('before', set) !== run('after', set))).toBe(true);
    const snapshot = servicesWithCalculations(
      { tag: [TAG, 'string'], lead: [LEAD, 'string'] },
      { actions: [dayTwoAction(visible)] },
    );
    const { finding } = judged(jq, snapshot, 'trigger.userInputs.properties.reason.visible.jqQuery');
    expect(finding.verdict).toBe(expectedVerdict('changed', 'gate'));
  });
});
