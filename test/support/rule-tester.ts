/**
 * A small rule tester in the ESLint / Spectral manner: tables of `valid` cases (no findings) and
 * `invalid` cases (exactly these findings), each built from a compact inline org, deep-frozen so a
 * rule that mutates what it reads throws, and run through the rule as the registry holds it, so a
 * rule dropped from `RULES` fails its own tests.
 */
import { describe, expect, it } from 'vitest';
import { judgeRule } from '../../src/judge/site-judge.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import type { TeamsMap } from '../../src/catalog/teams.js';
import { CATEGORIES, type Category, type FindingDraft, type ResourceType, type Verdict } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { RULES } from '../../src/rules/index.js';
import type { Rule } from '../../src/rules/rule.js';

export type OrgParts = Partial<Omit<OrgSnapshot, 'format'>>;

/** A valid org-snapshot/1 from only the parts a case cares about. */
export function org(parts: OrgParts = {}): OrgSnapshot {
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_test', name: 'Test org' },
    blueprints: [],
    ...parts,
  } as OrgSnapshot;
}

/** Teams most cases share: two with known identifiers, one whose identifier is not known yet. */
export const TEAMS = [
  { name: 'Platform Team', identifier: 'platform' },
  { name: 'Payments', identifier: 'payments' },
  { name: 'Data Science' },
];

/** A blueprint record; `extra` overrides or adds fields. */
export function blueprint(identifier: string, extra: JsonObject = {}): JsonObject {
  return { identifier, title: identifier, schema: { properties: {} }, relations: {}, ...extra };
}

/** The beta shape: a direct relation to _team with teamInheritance over it (the relation is removed). */
export function betaBlueprint(identifier: string, relation = 'owning_team', extra: JsonObject = {}): JsonObject {
  return blueprint(identifier, {
    relations: { [relation]: { target: '_team', many: true, required: false } },
    teamInheritance: { path: relation },
    ...extra,
  });
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function ruleFor(category: Category): Rule {
  const rule = RULES.find((candidate) => candidate.category === category);
  if (!rule) throw new Error(`no rule for category "${category}" in RULES (src/rules/index.ts)`);
  return rule;
}

export function catalogOf(snapshot: OrgSnapshot, teamsMap?: TeamsMap): Catalog {
  return buildCatalog(deepFreeze(structuredClone(snapshot)), teamsMap ? { teamsMap } : {});
}

/** Run the registered rule for `category` on a frozen copy of `snapshot`. */
export function runRule(category: Category, snapshot: OrgSnapshot, teamsMap?: TeamsMap): FindingDraft[] {
  return judgeRule(catalogOf(snapshot, teamsMap), ruleFor(category));
}

export interface ExpectedFinding {
  location: string;
  resource: { type: ResourceType; identifier: string };
  /** Compared when the key is present; `verdict: undefined` asserts there is none. */
  verdict?: Verdict | undefined;
  /** Compared when the key is present; `rewrite: undefined` asserts there is none. */
  rewrite?: string | undefined;
  evidence?: string;
  /** Substrings: reason wording is still being refined, so never pin whole sentences. */
  reason?: string | string[];
  suggestion?: string | string[];
  /** A substring of the note; `note: undefined` asserts there is none. */
  note?: string | undefined;
}

export interface ValidCase {
  name: string;
  org: OrgSnapshot;
  teamsMap?: TeamsMap;
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
}

const key = (f: { resource: { type: string; identifier: string }; location: string }) =>
  `${f.resource.type}:${f.resource.identifier}@${f.location}`;

function assertFinding(actual: FindingDraft, expected: ExpectedFinding, category: Category): void {
  const where = key(expected);
  expect(actual.category, where).toBe(category);
  expect(actual.location, where).toBe(expected.location);
  expect({ type: actual.resource.type, identifier: actual.resource.identifier }, where).toEqual(expected.resource);
  if ('verdict' in expected) expect(actual.verdict, `${where} verdict`).toBe(expected.verdict);
  if ('rewrite' in expected) expect(actual.rewrite, `${where} rewrite`).toBe(expected.rewrite);
  if (expected.evidence !== undefined) expect(actual.evidence, `${where} evidence`).toBe(expected.evidence);
  for (const part of [expected.reason ?? []].flat()) expect(actual.reason, `${where} reason`).toContain(part);
  for (const part of [expected.suggestion ?? []].flat()) expect(actual.suggestion, `${where} suggestion`).toContain(part);
  if ('note' in expected) {
    if (expected.note === undefined) expect(actual.note, `${where} note`).toBeUndefined();
    else expect(actual.note ?? '', `${where} note`).toContain(expected.note);
  }
  // What every finding owes its reader (docs/formats.md, the report).
  expect(actual.evidence, `${where} evidence`).not.toBe('');
  expect(actual.reason.trim(), `${where} reason`).not.toBe('');
  expect(actual.suggestion.trim(), `${where} suggestion`).not.toBe('');
}

/** Register a describe block for one rule: every valid case yields nothing, every invalid case exactly its findings. */
export function ruleTester(category: Category, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  if (!CATEGORIES.includes(category)) throw new Error(`unknown category ${category}`);
  describe(`rule ${category}`, () => {
    describe('valid', () => {
      for (const testCase of cases.valid) {
        it(testCase.name, () => {
          expect(runRule(category, testCase.org, testCase.teamsMap)).toEqual([]);
        });
      }
    });
    describe('invalid', () => {
      for (const testCase of cases.invalid) {
        it(testCase.name, () => {
          const actual = runRule(category, testCase.org, testCase.teamsMap);
          expect(actual.map(key).sort(), 'findings (resource@location)').toEqual(testCase.findings.map(key).sort());
          for (const expected of testCase.findings) {
            const match = actual.find((f) => key(f) === key(expected));
            assertFinding(match!, expected, category);
          }
          // Pure: a second run on the same input reports the same.
          expect(runRule(category, testCase.org, testCase.teamsMap)).toEqual(actual);
        });
      }
    });
  });
}
