/**
 * An UPSERT mapping's `team` (a team value inside the service): a value that follows the teams
 * (titles before, the same teams' identifiers after) is right; one that stays a title is not.
 */
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, judgeTable, org, type Row } from './two-worlds.js';

const ROWS: Row[] = [
  { name: 'the entity\'s teams passed on', expression: '.entity.team', shows: 'substituted' },
  { name: 'who ran it: a run names the user, no teams', expression: '.trigger.by.user.team // []', shows: 'same' },
  { name: 'a title picked by a condition', expression: 'if (.entity.team | length) > 0 then .entity.team else ["QA"] end', shows: 'changed' },
  { name: 'a capture with a fallback: titles captured, identifiers fall back', expression: '[.entity.team[] | capture("^(?<t>[A-Z][A-Za-z ()]+)$").t // "QA"]', shows: 'changed' },
  { name: 'a capture with a fallback that captures both', expression: '[.entity.team[] | capture("^(?<t>.+)$").t // "QA"]', shows: 'substituted' },
  { name: 'sorted and cut: another team when orders differ', expression: '.entity.team | sort | .[:1]', shows: 'changed' },
];

const jq = useJqEngine();

const snapshot = (expression: string) =>
  org({
    actions: [
      {
        identifier: 'create',
        title: 'Create',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: `{{ ${expression} }}` } },
      },
    ],
  });

judgeTable('mapping team: (expression, teams) → (class, verdict)', {
  jq,
  kind: 'action-run',
  rows: ROWS,
  teamValue: true,
  snapshot: (row) => snapshot(row.expression),
  location: 'invocationMethod.mapping.team',
  verdict: (klass) => expectedVerdict(klass, 'team-value'),
});
