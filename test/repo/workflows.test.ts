import { describe, expect, test } from 'vitest';
import { classifyPath } from '../../src/repo/scan.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeWorkflow } from '../../src/repo/workflows.js';
import { parseYaml } from '../../src/repo/yaml-tree.js';
import { brief, context } from './helpers.js';

const run = (text: string) => analyzeWorkflow(parseYaml(sourceText('.github/workflows/w.yml', text)), context());

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
    // Issue 30: a team the workflow was given (by the service's action that dispatched it) is passed on as it is: nothing.
    for (const given of ['${{ inputs.team }}', '${{ github.event.inputs.owning_team }}', '${{ fromJson(inputs.port_payload).payload.properties.team }}']) {
      expect(run(step(`          operation: UPSERT\n          team: ${given}`)).findings, given).toEqual([]);
    }
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
    expect(analyzeFile('workflow', broken, context())).toEqual({ findings: [], problems: [] });
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
