import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { classifyTeamValue } from '../../src/catalog/teams.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';
import { repoContext } from '../../src/repo/context.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { brief, judged } from './helpers.js';

const catalog = buildCatalog({
  format: SNAPSHOT_FORMAT,
  organization: { id: 'o', name: 'o' },
  blueprints: [{ identifier: '_team', title: 'Team', schema: { properties: {} } }],
  teams: [{ name: 'Platform Team' }, { name: 'Payments', identifier: 'payments' }],
  entities: {
    _team: [
      { identifier: 'platform', title: 'Platform Team' },
      { identifier: 'platform_eu', title: 'Platform Team' },
    ],
  },
});

describe('two _team entities with the same title', () => {
  test('the directory offers no identifier for that title and says why', () => {
    expect(classifyTeamValue(catalog.teams, 'Platform Team').state).toBe('title-unknown-identifier');
    expect(catalog.teams.notes.join('\n')).toContain('2 teams are titled "Platform Team" (platform, platform_eu)');
  });

  test('a port_team with that name is a finding; a team list naming it breaks with no rewrite and says the title is shared', () => {
    const { findings } = judged(analyzeTerraform, 
      sourceText(
        'infra/teams.tf',
        `resource "port_team" "platform" {
  name = "Platform Team"
}
resource "port_team" "payments" {
  name = "Payments"
}
resource "port_page_permissions" "ops" {
  page_identifier = "ops"
  read = { teams = ["Platform Team"] }
}`,
      ),
      repoContext(catalog),
    );
    expect(brief(findings)).toEqual([
      { at: 'infra/teams.tf:2', category: 'external-ownership', verdict: 'breaks' },
      { at: 'infra/teams.tf:9', category: 'team-permission-identifiers', verdict: 'breaks' },
    ]);
    expect(findings[1]!.suggestion).toContain('no rewrite is offered through a title two teams share');
  });
});

describe('the teams directory notes reach the report', () => {
  test('two teams with one title are named in report.notes (the page and summary.md show them), not on stderr only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-shared-title-'));
    const snapshot = join(dir, 'org.json');
    writeFileSync(snapshot, JSON.stringify(catalog.snapshot));
    const out = join(dir, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', out, '--format', 'json,md', '--fail-on', 'none']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { notes?: string[] };
    expect(report.notes?.join('\n')).toContain('2 teams are titled "Platform Team" (platform, platform_eu)');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('2 teams are titled');
    // Said once on stderr, as every report note is.
    expect(run.stderr.split('2 teams are titled').length - 1).toBe(1);
  });
});
