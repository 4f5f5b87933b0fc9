/**
 * Issue 39, held-out miss (m13): an automation's condition combines its expressions with its
 * combinator, and the service decides on the combination. An `or` of a title's test and its
 * identifier's is true for the same changes before the migration and after it, so neither
 * expression is a change; an `or` of two titles still breaks. The class is computed by running the
 * combined condition in jq on a run of every team set, in both worlds.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, org } from './two-worlds.js';

const jq = useJqEngine();

const automation = (combinator: string, expressions: string[]) =>
  org({
    actions: [
      {
        identifier: 'notify',
        title: 'Notify',
        trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', combinator, expressions } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com', body: { id: '{{ .event.diff.after.identifier }}' } },
      },
    ],
  });

const verdicts = (report: Report) =>
  [...report.findings, ...(report.verified ?? [])]
    .filter((f) => f.location.startsWith('trigger.condition.expressions['))
    .sort((a, b) => a.location.localeCompare(b.location))
    .map((f) => f.verdict);

describe("an automation's condition judged whole with its combinator", () => {
  it.each([
    ['or', ['.diff.after.team | index("QA") != null', '.diff.after.team | index("qa") != null'], 'same'],
    ['or', ['.diff.after.team | index("QA") != null', '.diff.after.team | index("Alpha") != null'], 'changed'],
  ] as const)('%s of %j', (combinator, expressions, shows) => {
    const klass = expectedClass(jq, 'action-run', expressions.map((e) => `(${e})`).join(` ${combinator} `));
    expect(klass, 'the row shows what it says').toBe(shows);
    const { report } = judged(jq, automation(combinator, [...expressions]), 'trigger.condition.expressions[0]');
    const leaves = verdicts(report);
    if (klass === 'same') expect(leaves).toEqual(['unaffected', 'unaffected']);
    else expect(leaves).toContain(expectedVerdict(klass, 'gate'));
  });
});
