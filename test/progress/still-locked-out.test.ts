import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { runCliCaptured } from '../cli/run-cli.js';

/**
 * Issue 14 item 4 through the CLI: the access org analysed before the migration, then after it
 * with `--since`: once with nothing changed (everyone who was to lose access still lacks it), once
 * as the fix kit predicts it (every fix applied: nobody is locked out).
 */
const work = mkdtempSync(join(tmpdir(), 'tma-locked-'));
const FIXTURE = 'fixtures/access-org.json';

async function analyzeTo(name: string, snapshot: string, extra: string[] = []): Promise<{ report: Report; stderr: string; md: string; html: string }> {
  const out = join(work, name);
  const run = await runCliCaptured(['analyze', snapshot, '--out', out, '--format', 'json,md,html', '--fail-on', 'none', ...extra]);
  expect(run.code).toBe(0);
  const read = (file: string) => readFileSync(join(out, file), 'utf8');
  return { report: JSON.parse(read('report.json')) as Report, stderr: run.stderr, md: read('summary.md'), html: read('index.html') };
}

/** The org as the migration leaves it when nobody fixes anything: users' teams become identifiers. */
function migratedUnfixed(): string {
  const org = JSON.parse(readFileSync(FIXTURE, 'utf8')) as OrgSnapshot;
  const identifierOf = new Map((org.teams ?? []).map((team) => [String(team.name), String(team.identifier)]));
  for (const user of org.users ?? []) {
    user.teams = user.teams.map((team) => {
      const name = typeof team === 'string' ? team : team.name;
      return { name: identifierOf.get(name) ?? name };
    });
  }
  // The migration's own part: ownership replaces teamInheritance on the org's blueprints.
  for (const blueprint of org.blueprints) {
    if (String(blueprint.identifier).startsWith('_')) continue;
    delete blueprint.teamInheritance;
    blueprint.ownership = { type: 'Direct' };
  }
  const path = join(work, 'migrated-unfixed.json');
  writeFileSync(path, JSON.stringify(org));
  return path;
}

let before: Awaited<ReturnType<typeof analyzeTo>>;
beforeAll(async () => {
  before = await analyzeTo('before', FIXTURE, ['--fix-out', join(work, 'fixes')]);
}, 60_000);

describe('--since after the migration: who is still locked out', () => {
  it('with nothing fixed, lists exactly the people the previous report said would lose access', async () => {
    const lost = (before.report.access ?? []).filter((entry) => (entry.loses ?? []).length > 0);
    expect(lost.length).toBeGreaterThan(2);
    const after = await analyzeTo('unfixed', migratedUnfixed(), ['--since', join(work, 'before', 'report.json')]);
    const locked = after.report.progress?.stillLockedOut ?? [];
    const key = (entry: { resource: { identifier: string }; permission: string; input?: string }) => `${entry.resource.identifier} ${entry.permission} ${entry.input ?? ''}`;
    // Nothing was fixed: whoever was to lose a decidable permission still lacks it.
    expect(locked.filter((entry) => entry.loses).map((entry) => [key(entry), entry.loses])).toEqual(lost.map((entry) => [key(entry), entry.loses]));
    const people = new Set(lost.flatMap((entry) => entry.loses ?? [])).size;
    expect(after.stderr).toContain(`${people} people are still locked out of ${lost.length} permissions.`);
    expect(after.md).toContain('still locked out');
    expect(after.html).toContain('Still locked out');
    expect(after.html).toContain(lost[0]!.loses![0]!);
  });

  it('with every fix of the kit applied, nobody is locked out', async () => {
    const after = await analyzeTo('fixed', join(work, 'fixes', 'predicted-org.json'), ['--since', join(work, 'before', 'report.json')]);
    expect((after.report.progress?.stillLockedOut ?? []).filter((entry) => entry.loses)).toEqual([]);
    expect(after.report.progress?.stillLockedOut).toBeDefined();
    expect(after.stderr).toContain('Nobody who was to lose access is still locked out.');
    expect(after.html).not.toContain('Still locked out');
  });

  it('before the migration has run, nobody is said to be locked out yet', async () => {
    const again = await analyzeTo('not-migrated', FIXTURE, ['--since', join(work, 'before', 'report.json')]);
    expect(again.report.progress).toBeDefined();
    expect(again.report.progress?.stillLockedOut).toBeUndefined();
    expect(again.stderr).not.toContain('locked out');
  });

  it('without users in the org, says nothing about access rather than guessing', async () => {
    const org = JSON.parse(readFileSync(FIXTURE, 'utf8')) as OrgSnapshot;
    delete org.users;
    const path = join(work, 'no-users.json');
    writeFileSync(path, JSON.stringify(org));
    const after = await analyzeTo('no-users', path, ['--since', join(work, 'before', 'report.json')]);
    expect(after.report.progress).toBeDefined();
    expect(after.report.progress?.stillLockedOut).toBeUndefined();
    expect(after.stderr).not.toContain('locked out');
  });
});
