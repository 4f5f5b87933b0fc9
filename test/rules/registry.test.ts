import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { judgeRule } from '../../src/judge/site-judge.js';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { CATEGORY_DOCS } from '../../src/model/category-docs.js';
import { CATEGORIES, type Category } from '../../src/model/finding.js';
import { RULES } from '../../src/rules/index.js';
import type { Rule } from '../../src/rules/rule.js';
import { betaBlueprint, catalogOf, org } from '../support/rule-tester.js';

/**
 * The fixed list of categories (the report contract), copied here (not imported from src) so a
 * category dropped from src/model/finding.ts still fails, and checked against the user's copy of
 * the list, docs/categories.md, so the docs cannot drift from it either.
 */
const CONTRACT_CATEGORIES = [
  'ownership-direct',
  'ownership-inherited',
  'team-relation-removed',
  'team-permission-identifiers',
  'external-ownership',
  'calculation-property',
  'action-user-input',
  'action-mapping',
  'action-dynamic-permission',
  'integration-mapping',
  'webhook-mapping',
  'page-widget',
  'relation-ownership',
];
/** The categories added to the contract's first list ("More categories"), with their kind. */
const EXTENSION_CATEGORIES: Array<[kind: string, category: string]> = [
  ['manual', 'scorecard-rule'],
  ['manual', 'mirror-property'],
];
const AUTOMATIC = ['ownership-direct', 'ownership-inherited', 'team-relation-removed', 'team-permission-identifiers'];
const CATEGORIES_DOC = resolve('docs', 'categories.md');

/** The text from `heading` up to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`categories.md has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = text.slice(start + heading.length);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The categories a section of docs/categories.md lists: its tables have the category in the first column. */
function documented(heading: string): string[] {
  const text = readFileSync(CATEGORIES_DOC, 'utf8');
  return [...section(text, heading).matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]!);
}

describe('rule registry', () => {
  it('lists in docs/categories.md every category with its kind, and no other', () => {
    const all = [...CONTRACT_CATEGORIES, ...EXTENSION_CATEGORIES.map(([, category]) => category)];
    expect(documented('## Automatic').sort()).toEqual([...AUTOMATIC].sort());
    expect(documented('## Manual').sort()).toEqual(all.filter((category) => !AUTOMATIC.includes(category)).sort());
    expect([...CATEGORIES].sort()).toEqual([...all].sort());
  });

  it('has one rule for every category of docs/categories.md except external-ownership', () => {
    const expected = [...CONTRACT_CATEGORIES, ...EXTENSION_CATEGORIES.map(([, category]) => category)].filter(
      (category) => category !== 'external-ownership',
    );
    expect(expected.length).toBe(14);
    expect([...new Set(RULES.map((rule) => rule.category))].sort()).toEqual([...expected].sort());
  });

  it('the rule tests deep-freeze rule input (catalogOf), so a rule that mutates what it reads fails its tests', () => {
    const mutating: Rule = {
      category: 'ownership-direct',
      check(catalog) {
        (catalog.snapshot.blueprints[0] as { title?: string }).title = 'changed';
        return [];
      },
    };
    expect(() => judgeRule(catalogOf(org({ blueprints: [{ identifier: 'service', title: 'Service' }] })), mutating)).toThrow(TypeError);
  });

  it('gives the §3.2 categories the kind the contract assigns, after the §2 ones in src', () => {
    for (const [kind, category] of EXTENSION_CATEGORIES) expect(CATEGORY_DOCS[category as Category].kind, category).toBe(kind);
    expect([...CATEGORIES]).toEqual([...CONTRACT_CATEGORIES, ...EXTENSION_CATEGORIES.map(([, category]) => category)]);
  });

  it('holds a category twice only for the automatic part: once before the migration, once for what it left undone', () => {
    const categories = RULES.map((rule) => rule.category);
    const twice = categories.filter((category, index) => categories.indexOf(category) !== index);
    expect(twice.sort()).toEqual(['ownership-direct', 'ownership-inherited', 'team-permission-identifiers', 'team-relation-removed']);
    for (const category of twice) expect(CATEGORY_DOCS[category].kind).toBe('automatic');
  });
});

describe('analyze isolates a failing rule', () => {
  const throwing: Rule = {
    category: 'calculation-property',
    check() {
      throw new Error('boom in the rule');
    },
  };
  const working = RULES.find((rule) => rule.category === 'team-relation-removed')!;
  const snapshot = org({ blueprints: [betaBlueprint('repository')], entities: {} });

  it('turns the throw into a ruleErrors entry and an incomplete item, and keeps the other rules', () => {
    const report = analyze(catalogOf(snapshot), { rules: [throwing, working] });
    expect(report.ruleErrors).toEqual([{ rule: 'calculation-property' satisfies Category, message: 'boom in the rule' }]);
    expect(report.incomplete).toContainEqual({ resource: 'rule calculation-property', reason: expect.stringContaining('boom in the rule') });
    expect(report.findings.map((f) => f.category)).toEqual(['team-relation-removed']);
  });

  it('reports no ruleErrors when every rule succeeds', () => {
    const report = analyze(catalogOf(snapshot), { rules: [working] });
    expect(report.ruleErrors).toBeUndefined();
    expect(report.incomplete).toEqual([]);
  });

  it('gives each finding the kind docs/formats.md assigns its category', () => {
    const automatic = new Set(['ownership-direct', 'ownership-inherited', 'team-relation-removed', 'team-permission-identifiers']);
    const report = analyze(catalogOf(JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8'))));
    for (const finding of report.findings) {
      expect(finding.kind, finding.category).toBe(automatic.has(finding.category) ? 'automatic' : 'manual');
    }
    expect(report.summary.automatic + report.summary.manual).toBe(report.findings.length);
  });

  it('runs every registered rule by default on a frozen org without throwing', () => {
    const report = analyze(catalogOf(JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8'))));
    expect(report.ruleErrors).toBeUndefined();
    expect(new Set(report.findings.map((f) => f.category)).size).toBe(14);
  });
});
