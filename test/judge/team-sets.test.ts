/**
 * Issue 29, class 7: `$team` is a set. A team value whose list only changes order between the
 * worlds is the same set of teams; and a change that shows only for teams together is one the org
 * sees only where an entity or a person holds those teams together. Expected classes are computed
 * here by running jq on the team sets the org holds (`sets`), in both worlds.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, org, TEAMS, USERS, type ExpectedClass } from './two-worlds.js';

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
        trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: `{{ ${expression} }}` } },
      },
    ],
  });

describe('team values as sets: (mapping team, the team combinations the org holds) → (class, verdict)', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const single = expectedClass(jq, 'action-run', row.expression, true, SINGLE_SETS);
      const held = expectedClass(jq, 'action-run', row.expression, true, HELD_SETS);
      expect({ single, held }, 'the row shows what it says').toEqual(row.shows);
      expect(judged(jq, snapshot(row.expression, SINGLE_USERS), 'invocationMethod.mapping.team').finding.verdict).toBe(expectedVerdict(single, 'team-value'));
      expect(judged(jq, snapshot(row.expression, USERS), 'invocationMethod.mapping.team').finding.verdict).toBe(expectedVerdict(held, 'team-value'));
    });
  }

  it('the reason names a combination somebody holds', () => {
    const { finding } = judged(jq, snapshot('.entity.team | sort | .[:1]', USERS), 'invocationMethod.mapping.team');
    expect(finding.reason).toContain('as the org holds them');
  });
});
