/**
 * Issue 39, held-out miss (a third-party repository): a whole object handed to a receiver outside
 * the service (the entity and who ran it, in a workflow's inputs) holds team values, which follow the
 * teams, and values that stay as they are (the run's `trigger` holds no teams, as the service's docs
 * show a run). Run in both worlds, what it gives
 * after is what it gave before with some titles turned into identifiers: a substitution, for review
 * where it is shown or handed on, not a change that breaks. Each string of the result is compared
 * here: the same, or the same with titles written as identifiers.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, inputOf, judged, org, TEAM_SETS, TEAMS, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();
const identifierOf = new Map(TEAMS.map((team) => [team.name, team.identifier]));

/** `after` is `before` with some titles (whole strings) written as their identifiers. */
function partly(before: JsonValue, after: JsonValue): boolean {
  if (typeof before === 'string') return before === after || identifierOf.get(before) === after;
  if (Array.isArray(before)) return Array.isArray(after) && before.length === after.length && before.every((item, i) => partly(item, after[i]!));
  if (before !== null && typeof before === 'object') {
    if (after === null || typeof after !== 'object' || Array.isArray(after)) return false;
    const keys = Object.keys(before);
    return keys.length === Object.keys(after).length && keys.every((key) => key in after && partly(before[key]!, after[key]!));
  }
  return JSON.stringify(before) === JSON.stringify(after);
}

/** The class over every team set, by jq: the same, some titles turned into identifiers, or another change. */
function klassOf(expression: string): ExpectedClass {
  let substituted = false;
  for (const set of TEAM_SETS) {
    const before = jq.evaluate(inputOf('action-run', set, 'before'), expression);
    const after = jq.evaluate(inputOf('action-run', set, 'after'), expression);
    if (!before.ok || !after.ok) return 'changed';
    if (JSON.stringify(before.values) === JSON.stringify(after.values)) continue;
    if (!partly(before.values, after.values)) return 'changed';
    substituted = true;
  }
  return substituted ? 'substituted' : 'same';
}

const webhook = (body: string) =>
  org({
    actions: [{ identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com', body: { context: body } } }],
  });

describe('a value handed outside the service that holds team values and team names', () => {
  it.each([
    ['{{ {on: .entity, by: .trigger} }}', '{on: .entity, by: .trigger}', 'substituted'],
    ['{{ .entity.team }}', '.entity.team', 'substituted'],
    ['{{ .entity.team | map(ascii_downcase) }}', '.entity.team | map(ascii_downcase)', 'changed'],
  ] as const)('%s: the verdict its class gives a receiver outside the service', (template, expression, shows) => {
    const klass = klassOf(expression);
    expect(klass, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, webhook(template), 'invocationMethod.body.context');
    expect(finding.verdict).toBe(expectedVerdict(klass, 'outside'));
  });

  it('{{ .trigger }}: who ran it, where and when, holds no team values: nothing to report', () => {
    expect(klassOf('.trigger')).toBe('same');
    const report = analyze(buildCatalog(webhook('{{ .trigger }}'), { jq }));
    expect([...report.findings, ...(report.verified ?? [])].filter((f) => f.location === 'invocationMethod.body.context')).toEqual([]);
  });
});
