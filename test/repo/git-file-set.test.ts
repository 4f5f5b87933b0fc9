import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFailure, gitLsFiles } from '../../src/repo/file-set.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { timed } from '../hostile/helpers.js';
import { committedCheckout, git } from '../support/action-step.js';

// Issue 38 item 2: the files a scan sees are git's in a git checkout, git's rules elsewhere, and a
// git that fails or is missing never turns into "no files".

const BREAKING = readFileSync('fixtures/repo/terraform/permissions.tf', 'utf8');

/** A checkout: tracked/ignored.tf is tracked though a .gitignore line covers it; build.tf is untracked and ignored; new.tf untracked. */
function checkout(): string {
  const dir = committedCheckout('git-set', { 'tracked/ignored.tf': BREAKING });
  writeFileSync(join(dir, '.gitignore'), 'tracked/\nbuild.tf\n');
  writeFileSync(join(dir, 'build.tf'), BREAKING);
  writeFileSync(join(dir, 'new.tf'), BREAKING);
  return dir;
}

const scannedFiles = (scan: Awaited<ReturnType<typeof scanRepositories>>) => [...new Set(scan.findings.map((f) => f.location.replace(/:\d+$/, '')))].sort();

describe('in a git checkout', () => {
  it('scans what git tracks (ignored or not) and untracked files it does not ignore', async () => {
    const dir = checkout();
    const name = dir.split('/').pop()!;
    const scan = await scanRepositories([dir]);
    expect(scannedFiles(scan)).toEqual([`${name}/new.tf`, `${name}/tracked/ignored.tf`]);
  });

  it("the tool's own leave-outs and project-template folders hide only untracked files; --ignore hides tracked ones too", async () => {
    const dir = committedCheckout('git-leave-outs', { 'vendor/tracked.tf': BREAKING, 'tpl/{{cookiecutter.slug}}/tracked.tf': BREAKING });
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'untracked.tf'), BREAKING);
    writeFileSync(join(dir, 'vendor', 'untracked.tf'), BREAKING);
    writeFileSync(join(dir, 'tpl', '{{cookiecutter.slug}}', 'untracked.tf'), BREAKING);
    const name = dir.split('/').pop()!;
    const scan = await scanRepositories([dir]);
    expect(scannedFiles(scan)).toEqual([`${name}/tpl/{{cookiecutter.slug}}/tracked.tf`, `${name}/vendor/tracked.tf`]);
    expect(scan.notes).toContainEqual(`${name}/tpl/: skipped, a project template (its paths hold {{ }} placeholders); its files are checked in the projects made from it`);
    expect(scannedFiles(await scanRepositories([dir], { ignore: ['vendor/'] }))).toEqual([`${name}/tpl/{{cookiecutter.slug}}/tracked.tf`]);
  });

  it('--repo on a subfolder: git lists that folder, with paths below it', async () => {
    const dir = checkout();
    expect(scannedFiles(await scanRepositories([join(dir, 'tracked')]))).toEqual(['tracked/ignored.tf']);
  });

  it('when git fails, says so and scans every file on disk (the ignored one too), never none', async () => {
    const dir = checkout();
    const name = dir.split('/').pop()!;
    const scan = await scanRepositories([dir], { git: async () => ({ failed: 'git refuses a checkout owned by another user: add it to safe.directory' }) });
    expect(scannedFiles(scan)).toEqual([`${name}/build.tf`, `${name}/new.tf`, `${name}/tracked/ignored.tf`]);
    expect(scan.notes).toContain(`${name}: git could not list the checkout's files (git refuses a checkout owned by another user: add it to safe.directory); every file on disk was scanned, .gitignore files not applied`);
  });

  it('when git is not installed, the same', async () => {
    const dir = checkout();
    const path = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), 'tma-no-git-'));
    try {
      expect(await gitLsFiles(dir)).toEqual({ failed: 'git is not installed or not on PATH' });
    } finally {
      process.env.PATH = path;
    }
    expect(await gitLsFiles(dir)).toMatchObject({ files: expect.any(Set) });
  });

  it("git's own errors in a few words: the ownership check names safe.directory", () => {
    const dubious = "fatal: detected dubious ownership in repository at '/w/repo'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /w/repo\n";
    expect(gitFailure(dubious, 128, null)).toBe('git refuses a checkout owned by another user: add it to safe.directory');
    expect(gitFailure('fatal: not a git repository (or any of the parent directories): .git\n', 128, null)).toBe('git ls-files: not a git repository (or any of the parent directories): .git');
    expect(gitFailure('', null, 'SIGKILL')).toBe('git ls-files: ended by SIGKILL');
  });

  it("a repository inside the checkout (submodule or clone) is a gap (exit 3), named, never silently dropped", async () => {
    const dir = checkout();
    const inner = join(dir, 'vendored-infra');
    mkdirSync(inner);
    git(inner, 'init', '-q');
    writeFileSync(join(inner, 'main.tf'), BREAKING);
    const scan = await scanRepositories([dir]);
    expect(scan.incomplete).toContainEqual({ resource: `${dir.split('/').pop()}/vendored-infra/`, reason: 'a git repository of its own (a submodule or a clone inside): its files were not checked; scan it with a --repo of its own' });
  });
});

describe('outside git', () => {
  function folder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'tma-plain-'));
    mkdirSync(join(dir, 'infra'));
    writeFileSync(join(dir, 'infra', 'main.tf'), BREAKING);
    return dir;
  }

  it('a .gitignore that is a link is not read: its file stays scanned, and nothing of it is echoed in any output', async () => {
    const dir = folder();
    const outside = join(mkdtempSync(join(tmpdir(), 'tma-outside-')), 'ignore');
    writeFileSync(outside, 'infra/\n!secret-line-from-outside\n');
    symlinkSync(outside, join(dir, '.gitignore'));
    const out = join(mkdtempSync(join(tmpdir(), 'tma-plain-out-')), 'out');
    const summary = join(out, '..', 'step-summary.md');
    const run = await runCliCaptured(['analyze', '--repo', dir, '--out', out, '--format', 'json,html,md', '--fail-on', 'none'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code, run.stderr).toBe(0);
    const name = dir.split('/').pop()!;
    expect(run.stderr).toContain(`note: ${name}/.gitignore: not applied, a symbolic link (ignore files are read only as regular files); the files it would leave out were scanned`);
    for (const text of [run.stderr, readFileSync(summary, 'utf8'), ...['report.json', 'index.html', 'summary.md'].map((file) => readFileSync(join(out, file), 'utf8'))]) {
      expect(text).not.toContain('secret-line-from-outside');
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { findings: { location: string }[] };
    expect(report.findings.some((f) => f.location.startsWith(`${name}/infra/main.tf:`))).toBe(true);
  });

  it('a .gitignore over the size cap is not applied, and says so without quoting it', async () => {
    const dir = folder();
    writeFileSync(join(dir, '.gitignore'), `infra/\n# ${'x'.repeat(40 * 1024)}\n`);
    const scan = await scanRepositories([dir]);
    expect(scannedFiles(scan)).toEqual([`${dir.split('/').pop()}/infra/main.tf`]);
    expect(scan.notes).toContain(`${dir.split('/').pop()}/.gitignore: not applied, over 32 KB; the files it would leave out were scanned`);
  });

  it('braces are literal, as in git; negations re-include', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'infra', 'other.tf'), BREAKING);
    writeFileSync(join(dir, '.gitignore'), 'infra/{main,x}.tf\n*.tf\n!infra/main.tf\n');
    expect(scannedFiles(await scanRepositories([dir]))).toEqual([`${dir.split('/').pop()}/infra/main.tf`]);
  });

  it('resource attack patterns are cheap: a range of a hundred million, twenty brace groups', async () => {
    const dir = folder();
    writeFileSync(join(dir, '.gitignore'), `infra/{1..100000000}.tf\n${'{a,b}'.repeat(20)}\n${'infra/{a,b}'.repeat(20)}/*.tf\n${'*a'.repeat(500)}\n`);
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, 'infra', `${'a'.repeat(200)}${i}.tf`), '');
    const { result, cpuMs } = await timed(() => scanRepositories([dir]));
    expect(scannedFiles(result)).toEqual([`${dir.split('/').pop()}/infra/main.tf`]);
    // A CPU-time bound with room for a slow runner: expanded, these patterns took 31 s, or never ended.
    expect(cpuMs).toBeLessThan(10_000);
  });
});
