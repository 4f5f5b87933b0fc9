import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUnprivileged, readReport, runWithin, scratchDir } from './helpers.js';

/** Unreadable files also carry the id a baseline accepts them by (test/ci/unreadable-accepted.test.ts); here only what and why. */
const withoutIds = (items: { resource: string; reason: string }[]) => items.map(({ resource, reason }) => ({ resource, reason }));

// Issue 16 item 6: a repository file or folder the run may not read is a gap named in the report
// (exit 3), and everything else is still scanned and reported.

describe('a repository with an unreadable file and an unreadable folder', () => {
  it('is scanned anyway: both are incomplete entries, the readable file still has its finding, exit 3', async () => {
    const repo = scratchDir('unreadable');
    writeFileSync(join(repo, 'port.yml'), 'identifier: svc\nteam: Payments\n');
    writeFileSync(join(repo, 'secret.tf'), 'resource "port_blueprint" "x" {}\n');
    chmodSync(join(repo, 'secret.tf'), 0o000);
    mkdirSync(join(repo, 'locked'));
    writeFileSync(join(repo, 'locked', 'main.tf'), 'resource "port_blueprint" "y" {}\n');
    chmodSync(join(repo, 'locked'), 0o000);
    const out = join(scratchDir('unreadable-out'), 'out');

    const name = repo.split('/').pop()!;
    const run = await asUnprivileged(() => runWithin(['analyze', '--repo', repo, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet']));
    // Not "unexpected error: EACCES": under --quiet only what could not be read, and the verdict.
    expect(run.stderr).not.toContain('unexpected error');
    expect(run.stderr.split('\n').filter(Boolean).map((line) => line.split(':')[0])).toEqual(['not read', 'not read', name]);
    expect(run.code).toBe(3);
    const report = readReport(out);
    expect(withoutIds(report.incomplete)).toEqual([
      { resource: `${name}/locked/`, reason: 'the folder could not be listed (permission denied or gone); the files in it were not checked' },
      { resource: `${name}/secret.tf`, reason: 'could not be read (permission denied); the file was not checked' },
    ]);
    expect(report.findings.map((f) => f.location)).toEqual([`${name}/port.yml:2`]);
  });

  it('with an unreadable .gitignore says its ignores may not have held', async () => {
    const repo = scratchDir('unreadable-gitignore');
    writeFileSync(join(repo, '.gitignore'), 'build/\n');
    chmodSync(join(repo, '.gitignore'), 0o000);
    const out = join(scratchDir('unreadable-gitignore-out'), 'out');
    const run = await asUnprivileged(() => runWithin(['analyze', '--repo', repo, '--out', out, '--format', 'json', '--fail-on', 'none']));
    expect(run.code).toBe(3);
    expect(withoutIds(readReport(out).incomplete)).toEqual([
      { resource: `${repo.split('/').pop()}/.gitignore`, reason: 'could not be read (permission denied); files it ignores may have been scanned' },
    ]);
  });
});
