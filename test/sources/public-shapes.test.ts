/**
 * fixtures/public-shapes-org.json: an org built from the shapes the service's public payloads
 * have (GET /v1/pages?compact=false dashboards with an `entities-number-chart` whose dataset is
 * a rule list, UPSERT_ENTITY mappings with team and relation lists, path rules, an empty
 * `teamInheritance`, scorecards, integration and webhook mappings with extra service fields).
 * It must load, be analysed shape by shape, and name what it could not read in report.notes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import { loadSnapshotFile } from '../../src/sources/snapshot-file.js';
import { analysableSnapshot } from '../../src/sources/validate-snapshot.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { validate } from '../ci/json-schema.js';
import { REPORT_SCHEMA } from '../ci/schemas.js';

const FIXTURE = 'fixtures/public-shapes-org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-public-'));

/** What the service returns that no rule reads as it is: one note each, with its path. */
const NOTES = [
  'teams[2].name: expected a string, got nothing (the field is missing)',
  'actionPermissions.register_repository.execute.teams: expected an array of strings, got string "Platform"',
  'pages[2].widgets[0].excludedFields: expected an array of strings, got string "readme"',
];

async function runFixture(...flags: string[]) {
  const out = tmp();
  const run = await runCliCaptured(['analyze', FIXTURE, '--out', out, '--format', 'json,html,md', ...flags]);
  return { run, out, report: (): Report => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report };
}

describe('the public-shapes org', () => {
  it('loads with a note per unreadable value, and keeps the scorecards', async () => {
    const { snapshot, notes } = await loadSnapshotFile(FIXTURE);
    expect(notes).toEqual(NOTES);
    expect(snapshot.scorecards?.map((s) => s.identifier)).toEqual(['production_readiness']);
    // An empty teamInheritance is no inheritance: nothing resolved for the service blueprint.
    expect(snapshot.blueprints.find((b) => b.identifier === 'service')?.teamInheritance).toEqual({});
    expect(buildCatalog(snapshot).inheritance.has('service')).toBe(false);
  });

  it('analyses each real shape where it stands', async () => {
    const { snapshot, notes } = await loadSnapshotFile(FIXTURE);
    const report = analyze(buildCatalog(analysableSnapshot(snapshot)), { notes });
    expect(report.ruleErrors).toBeUndefined();
    const rows = report.findings.map((f) => [f.category, f.resource.identifier, f.location, f.verdict ?? null, f.rewrite ?? null]);
    expect(rows).toEqual(
      expect.arrayContaining([
        // entities-number-chart inside a dashboard widget, dataset as a list of rules
        ['page-widget', '$home', 'widgets[0].widgets[3].dataset[1]', 'breaks', JSON.stringify({ property: '$team', operator: 'containsAny', value: ['platform'] })],
        // excludedFields naming the removed relation as relations.<name>, in a nested widget
        ['page-widget', 'repositories_dashboard', 'widgets[0].widgets[0].excludedFields', 'breaks', '["$team","readme"]'],
        // a path rule through $team, in a widget dataset and in an execute policy
        ['page-widget', 'repositories_dashboard', 'widgets[0].widgets[0].dataset.rules[1]', 'review', null],
        ['action-dynamic-permission', 'create_pd_service', 'permissions.execute.policy.queries.my_teams.rules[0]', 'review', null],
        // UPSERT_ENTITY team as a list of literal titles: judged as team values, the whole list rewritten
        ['action-mapping', 'create_pd_service', 'invocationMethod.mapping.team', 'breaks', '["platform"]'],
        // a removed relation written as a list
        ['action-mapping', 'register_repository', 'invocationMethod.mapping.relations.owning_team', 'breaks', JSON.stringify({ team: ['{{ .inputs.owner }}'] })],
        // integration and webhook mappings with team lists
        ['integration-mapping', 'pagerduty', 'config.resources[0].port.entity.mappings.team[0]', 'review', null],
        ['webhook-mapping', 'pagerdutyIncidents', 'mappings[0].entity.team[0]', 'review', null],
        // the empty teamInheritance is no inheritance, so entities with $team values make it Direct
        ['ownership-direct', 'service', 'ownership', null, JSON.stringify({ ownership: { type: 'Direct' } })],
      ]),
    );
    const teamList = report.findings.find((f) => f.location === 'invocationMethod.mapping.team');
    expect(teamList?.evidence).toBe('["Platform"]');
    // A relation list that reads nothing of teams is analysed and needs nothing.
    expect(report.findings.filter((f) => f.location.includes('pagerdutyService'))).toEqual([]);
  });

  it('analyze exits 0 or 1 (never 2), with the notes in report.json, the HTML, the summary and on stderr', async () => {
    const passing = await runFixture('--fail-on', 'none');
    expect(passing.run.code).toBe(0);
    const gated = await runFixture();
    expect(gated.run.code).toBe(1);

    const report = passing.report();
    expect(report.notes).toEqual(NOTES);
    expect(validate(REPORT_SCHEMA, report)).toEqual([]);
    for (const note of NOTES) expect(passing.run.stderr).toContain(`note: ${note}\n`);
    const html = readFileSync(join(passing.out, 'index.html'), 'utf8');
    expect(html).toContain('id="notes-h"');
    expect(html).toContain('<code>pages[2].widgets[0].excludedFields: expected an array of strings, got string &quot;readme&quot;</code>');
    expect(readFileSync(join(passing.out, 'summary.md'), 'utf8')).toContain('### Notes');
  });

  it('with --strict stops at the first misfit: exit 2, one line, no report', async () => {
    const { run } = await runFixture('--strict');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`teams-migration-audit: ${FIXTURE}: field "teams[2].name": expected a string, got nothing (the field is missing)\n`);
  });

  it('snapshot --snapshot prints the same notes and rewrites the file', async () => {
    const out = join(tmp(), 'org.json');
    const run = await runCliCaptured(['snapshot', FIXTURE, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('note: '))).toEqual(NOTES.map((note) => `note: ${note}`));
    // The rewrite orders keys, so the notes come in another order; nothing is lost or added.
    const rewritten = await loadSnapshotFile(out);
    expect([...rewritten.notes].sort()).toEqual([...NOTES].sort());
  });
});

describe('the public-shapes org, read live from the sandbox', () => {
  it('gets the same notes as its recording, exit 0, and --strict stops with exit 2', async () => {
    const { withSandbox, run, tempDir, loadFixture } = await import('../live/harness.js');
    await withSandbox({ snapshot: await loadFixture(FIXTURE) }, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token };
      const out = await tempDir();
      const live = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--fail-on', 'none'], env, clock);
      expect(live.code).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      // Read live, the same misfits give the same notes as the recording: nothing is dropped on the way.
      expect([...(report.notes ?? [])].sort()).toEqual([...NOTES].sort());
      for (const note of report.notes ?? []) expect(live.stderr).toContain(`note: ${note}\n`);

      const strict = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--strict'], env, clock);
      expect(strict.code).toBe(2);
      expect(strict.stderr.trim().split('\n').at(-1)).toMatch(/^teams-migration-audit: live org at http:\/\/127\.0\.0\.1:\d+: field "[^"]+": expected /);
    });
  });
});
