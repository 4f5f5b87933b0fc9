/**
 * Issue 39, held-out miss (m4): an UPSERT's `team` whose title literal sits on one branch of a run
 * input (`if .inputs.tier == "gold" then "QA" else .entity.team[0] end`) was verified: no context
 * held `.inputs.tier == "gold"`. Strings the expression compares with that name no team are written
 * into the inputs it reads, as they are into an entity's identifier, so the branch runs.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedVerdict, judged, org, TEAM_SETS, TEAMS, type ExpectedClass } from './two-worlds.js';

const jq = useJqEngine();
const identifierOf = new Map(TEAMS.map((team) => [team.name, team.identifier]));

/** A run's context with these teams on the entity and `tier` as picked, in one world. */
const run = (teams: readonly string[], tier: string, world: 'before' | 'after') => {
  const team = teams.map((title) => (world === 'before' ? title : identifierOf.get(title)!));
  const entity = { identifier: 'e', title: 'e', team, properties: {}, relations: {} };
  return { entity, inputs: { tier }, diff: { before: entity, after: entity }, trigger: { by: { user: { email: 'someone@example.com', team, teams: teams.map((name) => ({ name })) } } } };
};

/** The class of a team value by jq: for each team set and tier, the value must follow the teams. */
function klassOf(expression: string): ExpectedClass {
  let substituted = false;
  for (const set of TEAM_SETS) {
    for (const tier of ['gold', 'silver']) {
      const before = jq.evaluate(run(set, tier, 'before'), expression);
      const after = jq.evaluate(run(set, tier, 'after'), expression);
      if (!before.ok || !after.ok) return 'changed';
      const followed = JSON.stringify(before.values.map((v) => (typeof v === 'string' ? (identifierOf.get(v) ?? v) : v)));
      if (JSON.stringify(before.values) === JSON.stringify(after.values) && followed === JSON.stringify(after.values)) continue;
      if (followed !== JSON.stringify(after.values)) return 'changed';
      substituted = true;
    }
  }
  return substituted ? 'substituted' : 'same';
}

const upsert = (team: string) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    actions: [
      {
        identifier: 'claim',
        title: 'Claim',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { tier: { type: 'string', enum: ['gold', 'silver'] } } } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .entity.identifier }}', team: team } },
      },
    ],
  });

describe('a team value whose title literal sits on a branch of a run input', () => {
  it.each([
    ['{{ if .inputs.tier == "gold" then "QA" else .entity.team[0] end }}', 'if .inputs.tier == "gold" then "QA" else .entity.team[0] end', 'changed'],
    ['{{ if .inputs.tier == "gold" then .entity.team[0] else .entity.team[0] end }}', 'if .inputs.tier == "gold" then .entity.team[0] else .entity.team[0] end', 'substituted'],
  ] as const)('%s', (template, expression, shows) => {
    const klass = klassOf(expression);
    expect(klass, 'the row shows what it says').toBe(shows);
    const { finding } = judged(jq, upsert(template), 'invocationMethod.mapping.team');
    expect(finding.verdict).toBe(expectedVerdict(klass, 'team-value'));
  });
});
