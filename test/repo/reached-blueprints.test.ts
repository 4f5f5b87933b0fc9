import { describe, expect, test } from 'vitest';
import type { Catalog } from '../../src/catalog/catalog.js';
import { judgeRule } from '../../src/judge/site-judge.js';
import type { JsonObject } from '../../src/model/json.js';
import { parseCode } from '../../src/repo/code-tree.js';
import { findDocuments, type FileResource } from '../../src/repo/file-resources.js';
import { judgeFileResources } from '../../src/repo/judge.js';
import { sourceText } from '../../src/repo/source-text.js';
import { RULES } from '../../src/rules/index.js';
import { context } from './helpers.js';

/**
 * Issue 33 item 3: a file's resources are judged in a catalog of their own, with the blueprints of
 * the repository's other files beside them. A file of blueprints gets those it reaches (relation
 * targets, and theirs in turn, through the org's blueprints too), not every one: with every one,
 * each file was judged with the whole repository.
 */
const resources = (path: string, value: unknown): FileResource[] =>
  findDocuments(parseCode(sourceText(path, JSON.stringify(value, null, 2)), 'json'), { camelCase: false, problems: [] }).resources;

const blueprint = (identifier: string, targets: string[] = []): JsonObject => ({
  identifier,
  schema: {},
  relations: Object.fromEntries(targets.map((target) => [target, { target, many: false }])),
});

/** What the rules are given: the identifiers of the blueprints in the file's catalog. */
function seenBy(file: FileResource[], repository: FileResource[], orgBlueprints?: Map<string, JsonObject>): string[] {
  const seen: string[] = [];
  const recorder = { category: 'calculation-property' as const, check: (catalog: Catalog) => (seen.push(...catalog.blueprints.keys()), []) };
  judgeFileResources(file, { syntax: 'json', ctx: context({ repositoryBlueprints: repository, ...(orgBlueprints && { orgBlueprints }) }), problems: [], rules: [recorder] });
  return seen;
}

describe('the repository blueprints a file is judged with', () => {
  const repository = [
    ...resources('workload.json', blueprint('workload', ['service'])),
    ...resources('service.json', blueprint('service')),
    ...resources('unrelated.json', blueprint('unrelated')),
    ...resources('region.json', blueprint('region')),
  ];

  test('a file of blueprints gets those it names and those they name in turn, never an unrelated one', () => {
    expect(seenBy(resources('deployment.json', blueprint('deployment', ['workload'])), repository)).toEqual(['deployment', 'workload', 'service']);
    expect(seenBy(resources('alone.json', blueprint('alone')), repository)).toEqual(['alone']);
  });

  test("issue 41: the reached blueprints come in the repository's order, each identifier's first definition only", () => {
    // Reached in the order service, workload (relation order); the repository lists workload first.
    const later = [...repository, ...resources('copy.json', { ...blueprint('service', ['region']), title: 'a later copy' })];
    expect(seenBy(resources('deployment.json', blueprint('deployment', ['service', 'workload'])), later)).toEqual(['deployment', 'workload', 'service']);
  });

  test("a chain through the org's blueprints still reaches the repository's", () => {
    const org = new Map<string, JsonObject>([['cluster', blueprint('cluster', ['region'])]]);
    expect(seenBy(resources('deployment.json', blueprint('deployment', ['cluster'])), repository, org)).toEqual(['deployment', 'region']);
  });

  test('a file that also holds other resources (an action) gets every repository blueprint', () => {
    const file = resources('mixed.json', [blueprint('deployment'), { identifier: 'deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'deployment', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' } }]);
    expect(file.map((r) => r.kind)).toEqual(['blueprint', 'action']);
    expect(seenBy(file, repository)).toEqual(['deployment', 'workload', 'service', 'unrelated', 'region']);
  });

  test('issue 41: a file of blueprints and their blueprint or page permissions (a Terraform stack) gets only those it reaches, and its permissions are still judged', () => {
    const permissions = { blueprintIdentifier: 'deployment', entities: { register: { teams: ['Payments'] }, update: { teams: ['Payments'] } } };
    const file = resources('stack.json', [blueprint('deployment', ['workload']), permissions, { pageIdentifier: 'ops', read: { teams: ['Payments'] } }]);
    expect(file.map((r) => r.kind)).toEqual(['blueprint', 'blueprint-permissions', 'page-permissions']);
    expect(seenBy(file, repository)).toEqual(['deployment', 'workload', 'service']);
    const rule = RULES.filter((r) => r.category === 'team-permission-identifiers');
    const findings = judgeFileResources(file, { syntax: 'json', ctx: context({ repositoryBlueprints: repository }), problems: [], rules: rule });
    expect(findings.map((f) => `${f.category} ${f.rewrite?.replace(/\s+/g, '')}`)).toEqual(Array(3).fill('team-permission-identifiers "teams":["payments"]'));
  });

  test('a reached blueprint of another file that makes a rule throw does not fail that rule on this file', () => {
    const problems: { line: number; reason: string }[] = [];
    const odd = resources('odd.json', blueprint('odd'));
    const file = resources('bp.json', { ...blueprint('incident', ['odd']), calculationProperties: { mine: { type: 'boolean', calculation: '.team | index("Payments") != null' } } });
    const throwsOnOdd = {
      category: 'calculation-property' as const,
      check: (catalog: Catalog) => {
        if (catalog.blueprints.has('odd')) throw new Error('odd blueprint');
        return judgeRule(catalog, RULES.find((rule) => rule.category === 'calculation-property')!);
      },
    };
    const findings = judgeFileResources(file, { syntax: 'json', ctx: context({ repositoryBlueprints: odd }), problems, rules: [throwsOnOdd] });
    expect(problems).toEqual([]);
    expect(findings.map((f) => f.category)).toEqual(['calculation-property']);
  });
});
