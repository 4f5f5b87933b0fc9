import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import type { Report } from '../../src/model/finding.js';

/**
 * Issue 30, item 3: the kit accepts its own work. On a copy of the project's own IaC fixtures,
 * `analyze` writes the kit, `git apply fixes/repo.patch` applies it, and a scan of the patched files
 * against `fixes/predicted-org.json` reports nothing on any line the patch wrote; the patched
 * Terraform still parses, and nothing the first scan did not find breaks.
 */
function io(): CliIo & { err: string[] } {
  const err: string[] = [];
  return { err, stdout: () => undefined, stderr: (t) => err.push(t), env: {}, now: () => new Date('2026-01-01T00:00:00Z') };
}

const git = (cwd: string, ...args: string[]) => {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
};

/** Lines each file has after the patch that the patch wrote (added or changed), from `git diff -U0`. */
function writtenLines(diff: string): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>();
  let file = '';
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ b/')) file = line.slice(6);
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk) continue;
    const set = lines.get(file) ?? new Set<number>();
    for (let n = Number(hunk[1]); n < Number(hunk[1]) + Number(hunk[2] ?? 1); n++) set.add(n);
    lines.set(file, set);
  }
  return lines;
}

async function roundTrip(fixture: string, extra: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'tma-kit-'));
  cpSync(fixture, join(root, fixture), { recursive: true, filter: (path) => !path.includes('node_modules') });
  for (const file of extra.filter((arg) => arg.endsWith('.json') || arg.endsWith('.yaml'))) cpSync(file, join(root, file));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'fixture');
  const cwd = process.cwd();
  process.chdir(root); // paths in findings and in the patch are relative to the checkout; the forks pool allows chdir
  try {
    const first = io();
    const firstCode = await runCli(['analyze', '--repo', fixture, ...extra, '--out', 'out1', '--format', 'json'], first);
    expect(firstCode, first.err.join('')).not.toBe(2);
    const before = JSON.parse(readFileSync('out1/report.json', 'utf8')) as Report;
    git(root, 'apply', 'out1/fixes/repo.patch');
    const written = writtenLines(git(root, 'diff', '-U0'));
    const again = io();
    const code = await runCli(['analyze', '--repo', fixture, '--snapshot', 'out1/fixes/predicted-org.json', '--out', 'out2', '--format', 'json', '--no-fixes'], again);
    expect(code, again.err.join('')).not.toBe(2);
    const after = JSON.parse(readFileSync('out2/report.json', 'utf8')) as Report;
    const terraform = new Map<string, unknown>();
    for (const file of written.keys()) if (file.endsWith('.tf')) terraform.set(file, await parseHcl(file, readFileSync(file, 'utf8')));
    return { before, after, written, terraform, stderr: again.err.join('') };
  } finally {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  }
}

const onWrittenLines = (report: Report, written: Map<string, Set<number>>) =>
  report.findings.filter((f) => {
    const at = /^(.*):(\d+)$/.exec(f.location);
    return f.resource.type === 'file' && at !== null && (written.get(at[1]!)?.has(Number(at[2])) ?? false);
  });

/** What breaks after the patch, each by file and what it quotes: the same text the first scan found, or new. */
const breaking = (report: Report) => new Set(report.findings.filter((f) => f.verdict === 'breaks').map((f) => `${f.location.replace(/:\d+$/, '')} ${f.evidence}`));

describe('the fix kit accepts its own work (issue 30, item 3)', () => {
  test.each([
    ['fixtures/repo, repository only', 'fixtures/repo', []],
    ['fixtures/repo, repository only with a teams map', 'fixtures/repo', ['--teams-map', 'fixtures/repo-teams.yaml']],
    ['fixtures/repo-corpus, with its org', 'fixtures/repo-corpus', ['--snapshot', 'fixtures/repo-corpus-org.json']],
  ])('%s: nothing on a line the patch wrote, nothing new breaks, the Terraform parses', async (_name, fixture, extra) => {
    const { before, after, written, terraform } = await roundTrip(fixture, extra);
    expect(written.size).toBeGreaterThan(0);
    expect(onWrittenLines(after, written).map((f) => `${f.location} ${f.category} ${f.verdict}`)).toEqual([]);
    const earlier = breaking(before);
    expect([...breaking(after)].filter((key) => !earlier.has(key))).toEqual([]);
    expect(terraform.size).toBeGreaterThan(0);
    // The predicted org is the org after the migration: the scan of the patched files is judged as such.
    expect((after.notes ?? []).find((note) => note.startsWith('migration state of repository'))).toMatch(/decides: it has migrated$/);
  });
});
