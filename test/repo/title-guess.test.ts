import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { buildFixKit } from '../../src/fix/build-fix-kit.js';
import { readFindingFiles } from '../../src/fix/write-fixes.js';
import { day2Action } from '../support/day2-action.js';
import { useJqEngine } from '../support/jq-engine.js';
import type { Finding, Report } from '../../src/model/finding.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';

/**
 * Issue 22: a title with spaces in jq, in a repository scanned without the org. Such a literal
 * cannot be an identifier (identifiers hold no spaces), so it is a title: the finding says so and
 * rewrites it through the teams map, or else through a guess that is marked as one and never written by the kit.
 */
const MAPPING = `resources:
  - kind: repository
    selector:
      query: "true"
    port:
      entity:
        mappings:
          identifier: .name
          title: .name
          blueprint: '"service"'
          team: '"My Team"'
`;
const input = (jqQuery: string) => ({ type: 'string', visible: { jqQuery } });
const ACTIONS = JSON.stringify(
  [
    day2Action({
      env: input('.user.team | contains(["My Team"])'),
      region: input('[.user.teams[].name] | index("Platform Team") != null'),
      // "Hello world" is no identifier either, but running shows it is never compared with a team.
      note: input('(.user.team | index("My Team") != null) and .entity.properties.motto != "Hello world"'),
    }),
  ],
  null,
  2,
);

const jq = useJqEngine();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'title-guess-'));
  mkdirSync(join(dir, '.github'));
  writeFileSync(join(dir, '.github/port-app-config.yml'), MAPPING);
  writeFileSync(join(dir, 'actions.json'), ACTIONS);
});

const scan = async (teamsMap?: Record<string, string>): Promise<Report> => {
  const catalog = buildCatalog(repositoryOnlySnapshot([dir]), { jq, ...(teamsMap && { teamsMap }) });
  return analyze(catalog, await repositoryFindings([dir], catalog));
};
const at = (report: Report, file: string, line: number): Finding | undefined => report.findings.find((f) => f.location.endsWith(`${file}:${line}`));

describe('a title with spaces in jq, scanned without the org', () => {
  test('is a title: breaks, with the guessed identifier as a rewrite marked as a guess, never proven', async () => {
    const report = await scan();
    const mapping = at(report, '.github/port-app-config.yml', 11);
    expect(mapping?.verdict).toBe('breaks');
    expect(mapping?.rewrite).toBe(`team: '"my_team"'`);
    expect(mapping?.rewriteProof).toBe('suggested');
    expect(mapping?.reason).toMatch(/"My Team" is a title/);
    expect(mapping?.suggestion).toMatch(/guess/);
    expect(mapping?.suggestion).toMatch(/--teams-map/);

    const gate = report.findings.find((f) => f.evidence.includes('contains([\\"My Team\\"])'));
    expect(gate?.verdict).toBe('breaks');
    expect(gate?.rewrite).toContain('contains([\\"my_team\\"])');
    expect(gate?.rewriteProof).toBe('suggested');
    expect(gate?.suggestion).toMatch(/guess/);

    const mixed = report.findings.find((f) => f.evidence.includes('Hello world'));
    expect(mixed?.rewrite).toContain('index(\\"my_team\\")');
    expect(mixed?.rewrite).toContain('\\"Hello world\\"');
    expect(mixed?.reason).not.toMatch(/"Hello world" is a title/);

    // The user's teams are {name} objects whose names stay titles: run, it changes nothing.
    const names = report.findings.find((f) => f.evidence.includes('index(\\"Platform Team\\")'));
    expect(names?.verdict ?? 'unaffected').toBe('unaffected');
    expect(names?.rewrite).toBeUndefined();

    // The kit writes only proven rewrites: the guesses are left for a person, saying why.
    const kit = buildFixKit({ catalog: buildCatalog(repositoryOnlySnapshot([dir]), { jq }), report, jq, repoFiles: await readFindingFiles(report, [dir]) });
    expect(kit.patched.map((file) => file.path)).toEqual([]);
    const unresolved = new Map(kit.unresolved.map((u) => [u.id, u.missing]));
    expect(unresolved.get(mapping!.id)).toMatch(/guess/);
    expect(unresolved.get(gate!.id)).toMatch(/guess/);
  });

  test('with the teams map, the rewrite uses its identifier and is no guess', async () => {
    const report = await scan({ 'My Team': 'team_mine' });
    const mapping = at(report, '.github/port-app-config.yml', 11);
    expect(mapping?.verdict).toBe('breaks');
    expect(mapping?.rewrite).toBe(`team: '"team_mine"'`);
    expect(mapping?.suggestion).not.toMatch(/guess/);
    const gate = report.findings.find((f) => f.evidence.includes('contains([\\"My Team\\"])'));
    expect(gate?.rewrite).toContain('contains([\\"team_mine\\"])');
    expect(gate?.rewriteProof).toBe('proven');
  });
});
