import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileName, MAX_FILE_NAME, uniqueNames } from '../../src/fix/kit-names.js';
import { applyPatchedFiles, FixNotApplied } from '../../src/fix/write-fixes.js';
import type { Report } from '../../src/model/finding.js';
import { atomicWriteFaults, MAX_NAME_BYTES, temporaryPath, type AtomicWriteStep } from '../../src/output/output-set.js';
import { runCliCaptured } from '../cli/run-cli.js';

/*
 * Issue 38 items 6 and 7: --fix replaces every file or none, and says which file failed; names
 * derived from identifiers, and temporary names beside long file names, stay under 255 bytes.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-fix-'));

/** Every file under `dir` with its bytes and mode, by path. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files[relative(dir, path)] = `${(statSync(path).mode & 0o7777).toString(8)} ${readFileSync(path).toString('base64')}`;
    }
  };
  walk(dir);
  return files;
}

function fixture() {
  const repo = join(tmp(), 'repo');
  cpSync('fixtures/repo', repo, { recursive: true });
  const teams = join(tmp(), 'teams.yaml');
  writeFileSync(teams, `${readFileSync('fixtures/repo-teams.yaml', 'utf8')}Data Science: data_science\n`);
  const out = tmp();
  const args = ['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', repo, '--teams-map', teams, '--out', out, '--fail-on', 'none', '--format', 'json', '--fix'];
  return { repo, out, args };
}

/** A full disk at the `nth` time `step` is reached (1-based), once. */
function diskFullAt(step: AtomicWriteStep, nth: number): string[] {
  const seen: string[] = [];
  let count = 0;
  atomicWriteFaults.at = (at, target) => {
    if (at !== step) return;
    seen.push(target);
    if (++count === nth) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  };
  return seen;
}

afterEach(() => {
  delete atomicWriteFaults.at;
});

describe('--fix is all or nothing', () => {
  it('the run that succeeds changes more than one file (so the cuts below fall between files)', async () => {
    const { repo, args } = fixture();
    const before = tree(repo);
    const run = await runCliCaptured(args);
    expect(run.stderr).toMatch(/--fix: changed ([2-9]|\d\d+) files in place/);
    expect(tree(repo)).not.toEqual(before);
  });

  it.each<[string, AtomicWriteStep, number]>([
    ['the first file cannot be staged', 'written', 1],
    ['the second file cannot be created', 'opened', 2],
    ['the second file is cut halfway', 'half-written', 2],
    ['the second file cannot be closed', 'written', 2],
    ['the second rename fails after the first replaced its file', 'renamed', 2],
  ])('%s: every file as it was, the report written, one line naming the file, exit 2', async (_name, step, nth) => {
    const { repo, out, args } = fixture();
    const before = tree(repo);
    const seen = diskFullAt(step, nth);
    const run = await runCliCaptured(args);
    delete atomicWriteFaults.at;
    const failed = relative(repo, seen[nth - 1]!);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/unexpected error/);
    const last = run.stderr.trimEnd().split('\n').at(-1);
    expect(last).toMatch(new RegExp(`^teams-migration-audit: --fix: cannot replace \\S*${failed.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(no space left on the device\\); nothing was changed: every file is as it was$`));
    // Byte for byte and mode for mode, and no temporary file left beside any of them.
    expect(tree(repo)).toEqual(before);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.notes).toContain(last!.replace('teams-migration-audit: ', ''));
    expect(readFileSync(join(out, 'fixes', 'repo.patch'), 'utf8')).not.toBe('');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('a %s while files are staged or replaced is held until every file is replaced (the handler exits the process)', async (signal) => {
    const { repo, args } = fixture();
    const before = tree(repo);
    // The CLI's handler (src/main.ts) prints a line and exits: what it would leave is the tree when it runs.
    const atSignal: Record<string, string>[] = [];
    const handler = () => void atSignal.push(tree(repo));
    process.on(signal, handler);
    let staged = 0;
    let renames = 0;
    atomicWriteFaults.at = (step) => {
      if (step === 'half-written' && ++staged === 2) process.emit(signal, signal);
      if (step === 'renamed' && ++renames === 1) process.emit(signal, signal);
    };
    try {
      const run = await runCliCaptured(args);
      expect(run.stderr).toMatch(/--fix: changed \d+ files in place/);
    } finally {
      process.removeListener(signal, handler);
      delete atomicWriteFaults.at;
    }
    const after = tree(repo);
    expect(after).not.toEqual(before);
    // The signals reached the handler (once: the first ends the process) after every file was replaced, never between two.
    expect(atSignal).toEqual([after]);
    expect(process.listeners(signal)).toEqual(expect.not.arrayContaining([handler]));
  });

  it('a file changed since it was read, or a folder now in its place, is a --fix that changed nothing: the reports are still written (it stopped the run)', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.tf'), 'a = 1\n');
    mkdirSync(join(dir, 'b.tf'));
    for (const path of ['a.tf', 'b.tf']) {
      const failure = await applyPatchedFiles([{ path, before: 'a = 0\n', after: 'a = 2\n' }], [dir]).catch((error: unknown) => error);
      expect(failure, path).toBeInstanceOf(FixNotApplied);
      expect((failure as Error).message).toMatch(new RegExp(`^--fix: ${path.replace('.', '\\.')} changed since it was read; nothing was changed: run the audit again$`));
    }
    expect(readFileSync(join(dir, 'a.tf'), 'utf8')).toBe('a = 1\n');
  });

  it('a read-only file system or an immutable file is named in words', async () => {
    for (const [code, words] of [['EROFS', 'the file system is read-only'], ['EPERM', 'not permitted (EPERM: a read-only folder or an immutable file)']]) {
      const { repo, args } = fixture();
      const before = tree(repo);
      let count = 0;
      atomicWriteFaults.at = (step) => {
        if (step === 'renamed' && ++count === 2) throw Object.assign(new Error(code!), { code });
      };
      const run = await runCliCaptured(args);
      delete atomicWriteFaults.at;
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`teams-migration-audit: --fix: cannot replace \\S+ \\(${words!.replace(/[()]/g, '\\$&')}\\); nothing was changed: every file is as it was\\n$`));
      expect(tree(repo)).toEqual(before);
    }
  });

  it('a file whose name is 250 bytes is fixed: its temporary name stays under the limit', async () => {
    const { repo, args } = fixture();
    const long = `${'b'.repeat(247)}.tf`;
    renameSync(join(repo, 'terraform', 'blueprints.tf'), join(repo, 'terraform', long));
    const before = readFileSync(join(repo, 'terraform', long), 'utf8');
    const run = await runCliCaptured(args);
    expect(run.stderr).not.toMatch(/ENAMETOOLONG|unexpected error/);
    expect(run.stderr).toContain(long);
    expect(readFileSync(join(repo, 'terraform', long), 'utf8')).not.toBe(before);
    expect(readdirSync(join(repo, 'terraform')).filter((name) => name.includes('.tma-'))).toEqual([]);
  });
});

describe('names derived from identifiers are capped and stay apart', () => {
  it('a temporary name beside a 255-byte name, in any script, is under 255 bytes', () => {
    for (const name of ['a'.repeat(255), 'é'.repeat(127), '漢'.repeat(85), '😀'.repeat(63)]) {
      const temporary = temporaryPath(join('/x', name)).slice(3);
      expect(Buffer.byteLength(temporary), name.slice(0, 3)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(temporary).toMatch(/^\..+-[0-9a-f]{8}\.tma-\d+-[0-9a-f]{8}$/);
    }
  });
  it('a long identifier keeps its start and a hash of the whole; two that share their start differ', () => {
    const a = `svc_${'x'.repeat(300)}_a`;
    const b = `svc_${'x'.repeat(300)}_b`;
    expect(fileName(a)).toHaveLength(MAX_FILE_NAME);
    expect(fileName(a).startsWith('svc_xxx')).toBe(true);
    expect(fileName(a)).not.toBe(fileName(b));
    expect(fileName('short')).toBe('short');
    const names = uniqueNames([a, b].map((key) => ({ key, base: fileName(key) })));
    expect(new Set(names.values()).size).toBe(2);
  });
  it('a name given to one key by a clash is never another key\'s own name (an org can pick its identifiers to match the short hash)', () => {
    const hash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 8);
    const long = `svc_${'x'.repeat(300)}`;
    for (const keys of [
      ['svc', 'SVC', `svc-${hash('svc')}`],
      ['svc', 'SVC', `SVC-${hash('SVC')}`, `svc-${hash('svc')}`],
      [long, fileName(long), `${fileName(long)}-${hash(long)}`],
    ]) {
      const names = uniqueNames(keys.map((key) => ({ key, base: fileName(key) })));
      expect(new Set([...names.values()].map((name) => name.toLowerCase())).size, keys.join(' ')).toBe(keys.length);
      // The same keys in another order get the same names.
      expect(uniqueNames([...keys].reverse().map((key) => ({ key, base: fileName(key) })))).toEqual(names);
    }
  });
  it('one identifier of 300 characters: every output is written, its kit file under the cap (was ENAMETOOLONG, no outputs)', async () => {
    const long = `svc${'x'.repeat(297)}`;
    const snapshot = readFileSync('fixtures/demo-org.json', 'utf8').replaceAll('"service"', JSON.stringify(long));
    const dir = tmp();
    writeFileSync(join(dir, 'org.json'), snapshot);
    const out = join(dir, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'json,html,md']);
    expect(run.stderr).not.toMatch(/ENAMETOOLONG|cannot write/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.findings.some((finding) => finding.resource.identifier === long)).toBe(true);
    const kitFiles = report.fixes!.files.map((file) => file.path).filter((path) => path.includes('svcxxx'));
    expect(kitFiles.length).toBeGreaterThan(0);
    for (const path of kitFiles) {
      expect(readFileSync(join(out, 'fixes', path), 'utf8')).toContain(long);
      expect(Buffer.byteLength(path.split('/').at(-1)!)).toBeLessThan(MAX_NAME_BYTES - 40);
    }
  });
});
