/**
 * A self-service input's jqQuery: `visible` is a gate (report.access says who loses and gains),
 * `default` a value people read. Classes computed here by running jq on both worlds.
 */
import { expect } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { accessAt, expectedAccess, expectedGateVerdict, expectedVerdict, judgeTable, org, type Row } from './two-worlds.js';

const VISIBLE: Row[] = [
  { name: 'a title', expression: '.user.team | index("QA") != null', shows: 'changed' },
  { name: 'an identifier before the migration', expression: '.user.team | index("qa") != null', shows: 'changed' },
  { name: 'a list holding a title and its identifier', expression: '.user.team | any(. == "QA" or . == "qa")', shows: 'same' },
  { name: 'the documented names', expression: '[.user.teams[].name] | any(. == "Alpha")', shows: 'same' },
  { name: 'contains a title prefix', expression: '.user.team | contains(["Plat"])', shows: 'changed' },
];
const DEFAULT: Row[] = [
  { name: 'the first of the user\'s teams', expression: '.user.team[0]', shows: 'substituted' },
  { name: 'the first after sorting', expression: '.user.team | sort | .[0]', shows: 'changed' },
  { name: 'the first name, documented', expression: '.user.teams[0].name', shows: 'same' },
];

const jq = useJqEngine();

const snapshot = (attribute: 'visible' | 'default', expression: string) =>
  org({
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { reason: { type: 'string', [attribute]: { jqQuery: expression } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });

judgeTable('input jqQuery visible: (expression, teams, users) → (class, verdict, gains/losses)', {
  jq,
  kind: 'user-input',
  rows: VISIBLE,
  snapshot: (row) => snapshot('visible', row.expression),
  location: 'trigger.userInputs.properties.reason.visible.jqQuery',
  verdict: (klass, row) => expectedGateVerdict(jq, 'user-input', row.expression, klass),
  check: ({ row, report }) => expect(accessAt(report, (c) => c.permission === 'visible' && c.input === 'reason')).toEqual(expectedAccess(jq, 'user-input', row.expression)),
});

judgeTable('input jqQuery default: (expression, teams) → (class, verdict)', {
  jq,
  kind: 'user-input',
  rows: DEFAULT,
  snapshot: (row) => snapshot('default', row.expression),
  location: 'trigger.userInputs.properties.reason.default.jqQuery',
  verdict: (klass) => expectedVerdict(klass, 'shown'),
});
