/**
 * Issue 29, class 7: `$team` is a set. A team value whose list only changes order between the
 * worlds is the same set of teams; and a change that shows only for teams together is one the org
 * sees only where an entity or a person holds those teams together. Expected classes are computed
 * here by running jq on the team sets the org holds (`sets`), in both worlds.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, judged, judgeTable, org, TEAMS, USERS, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();

/** Nobody holds two teams: each person and entity has one or none. */
const SINGLE_USERS = USERS.map((u) => ({ ...u, teams: u.teams.slice(0, 1) }));
const SINGLE_SETS = [...TEAMS.map((t) => [t.name]), []];
/** Ed holds Beta and Alpha together: their title order and identifier order differ. */
const HELD_SETS = [...SINGLE_SETS, ...USERS.map((u) => u.teams.map((t) => t.name)).filter((set) => set.length > 1)];

interface SetRow {
  name: string;
  expression: string;
  /** The class on the sets nobody combines, and on the sets the org's people hold. */
  shows: { single: ExpectedClass; held: ExpectedClass };
}

const ROWS: SetRow[] = [
  { name: 'sorted: the same set of teams in another order', expression: '.entity.team | sort', shows: { single: 'substituted', held: 'substituted' } },
  { name: 'reversed', expression: '.entity.team | reverse', shows: { single: 'substituted', held: 'substituted' } },
  { name: 'the first after sorting: another team only for teams held together', expression: '.entity.team | sort | .[:1]', shows: { single: 'substituted', held: 'changed' } },
  { name: 'unique: the same set, sorted', expression: '.entity.team | unique', shows: { single: 'substituted', held: 'substituted' } },
  { name: 'the smallest team: another team only for teams held together', expression: '[.entity.team | min]', shows: { single: 'substituted', held: 'changed' } },
  { name: 'the user\'s teams and the entity\'s, added: the same set', expression: '(.entity.team + .trigger.by.user.team) | unique', shows: { single: 'substituted', held: 'substituted' } },
];

const snapshot = (expression: string, users: readonly JsonObject[]) =>
  org({
    users: users as never,
    entities: {},
    actions: [
      {
        identifier: 'create',
        title: 'Create',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: `{{ ${expression} }}` } },
      },
    ],
  });

// The same rows in an org where nobody holds two teams, and in one where people hold them together.
for (const [who, sets, users] of [['single', SINGLE_SETS, SINGLE_USERS], ['held', HELD_SETS, USERS]] as const) {
  judgeTable(`team values as sets, teams ${who === 'single' ? 'never held together' : 'held together as the org\'s people hold them'}: (mapping team) → (class, verdict)`, {
    jq,
    kind: 'action-run',
    rows: ROWS.map((row) => ({ name: row.name, expression: row.expression, shows: row.shows[who] })),
    teamValue: true,
    sets,
    snapshot: (row) => snapshot(row.expression, users),
    location: 'invocationMethod.mapping.team',
    verdict: (klass) => expectedVerdict(klass, 'team-value'),
  });
}

describe('team values as sets: the reason', () => {
  it('the reason names a combination somebody holds', () => {
    const { finding } = judged(jq, snapshot('.entity.team | sort | .[:1]', USERS), 'invocationMethod.mapping.team');
    expect(finding.reason).toContain('as the org holds them');
  });
});
