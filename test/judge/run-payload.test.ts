/**
 * What a run's payload holds, as the service's docs show it (docs/decision-table.md, "What it runs
 * on"): a CREATE action's run has no entity (the entity is to be made; the service gives an empty
 * one), and `.trigger.by` is who ran it (org and user ids, the user's email and names), no team
 * values. Only what can hold teams makes a finding; a DAY-2 action's entity still holds its teams.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org } from './two-worlds.js';

const jq = useJqEngine();

const TEMPLATES = {
  whole: '{{ {target: .entity, picked: .inputs} }}',
  owners: '{{ .entity.team | join(";") }}',
  runner: '{{ .trigger.by }}',
  slice: '{{ .trigger | {by, at} }}',
};

const action = (operation: string, trigger: Record<string, unknown> = {}) => ({
  identifier: `provision_${operation.toLowerCase().replace('-', '')}`,
  title: 'Provision',
  trigger: { type: 'self-service', operation, blueprintIdentifier: 'service', userInputs: { properties: { size: { type: 'string' } } }, ...trigger },
  invocationMethod: { type: 'GITHUB', org: 'acme', repo: 'infra', workflow: 'provision.yml', workflowInputs: { ...TEMPLATES } },
});

const findingsAt = (operation: string) => {
  const report = analyze(buildCatalog(org({ actions: [action(operation)] }), { jq }));
  return new Map(report.findings.map((f) => [f.location.replace('invocationMethod.workflowInputs.', ''), f]));
};

describe('a run holds teams only where the service puts them', () => {
  it('a CREATE action: its run has no entity, and who ran it holds no team values', () => {
    const found = findingsAt('CREATE');
    for (const key of Object.keys(TEMPLATES)) expect(found.get(key), key).toBeUndefined();
  });

  it('a DAY-2 action: the entity it runs on holds its teams, the runner still none', () => {
    const found = findingsAt('DAY-2');
    expect(found.get('whole')?.verdict).toBe('review');
    expect(found.get('owners')?.verdict).toBe('review');
    expect(found.get('runner')).toBeUndefined();
    expect(found.get('slice')).toBeUndefined();
  });
});
