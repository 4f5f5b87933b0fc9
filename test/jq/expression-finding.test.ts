import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogOptions } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { Category } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { expressionFinding } from '../../src/judge/expression-finding.js';
import { readTeamsMap } from '../../src/teams-map.js';

const snapshot = (extra: Partial<OrgSnapshot> = {}): OrgSnapshot => ({
  format: 'org-snapshot/1',
  organization: { id: 'org_1', name: 'Test org' },
  blueprints: [],
  teams: [{ name: 'Platform Team', identifier: 'platform' }, { name: 'Data Science' }],
  ...extra,
});

const site = (expression: string, category: Category = 'calculation-property') => ({
  category,
  resource: { type: 'blueprint' as const, identifier: 'service' },
  location: 'calculationProperties.x.calculation',
  expression,
  subject: 'Calculation property "x"',
  removedRelations: new Set<string>(),
});

let jq: JqEngine;
beforeAll(async () => {
  jq = await loadJqEngine();
});
const finding = (expression: string, options: CatalogOptions = { jq }, extra: Partial<OrgSnapshot> = {}) =>
  expressionFinding(buildCatalog(snapshot(extra), options), site(expression));

describe('team identifiers are never invented', () => {
  it('names the title and says the migration assigns its identifier', () => {
    const draft = finding('.team | index("Data Science") != null');
    expect(draft?.verdict).toBe('breaks');
    expect(draft?.rewrite).toBeUndefined();
    expect(draft?.suggestion).toBe(
      'Replace the title with the team\'s identifier: the identifier of "Data Science" is not known yet: the migration assigns it; pass --teams-map or re-run once the _team entities exist.',
    );
  });

  it('rewrites known titles and still names the unknown one', () => {
    const draft = finding('.team | contains(["Platform Team", "Data Science"])');
    expect(draft?.rewrite).toBe('.team | contains(["platform", "Data Science"])');
    expect(draft?.suggestion).toContain('Change it to: .team | contains(["platform", "Data Science"])');
    expect(draft?.suggestion).toContain('"Data Science" is not known yet: the migration assigns it');
  });

  it('uses the identifier from a --teams-map file, JSON or YAML', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teams-map-'));
    const jsonPath = join(dir, 'teams.json');
    const yamlPath = join(dir, 'teams.yaml');
    await writeFile(jsonPath, JSON.stringify({ 'Data Science': 'data_science' }));
    await writeFile(yamlPath, '"Data Science": ds_team\n');
    for (const [path, identifier] of [[jsonPath, 'data_science'], [yamlPath, 'ds_team']] as const) {
      const teamsMap = await readTeamsMap(path);
      const draft = finding('.team | index("Data Science") != null', { jq, teamsMap });
      expect(draft?.rewrite).toBe(`.team | index("${identifier}") != null`);
      expect(draft?.suggestion).not.toContain('not known yet');
    }
  });

  it('uses the identifier of a _team entity', () => {
    const draft = finding('.team | index("Data Science") != null', { jq }, { entities: { _team: [{ identifier: 'fraud_models', title: 'Data Science' }] } });
    expect(draft?.rewrite).toBe('.team | index("fraud_models") != null');
  });
});

describe('suggestions and notes per verdict', () => {
  it('explains a result that changes, with the values', () => {
    const draft = finding('.team | map(ascii_downcase) | join(", ")');
    expect(draft?.verdict).toBe('breaks');
    expect(draft?.reason).toMatch(/it gives ".*" with team titles but ".*" with team identifiers/);
    expect(draft?.suggestion).toContain('Make it give the intended result with team identifiers');
  });

  it('a value people read that turns from titles into identifiers is for review, with both values', () => {
    const draft = finding('.team | join(", ")');
    expect(draft?.verdict).toBe('review');
    expect(draft?.reason).toContain('people will read team identifiers where they read titles');
    expect(draft?.reason).toContain('"platform"');
  });

  it('says nothing needs changing when the result does not depend on the form of team values', () => {
    const draft = finding('.team | length > 0');
    expect(draft?.verdict).toBe('unaffected');
    expect(draft?.suggestion).toBe('Nothing to change: run on the org\'s teams, it does what it did before the migration.');
  });

  it('keeps the reading-only verdict without jq', () => {
    const draft = finding('.team | length > 0', {});
    expect(draft?.verdict).toBe('review');
    expect(draft?.note).toBeUndefined();
  });

  it("makes an invalid team-touching expression a note with its place and jq's one-line message, not a finding (issue 39)", () => {
    const draft = finding('.team | length >');
    expect(draft).toMatchObject({ noteOnly: true, verdict: 'unaffected', location: 'calculationProperties.x.calculation', note: expect.stringMatching(/^jq: error: syntax error[^\n]*$/) });
    expect(draft?.reason).toBe('Calculation property "x": it does not compile as jq, so it fails alike before the migration and after it: the migration changes nothing in it');
  });

  it('offers no rewrite nor edits of an invalid expression with a title: it fails in both worlds', () => {
    // Before issue 11 the uncompilable `.team | index("platform") !=` was offered as the rewrite.
    const draft = finding('.team | index("Platform Team") !=');
    expect(draft?.rewrite).toBeUndefined();
    expect(draft?.noteOnly).toBe(true);
    expect(draft?.suggestion).toBe('Fix the expression for its own sake: jq does not compile it.');
  });

  it('tells a lexer gap from invalid jq when jq accepts the expression', () => {
    // jq accepts it and, run, gives its input back: running shows it reads the team values.
    const accepting: JqEngine = { validate: () => ({ ok: true }), evaluate: (input) => ({ ok: true, values: [input] }) };
    const draft = finding('.team | "open', { jq: accepting });
    expect(draft?.verdict).toBe('review');
    expect(draft?.note).toBe("jq compiles it, but this tool's lexer could not read it (unterminated string literal at offset 8); check it by hand");
    expect(finding('.team | "open', {})?.note).toBe('not valid jq: unterminated string literal at offset 8');
    // Said once: the note carries the message, the reason only what it means.
    expect(draft?.reason).toContain('this tool could not read its jq, so it is listed for review');
    expect(draft?.reason).not.toContain('unterminated');
    expect(finding('.team | "open', {})?.reason).not.toContain('unterminated');
  });
});
