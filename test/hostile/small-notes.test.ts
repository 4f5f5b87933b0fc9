import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, runWithin, scratchDir } from './helpers.js';

/* Issue 23 item 8: what was skipped or doubtful is a note, never silent. */
describe('--repo entries that are not read', () => {
  it('a named pipe, a link to a folder outside and one inside are each a note, and the run ends in seconds', async () => {
    const dir = scratchDir('notes');
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'infra'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(repo, 'infra', 'main.tf'), 'terraform {}\n');
    execFileSync('mkfifo', [join(repo, 'pipe.tf')]);
    symlinkSync(join(dir, 'elsewhere'), join(repo, 'outside'));
    symlinkSync(join(repo, 'infra'), join(repo, 'again'));
    const run = await runWithin(['analyze', '--repo', repo, '--out', join(dir, 'out'), '--fail-on', 'none', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').filter((line) => /named pipe|symbolic link to a folder/.test(line))).toEqual([
      'note: repo/again: a symbolic link to a folder, not followed; its files are scanned at repo/infra',
      'note: repo/outside: a symbolic link to a folder outside the repository, not followed; the files there were not scanned',
      'note: repo/pipe.tf: skipped, a named pipe, not a regular file',
    ]);
  });
});

describe('a snapshot listing one identifier twice', () => {
  it('is a note naming both places; a snapshot without duplicates has none (negative case)', async () => {
    const dir = scratchDir('dupes');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as { blueprints: { identifier: string }[] };
    org.blueprints.push({ ...org.blueprints[0]! });
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out'), '--fail-on', 'none', '--format', 'json']);
    const last = org.blueprints.length - 1;
    expect(readReport(join(dir, 'out')).notes).toContain(
      `blueprints: identifier "${org.blueprints[0]!.identifier}" is listed 2 times (blueprints[0], blueprints[${last}]); the service holds one per identifier, so the last is used where it is looked up`,
    );
    await runWithin(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', join(dir, 'clean'), '--fail-on', 'none', '--format', 'json']);
    expect((readReport(join(dir, 'clean')).notes ?? []).filter((note) => note.includes('is listed'))).toEqual([]);
  });
});
