import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { openOutputSet } from '../../src/output/output-set.js';
import { runCliCaptured } from '../cli/run-cli.js';

/*
 * Issue 32 item 6: a link in a repository (`link.tf -> real.tf`) made `git apply` reject the whole
 * repo.patch, and `--fix` replaced the link by a regular file; two `--repo` folders with one base
 * name shared their finding paths and the second was never patched; two runs sharing one
 * `--fix-out` left one run's report pointing at the other run's kit.
 */
const PERMISSIONS = 'resource "port_page_permissions" "home" {\n  page_identifier = "home"\n  read = {\n    teams = ["Payments"]\n  }\n}\n';
const FIXED = PERMISSIONS.replace('"Payments"', '"payments"');
const DEMO = 'fixtures/demo-org.json';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' }).toString();

/** A git repository with a commit, so `git apply` reads the patch as it would in a checkout. */
function gitRepo(dir: string, files: (repo: string) => void): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  files(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;

describe('a link in a repository', () => {
  it('is patched through its target: repo.patch applies, names only real.tf, and resolves the link finding too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-links-'));
    const repo = gitRepo(join(root, 'repo'), (dir) => {
      writeFileSync(join(dir, 'real.tf'), PERMISSIONS);
      symlinkSync('real.tf', join(dir, 'link.tf'));
    });
    const out = join(root, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--repo', repo, '--out', out, '--fail-on', 'none', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const patch = readFileSync(join(out, 'fixes', 'repo.patch'), 'utf8');
    expect(patch).toContain('diff --git a/real.tf b/real.tf');
    expect(patch).not.toContain('link.tf');
    git(repo, 'apply', '--check', join(out, 'fixes', 'repo.patch'));
    const linkFindings = report(out).findings.filter((f) => f.location.startsWith('repo/link.tf:'));
    expect(linkFindings.length).toBeGreaterThan(0);
    const resolved = new Set(report(out).fixes!.files.flatMap((file) => file.findings));
    for (const finding of linkFindings) expect(resolved).toContain(finding.id);
  });

  it('--fix changes the target and leaves the link a link', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-links-'));
    const repo = gitRepo(join(root, 'repo'), (dir) => {
      writeFileSync(join(dir, 'real.tf'), PERMISSIONS);
      symlinkSync('real.tf', join(dir, 'link.tf'));
    });
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--repo', repo, '--out', join(root, 'out'), '--fail-on', 'none', '--format', 'json', '--fix']);
    expect(run.stderr).toContain('--fix: changed 1 file in place: repo/real.tf');
    expect(lstatSync(join(repo, 'link.tf')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo, 'link.tf'))).toBe('real.tf');
    expect(readFileSync(join(repo, 'real.tf'), 'utf8')).toBe(FIXED);
  });

  it('to a file outside the repository: not scanned (the run is incomplete), not patched, and --fix leaves both alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-links-'));
    writeFileSync(join(root, 'shared.tf'), PERMISSIONS);
    const repo = gitRepo(join(root, 'repo'), (dir) => {
      writeFileSync(join(dir, 'other.tf'), PERMISSIONS.replace('home', 'away'));
      symlinkSync(join(root, 'shared.tf'), join(dir, 'link.tf'));
    });
    const out = join(root, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--repo', repo, '--out', out, '--fail-on', 'none', '--format', 'json', '--fix']);
    expect(run.stderr).toContain('--fix: changed 1 file in place: repo/other.tf');
    expect(report(out).incomplete).toContainEqual(expect.objectContaining({ resource: 'repo/link.tf', reason: 'could not be read (a symbolic link to outside the repository); the file was not checked' }));
    expect(readFileSync(join(root, 'shared.tf'), 'utf8')).toBe(PERMISSIONS);
    expect(lstatSync(join(repo, 'link.tf')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(out, 'fixes', 'repo.patch'), 'utf8')).not.toContain('link.tf');
  });

  it('whose target is in no repository read is left out of repo.patch with the reason', async () => {
    const { repoPatch } = await import('../../src/fix/repo-patch.js');
    const finding = { id: 'f1', kind: 'manual' as const, category: 'team-permission-identifiers' as const, resource: { type: 'file' as const, identifier: 'r/link.tf' }, location: 'r/link.tf:4', evidence: '"Payments"', reason: '', suggestion: '', rewrite: '"payments"', verdict: 'breaks' as const };
    const patch = repoPatch([finding], [{ path: 'r/link.tf', text: '', linkTo: '/elsewhere/shared.tf' }]);
    expect(patch.files).toEqual([]);
    expect(patch.patched).toEqual([]);
    expect(patch.unresolved).toEqual([{ id: 'f1', missing: 'a link to a file outside the repository (/elsewhere/shared.tf): repo.patch and --fix change only files inside it; edit that file by hand' }]);
  });
});

describe('two --repo folders with the same base name', () => {
  it('get distinct finding paths, and both are patched and fixed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-roots-'));
    const first = gitRepo(join(root, 'team-a', 'infra'), (dir) => writeFileSync(join(dir, 'perm.tf'), PERMISSIONS));
    const second = gitRepo(join(root, 'team-b', 'infra'), (dir) => writeFileSync(join(dir, 'perm.tf'), PERMISSIONS.replace('home', 'away')));
    const out = join(root, 'out');
    const args = ['analyze', '--snapshot', DEMO, '--repo', first, '--repo', second, '--out', out, '--fail-on', 'none', '--format', 'json'];
    expect((await runCliCaptured(args)).code).toBe(0);
    const paths = new Set(report(out).findings.filter((f) => f.resource.type === 'file').map((f) => f.location.split(':')[0]));
    expect([...paths].sort()).toEqual(['team-a/infra/perm.tf', 'team-b/infra/perm.tf']);
    // One patch per repository, each applying in its own.
    const patches = report(out).fixes!.files.filter((file) => file.kind === 'repo-patch').map((file) => file.path).sort();
    expect(patches).toHaveLength(2);
    const applies = (patch: string, repo: string) => {
      try {
        git(repo, 'apply', '--check', join(out, 'fixes', patch));
        return true;
      } catch {
        return false;
      }
    };
    expect(patches.map((patch) => [first, second].filter((repo) => applies(patch, repo)))).toEqual(expect.arrayContaining([[first], [second]]));
    const run = await runCliCaptured([...args, '--fix']);
    expect(run.stderr).toContain('--fix: changed 2 files in place: team-a/infra/perm.tf, team-b/infra/perm.tf');
    expect(readFileSync(join(first, 'perm.tf'), 'utf8')).toBe(FIXED);
    expect(readFileSync(join(second, 'perm.tf'), 'utf8')).toBe(FIXED.replace('home', 'away'));
  });
});

describe('--fix-out is locked like --out', () => {
  it('a run whose --fix-out another run is writing stops in one line before anything is read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-fixout-'));
    const kit = join(root, 'kit');
    // Another run holding the kit folder: its output set staged the kit and holds the lock.
    const other = await openOutputSet(join(root, 'other-out'));
    try {
      await other.stageDir(kit, [{ path: 'README.md', content: '# kit' }], 'run other\n');
      const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(root, 'out'), '--fix-out', kit, '--fail-on', 'none']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^teams-migration-audit: --fix-out ${kit}: another run \\(pid ${process.pid}\\) is writing there; wait for it to finish or choose another --fix-out\\n$`));
      expect(existsSync(join(root, 'out', 'report.json'))).toBe(false);
    } finally {
      await other.close();
    }
    // Released: the next run writes the kit there.
    const after = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(root, 'out'), '--fix-out', kit, '--fail-on', 'none']);
    expect(after.code, after.stderr).toBe(0);
    expect(existsSync(join(kit, 'README.md'))).toBe(true);
    expect(existsSync(join(root, '.kit.teams-migration-audit.lock'))).toBe(false);
  });

  it('a run whose --fix-out is another run\'s <out>/fixes waits for that run too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-fixout-'));
    const other = await openOutputSet(join(root, 'theirs'));
    try {
      await other.prepare();
      const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', join(root, 'out'), '--fix-out', join(root, 'theirs', 'fixes'), '--fail-on', 'none']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--fix-out ${join(root, 'theirs', 'fixes')}: another run (pid ${process.pid}) is writing there`);
    } finally {
      await other.close();
    }
  });
});
