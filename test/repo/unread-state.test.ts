import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { useJqEngine } from '../support/jq-engine.js';
import { temporaryRepository } from './helpers.js';

/**
 * Issue 39, item 5: where nothing tells whether the org has migrated, what depends on it is a
 * review that says so, never a guess that the org has not; a file the scan could not read says
 * nothing, and is named.
 */
const jq = useJqEngine();

async function scanAlone(files: Record<string, string>): Promise<{ report: Report; at: string[]; note: string | undefined }> {
  const root = await temporaryRepository(files, 'tma-unread-state-');
  const catalog = buildCatalog(repositoryOnlySnapshot([root]), { jq });
  const report = analyze(catalog, await repositoryFindings([root], catalog));
  return {
    report,
    at: report.findings.map((f) => `${f.location.slice(basename(root).length + 1)} ${f.category} ${f.verdict ?? '-'}`),
    note: (report.notes ?? []).find((note) => note.startsWith('migration state of repository')),
  };
}

// An action on the users that sets a user's teams from team entities the form picks: written for identifiers.
const actions = `${JSON.stringify(
  [
    {
      identifier: 'join_teams',
      title: 'Join teams',
      trigger: {
        type: 'self-service',
        operation: 'DAY-2',
        blueprintIdentifier: '_user',
        userInputs: { properties: { teams: { type: 'array', items: { type: 'string', format: 'entity', blueprint: '_team' }, default: { jqQuery: '.user.teamsIdentifiers' } } } },
      },
      invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: '_user', mapping: { identifier: '{{ .entity.identifier }}', team: '{{ .inputs.teams | map(.identifier) }}' } },
    },
  ],
  null,
  2,
)}\n`;
const TEAM_LINE = actions.split('\n').findIndex((line) => line.includes('map(.identifier)')) + 1;

const blueprint = (extra: object) => `${JSON.stringify([{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ...extra }], null, 2)}\n`;

describe('a repository whose migration state no file read tells', () => {
  test('an expression written for identifiers is a review saying the state is unknown, not breaks "apply it with the migration"', async () => {
    const { at, report, note } = await scanAlone({ 'config/actions.json': actions });
    expect(at).toEqual([`config/actions.json:${TEAM_LINE} action-mapping review`]);
    expect(report.findings[0]!.reason).toMatch(/No file says whether the org has migrated/);
    expect(note).not.toMatch(/judged as written before the migration/);
  });

  test('a blueprints file cut short is named as not read, the run stays incomplete, and the state is unknown, not "before the migration"', async () => {
    // Cut inside a string, as a copy stopped mid-file: the ownership it declares is never read.
    const whole = blueprint({ ownership: { type: 'Direct' } });
    const cut = whole.slice(0, whole.indexOf('"Direct') + 4);
    const { at, report, note } = await scanAlone({ 'config/actions.json': actions, 'config/blueprints.json': cut });
    expect(report.incomplete).toEqual([expect.objectContaining({ resource: expect.stringMatching(/config\/blueprints\.json:\d+$/) })]);
    expect(at).toEqual([`config/actions.json:${TEAM_LINE} action-mapping review`]);
    expect(report.findings[0]!.reason).toMatch(/config\/blueprints\.json could not be read/);
    expect(note).toMatch(/: no file read says whether the org has migrated \(no system blueprint _team or _user, no ownership, no team inheritance\), and [^ ]*config\/blueprints\.json could not be read; unknown, so /);
    expect(note).not.toMatch(/judged as written before the migration/);
    // Named as not read, it is not counted as read whole either.
    expect(report.notes).toContainEqual(expect.stringMatching(/^files of repository [^:]+: 2 found, 2 of kinds the scan judges, 1 read whole$/));
  });

  test('a JSON file cut between values (its brackets never closed) is not read either: read loosely, it passed the gate', async () => {
    const whole = blueprint({ ownership: { type: 'Direct' } });
    const cut = whole.slice(0, whole.indexOf('"relations"'));
    const { at, report, note } = await scanAlone({ 'config/actions.json': actions, 'config/blueprints.json': cut });
    expect(report.incomplete).toEqual([expect.objectContaining({ resource: expect.stringMatching(/config\/blueprints\.json:\d+$/), reason: expect.stringContaining('cut short') })]);
    expect(at).toEqual([`config/actions.json:${TEAM_LINE} action-mapping review`]);
    expect(note).toMatch(/config\/blueprints\.json could not be read/);
    // JSON with comments and trailing commas, brackets closed, is still read as it is.
    const loose = await scanAlone({ 'config/actions.json': actions, 'config/blueprints.json': `// kept by hand\n${whole.replace(/\n\]\n$/, ',\n]\n')}` });
    expect(loose.report.incomplete).toEqual([]);
    expect(loose.at).toEqual([]);
  });

  test('files that say the org has not migrated keep the verdict: breaks until the migration runs; files that say it has, nothing', async () => {
    const before = await scanAlone({ 'config/actions.json': actions, 'config/blueprints.json': blueprint({ teamInheritance: { path: 'domain' } }) });
    expect(before.at).toContain(`config/actions.json:${TEAM_LINE} action-mapping breaks`);
    const after = await scanAlone({ 'config/actions.json': actions, 'config/blueprints.json': blueprint({ ownership: { type: 'Direct' } }) });
    expect(after.at).toEqual([]);
  });
});
