import { describe, expect, test } from 'vitest';
import { classifyPath } from '../../src/repo/scan.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeWorkflow } from '../../src/repo/workflows.js';
import { workflowTeamInputs } from '../../src/repo/workflow-team-inputs.js';
import type { JsonObject } from '../../src/model/json.js';
import { parseYaml } from '../../src/repo/yaml-tree.js';
import { brief, context, judged } from './helpers.js';

const run = (text: string) => judged(analyzeWorkflow, parseYaml(sourceText('.github/workflows/w.yml', text)), context());

const step = (inputs: string, uses = 'port-labs/port-github-action@v1') => `jobs:
  j:
    steps:
      - uses: ${uses}
        with:
${inputs}`;

describe("GitHub workflow steps of the service's action", () => {
  test('an UPSERT with team titles breaks and gets the identifiers; an expression is for review', () => {
    expect(brief(run(step(`          operation: UPSERT\n          team: "['Platform Team', 'payments']"`)).findings)).toEqual([
      { at: '.github/workflows/w.yml:7', category: 'external-ownership', rewrite: `team: "['platform', 'payments']"`, verdict: 'breaks' },
    ]);
    expect(brief(run(step(`          operation: BULK_UPSERT\n          team: Payments`)).findings)).toEqual([
      { at: '.github/workflows/w.yml:7', category: 'external-ownership', rewrite: 'team: payments', verdict: 'breaks' },
    ]);
    expect(brief(run(step('          operation: UPSERT\n          team: ${{ steps.lookup.outputs.team }}')).findings)).toEqual([
      { at: '.github/workflows/w.yml:7', category: 'external-ownership', verdict: 'review' },
    ]);
    // The payload the service's action sends is its own team values, passed on as they are: nothing.
    expect(run(step('          operation: UPSERT\n          team: ${{ fromJson(inputs.port_payload).payload.properties.team }}')).findings).toEqual([]);
  });

  test('issue 39: a workflow input is passed on as a team only when an action that dispatches the workflow fills it with one', () => {
    const given = ['${{ inputs.team }}', '${{ github.event.inputs.team }}', `'["\${{ inputs.team }}"]'`];
    // Nothing says what the input holds (a free-text input may hold a title): review, whatever its spelling.
    for (const value of given) {
      const { findings } = run(step(`          operation: UPSERT\n          team: ${value}`));
      expect(brief(findings), value).toEqual([{ at: '.github/workflows/w.yml:7', category: 'external-ownership', verdict: 'review' }]);
      expect(findings[0]!.reason).toContain('inputs.team, which no action that dispatches this workflow fills with a team');
    }
    const dispatching = (inputs: JsonObject, workflowInputs?: Record<string, string>) =>
      workflowTeamInputs([{ identifier: 'a', trigger: { userInputs: { properties: inputs } }, invocationMethod: { type: 'GITHUB', workflow: 'w.yml', ...(workflowInputs && { workflowInputs }) } }]);
    const typed = (inputs: ReturnType<typeof workflowTeamInputs>, value: string) =>
      judged(analyzeWorkflow, parseYaml(sourceText('.github/workflows/w.yml', step(`          operation: UPSERT\n          team: ${value}`))), context({ workflowTeamInputs: inputs })).findings;
    // A user input of format team, sent as it is (no workflowInputs: the inputs go by their names), alone or in a list.
    for (const value of given) expect(typed(dispatching({ team: { type: 'string', format: 'team' } }), value), value).toEqual([]);
    expect(typed(dispatching({ team: { type: 'array', items: { type: 'string', format: 'team' } } }), '${{ inputs.team }}')).toEqual([]);
    // Through workflowInputs: the team input as it is, or the entity's $team.
    expect(typed(dispatching({ owner: { type: 'string', format: 'team' } }, { team: '{{ .inputs.owner }}' }), '${{ inputs.team }}')).toEqual([]);
    expect(typed(dispatching({}, { team: '{{ .entity.team }}' }), '${{ inputs.team }}')).toEqual([]);
    // A free-text input, a team input changed on the way, another workflow's action: still review.
    expect(typed(dispatching({ team: { type: 'string' } }), '${{ inputs.team }}')).toHaveLength(1);
    expect(typed(dispatching({ owner: { type: 'string', format: 'team' } }, { team: '{{ .inputs.owner | ascii_downcase }}' }), '${{ inputs.team }}')).toHaveLength(1);
    const elsewhere = workflowTeamInputs([{ identifier: 'b', trigger: { userInputs: { properties: { team: { format: 'team' } } } }, invocationMethod: { type: 'GITHUB', workflow: 'other.yml' } }]);
    expect(typed(elsewhere, '${{ inputs.team }}')).toHaveLength(1);
  });

  test("BULK_UPSERT entities carry their own team; each title is named with its identifier", () => {
    const entities = JSON.stringify([{ identifier: 'a', team: ['Payments'] }, { identifier: 'b', team: 'platform' }]);
    const { findings } = run(step(`          operation: BULK_UPSERT\n          entities: '${entities}'`));
    expect(brief(findings)).toEqual([{ at: '.github/workflows/w.yml:7', category: 'external-ownership', verdict: 'breaks' }]);
    expect(findings[0]!.suggestion).toContain('"Payments" → "payments"');
    const identifiers = JSON.stringify([{ identifier: 'a', team: ['payments'] }]);
    expect(run(step(`          operation: BULK_UPSERT\n          entities: '${identifiers}'`)).findings).toEqual([]);
  });

  test("a step without `operation` is an UPSERT, the action's default", () => {
    expect(brief(run(step(`          identifier: e\n          blueprint: service\n          team: "Payments"`)).findings)).toEqual([
      { at: '.github/workflows/w.yml:8', category: 'external-ownership', rewrite: 'team: "payments"', verdict: 'breaks' },
    ]);
    expect(run(step(`          identifier: e\n          blueprint: service\n          team: payments`)).findings).toEqual([]);
  });

  test('a workflow that never calls the action is not parsed: invalid YAML in it is none of the scan\'s business', async () => {
    const { analyzeFile } = await import('../../src/repo/scan.js');
    const broken = sourceText('.github/workflows/other.yml', 'jobs:\n  a:\n    steps:\n      - run: echo\n     bad: indentation\n');
    expect(analyzeFile('workflow', broken, context())).toEqual({ sites: [], problems: [] });
    expect(() => analyzeFile('workflow', sourceText('.github/workflows/port.yml', `${broken.text}# port-labs/port-github-action\n`), context())).toThrow(/not valid YAML/);
  });

  test('identifiers, other operations and other actions give nothing', () => {
    expect(run(step(`          operation: UPSERT\n          team: "['platform', 'sre_oncall']"`)).findings).toEqual([]);
    expect(run(step(`          operation: PATCH_RUN\n          team: "['Platform Team']"`)).findings).toEqual([]);
    expect(run(step(`          operation: UPSERT\n          team: "['Platform Team']"`, 'someone/other-action@v1')).findings).toEqual([]);
  });

  test('only files under .github/workflows are workflows', () => {
    expect(classifyPath('.github/workflows/ci.yml')).toBe('workflow');
    expect(classifyPath('repo/.github/workflows/ci.yaml')).toBe('workflow');
    // Elsewhere a YAML file is read only for a mapping or for steps of the service's action (a composite action).
    expect(classifyPath('docs/workflows/ci.yml')).toBe('yaml');
  });
});
