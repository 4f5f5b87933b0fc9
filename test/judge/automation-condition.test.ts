/** Automation trigger conditions (a gate): the class computed here by running jq on both worlds decides the expected verdict. */
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, judgeTable, org, type Row } from './two-worlds.js';

const ROWS: Row[] = [
  { name: 'a title in the new team list', expression: '.diff.after.team | index("Platform (EU)") != null', shows: 'changed' },
  { name: 'an identifier written before the migration', expression: '.diff.after.team | index("platform") != null', shows: 'changed' },
  { name: 'the team changed at all', expression: '.diff.before.team != .diff.after.team', shows: 'same' },
  { name: 'contains on titles', expression: '.diff.after.team | contains(["Platform"])', shows: 'changed' },
  { name: 'the number of teams', expression: '(.diff.after.team | length) > 1', shows: 'same' },
];

const jq = useJqEngine();

const snapshot = (condition: string) =>
  org({
    actions: [
      {
        identifier: 'on_change',
        title: 'On change',
        trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', expressions: [condition], combinator: 'and' } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x' },
      },
    ],
  });

judgeTable('automation condition: (expression, teams) → (class, verdict)', {
  jq,
  kind: 'action-run',
  rows: ROWS,
  snapshot: (row) => snapshot(row.expression),
  location: 'trigger.condition.expressions[0]',
  verdict: (klass) => expectedVerdict(klass, 'gate'),
});
