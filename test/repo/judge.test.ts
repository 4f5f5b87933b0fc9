import { describe, expect, test } from 'vitest';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { judgeRule } from '../../src/judge/site-judge.js';
import { parseCode } from '../../src/repo/code-tree.js';
import { findDocuments } from '../../src/repo/file-resources.js';
import { judgeFileResources } from '../../src/repo/judge.js';
import { originOf, splitPath, toSourceMapped } from '../../src/repo/located-json.js';
import { sourceText } from '../../src/repo/source-text.js';
import { spanLine } from '../../src/repo/tree.js';
import { RULES } from '../../src/rules/index.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { context, judged } from './helpers.js';

const blueprintFile = `[
  {
    "identifier": "incident",
    "calculationProperties": {
      "mine": {
        "type": "boolean",
        "calculation": ".team | index(\\"Payments\\") != null"
      }
    }
  }
]`;

const documents = (text: string) => findDocuments(parseCode(sourceText('bp.json', text), 'json'), { camelCase: false, problems: [] });

describe('the source map of a built resource', () => {
  test('every JSON path has the line it was written on; a path not written falls back to its nearest ancestor', () => {
    const [resource] = documents(blueprintFile).resources;
    expect(resource?.kind).toBe('blueprint');
    const { origins } = toSourceMapped(resource!.value);
    const line = (path: string) => {
      const found = originOf(origins, path);
      return found && { line: spanLine(found.origin.entry?.span ?? found.origin.node.span), exact: found.exact };
    };
    expect(line('calculationProperties.mine.calculation')).toEqual({ line: 7, exact: true });
    expect(line('calculationProperties.mine.title')).toEqual({ line: 5, exact: false });
    expect(splitPath('a.b[0]["c.d"].e')).toEqual(['a', 'b', 0, 'c.d', 'e']);
  });

  test('paths are written as joinPath writes them, bracketed keys and positions included, under a prefix', () => {
    const [resource] = documents('{"identifier": "x", "schema": {"my.key": [{"team": "a"}], "$t": 1}}').resources;
    const { origins } = toSourceMapped(resource!.value, ['permissions']);
    expect([...origins.keys()]).toEqual(['permissions', 'permissions.identifier', 'permissions.schema', 'permissions.schema["my.key"]', 'permissions.schema["my.key"][0]', 'permissions.schema["my.key"][0].team', 'permissions.schema.$t']);
  });
});

describe('judgeFileResources', () => {
  test('a rule that throws on a file leaves a problem with the line, and the other rules still report', () => {
    const problems: { line: number; reason: string }[] = [];
    const broken = { category: 'page-widget' as const, check: () => { throw new Error('boom'); } };
    const findings = judgeFileResources(documents(blueprintFile).resources, { syntax: 'json', ctx: context(), problems, rules: [broken, ...RULES] });
    expect(problems).toEqual([{ line: 2, reason: 'rule page-widget failed on this file: boom' }]);
    expect(findings.map((f) => [f.category, f.location])).toEqual([['calculation-property', 'bp.json:7']]);
  });

  test("a blueprint of another file that makes a rule throw does not fail that rule on this file", () => {
    const problems: { line: number; reason: string }[] = [];
    const other = findDocuments(parseCode(sourceText('other.json', '{"identifier": "odd", "schema": {}}'), 'json'), { camelCase: false, problems: [] }).resources;
    const throwsOnOdd = {
      category: 'calculation-property' as const,
      check: (catalog: Catalog) => {
        if (catalog.blueprints.has('odd')) throw new Error('odd blueprint');
        return judgeRule(catalog, RULES.find((rule) => rule.category === 'calculation-property')!);
      },
    };
    const findings = judgeFileResources(documents(blueprintFile).resources, { syntax: 'json', ctx: context({ repositoryBlueprints: other }), problems, rules: [throwsOnOdd] });
    expect(problems).toEqual([]);
    expect(findings.map((f) => [f.category, f.location])).toEqual([['calculation-property', 'bp.json:7']]);
  });

  test('judged only to plan jq\'s work: the rules that ask jq run, those that never do are not, and no finding is kept', () => {
    const ran: string[] = [];
    const rule = (category: 'page-widget' | 'calculation-property', asksJq: boolean) => ({
      category,
      ...(!asksJq && { asksJq: false as const }),
      check: (catalog: Catalog) => (ran.push(category), judgeRule(catalog, RULES.find((r) => r.category === 'calculation-property')!)),
    });
    const rules = [rule('page-widget', false), rule('calculation-property', true)];
    const problems: { line: number; reason: string }[] = [];
    expect(judgeFileResources(documents(blueprintFile).resources, { syntax: 'json', ctx: context({ planning: true }), problems, rules })).toEqual([]);
    expect(ran).toEqual(['calculation-property']);
    // Judged for real, every rule runs and its findings are placed in the file.
    ran.length = 0;
    const findings = judgeFileResources(documents(blueprintFile).resources, { syntax: 'json', ctx: context(), problems, rules });
    expect(ran).toEqual(['page-widget', 'calculation-property']);
    expect(findings.map((f) => f.location)).toEqual(['bp.json:7', 'bp.json:7']);
  });

  test('containers of resources are looked through and unknown JSON gives nothing', () => {
    expect(documents(JSON.stringify({ blueprints: [{ identifier: 'x', schema: {} }], pages: [{ identifier: 'p', widgets: [] }] })).resources.map((r) => r.kind)).toEqual(['blueprint', 'page']);
    expect(judged(analyzeJsonPayload, sourceText('tsconfig.json', '{"compilerOptions": {"strict": true, "paths": {"team": ["x"]}}}'), context()).findings).toEqual([]);
  });
});
