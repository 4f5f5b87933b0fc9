import { describe, expect, test } from 'vitest';
import type { JqEngine } from '../../src/jq/engine.js';
import type { JsonValue } from '../../src/model/json.js';
import { PlanningEngine } from '../../src/jq/prefetch-rules.js';
import { probeRelationDependence, probeTeamDependence } from '../../src/judge/differential.js';
import { sampleTeams } from '../../src/judge/worlds.js';
import { TEAMS } from '../repo/helpers.js';

/** jq as a stand-in for `.team`: gives the input's `team` back, counting its runs. */
function teamReader(): { real: JqEngine; runs: () => number } {
  let runs = 0;
  const real: JqEngine = {
    validate: () => ({ ok: true }),
    evaluate: (input) => (runs++, { ok: true, values: [(input as { team?: JsonValue }).team ?? null] }),
    prefetch: () => undefined,
  };
  return { real, runs: () => runs };
}

describe('a probe decided while a plan made up its answers (one engine for the plan and the real judging)', () => {
  test('is decided again once jq answers: the made-up outcome is never the real one', () => {
    const { real, runs } = teamReader();
    const planning = new PlanningEngine(real);
    const options = { kind: 'entity' as const, teams: sampleTeams(TEAMS), queryIds: [] };
    planning.plan();
    // Every made-up answer is "no output": nothing differs, so the plan finds no dependence.
    expect(probeTeamDependence(planning, '.team', options).kind).toBe('independent');
    expect(probeRelationDependence(planning, '.team', { ...options, relation: 'owning_team' }).kind).toBe('independent');
    planning.judge();
    expect(runs()).toBe(0);
    expect(probeTeamDependence(planning, '.team', options).kind).toBe('depends');
    expect(runs()).toBeGreaterThan(0);
    // Decided with jq's answers, it is kept: asked again, jq runs nothing more.
    const after = runs();
    expect(probeTeamDependence(planning, '.team', options).kind).toBe('depends');
    expect(runs()).toBe(after);
  });
});
