/**
 * Issue 39: a path is read where the expression reads it. A template of a run that reads
 * `.relations.teams` at the top of its context reads the run, which holds no relations, not one of
 * its entities; yet the path counted as filled because some entity of the context held it, and the
 * template was unaffected on a blueprint whose `_team` relation the migration removes. jq shows where
 * it reads: a value given at the top of the run changes what it gives, one given to the entity does not.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();
const snapshot = (template: string) =>
  org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: { teams: { title: 'Teams', target: '_team', many: true, required: false } }, teamInheritance: { path: 'teams' } }],
    actions: [{ identifier: 'notify', title: 'Notify', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x', body: { owners: template } } }],
  } as never);

/** A run of the action as the service gives it, its entity holding the relation; `top` also at the run's top. */
const run = (top: boolean) => {
  const entity = { identifier: 's1', title: 's1', team: [], properties: {}, relations: { teams: ['data_science'] } };
  return { diff: { before: entity, after: entity }, entity, inputs: {}, trigger: { by: { user: { email: 'a@example.com' } } }, ...(top && { relations: { teams: ['probe'] } }) };
};
const readsTheRunsTop = (expression: string) => JSON.stringify(jq.evaluate(run(false), expression)) !== JSON.stringify(jq.evaluate(run(true), expression));

describe("a run's template that reads .relations.teams at the top of the run", () => {
  it.each([
    ['.relations.teams', true, 'review'],
    ['.relations | .teams', true, 'review'],
    ['.entity.relations.teams', false, 'breaks'],
  ] as const)('{{ %s }}', (expression, atTop, verdict) => {
    expect(readsTheRunsTop(expression), 'where jq reads it').toBe(atTop);
    const { finding } = judged(jq, snapshot(`{{ ${expression} }}`), 'invocationMethod.body.owners');
    expect(finding.verdict).toBe(verdict);
    if (atTop) expect(finding.reason).toContain('reads values no context of the org can know (.relations');
  });
});
