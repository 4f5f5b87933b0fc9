import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openOutputSet } from '../../src/output/output-set.js';
import { recoverOutputs } from '../support/recover-outputs.js';
import { UsageError } from '../../src/errors.js';
import { runWithin, scratchDir } from './helpers.js';

/*
 * Issue 32 item 1: the commit journal in --out (`.teams-migration-audit.commit.json`) is obeyed
 * only when it names what a run of this tool staged there. The GitHub action's default --out is
 * inside the checkout, so a pull request can commit one: these tests plant journals as such a
 * pull request would, and check that nothing outside --out is moved, followed or deleted, and
 * that the run says in one line which file to remove.
 */
const DEMO = resolve('fixtures/demo-org.json');
const JOURNAL = '.teams-migration-audit.commit.json';
const GIT_CONFIG = '[remote "origin"]\n\turl = https://github.com/acme/catalog\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX2Zha2VmYWtlZmFrZQ==\n';

/** A checkout as actions/checkout leaves it: `.git/config` holds the job's token. */
function checkout(): string {
  const repo = scratchDir('checkout');
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, '.git', 'config'), GIT_CONFIG);
  mkdirSync(join(repo, 'src'));
  writeFileSync(join(repo, 'src', 'main.tf'), 'resource "x" "y" {}\n');
  writeFileSync(join(repo, 'precious.txt'), 'precious');
  return repo;
}

/** What must be exactly as it was after a refused journal. */
function untouched(repo: string): void {
  expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
  expect(readFileSync(join(repo, 'src', 'main.tf'), 'utf8')).toBe('resource "x" "y" {}\n');
  expect(readFileSync(join(repo, 'precious.txt'), 'utf8')).toBe('precious');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const RUN = '0123456789abcdef';
const STAGING = `.tma-staging-4194999-${RUN}`;
/** A journal of this version's shape; `moves` and `removals` as the attacker wants them. */
const journalV2 = (moves: unknown, removals: unknown = []) => JSON.stringify({ format: 'teams-migration-audit-commit/2', pid: 4_194_999, run: RUN, moves, removals });

const refusedLine = (stderr: string, out: string) => {
  expect(stderr).toMatch(/^teams-migration-audit: [^\n]+\n$/);
  expect(stderr).toContain(join(out, JOURNAL));
  expect(stderr).toContain('nothing was touched');
  expect(stderr).toContain('remove');
};

const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe('a repository that commits a journal into the action default output folder', () => {
  // The action runs `analyze --out teams-migration-audit` in the checkout and uploads that folder.
  const out = 'teams-migration-audit';

  it('cannot move .git/config into the artifact, delete a file or a folder: one line, exit 2, nothing touched', async () => {
    const repo = checkout();
    mkdirSync(join(repo, out));
    // The journal the probe used: absolute paths, as the tool wrote them before.
    const planted = JSON.stringify({
      moves: [{ from: join(repo, '.git', 'config'), to: join(repo, out, 'config'), kind: 'file' }],
      removals: [join(repo, 'precious.txt')],
      staging: [join(repo, 'src')],
    });
    writeFileSync(join(repo, out, JOURNAL), planted);
    process.chdir(repo);
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(2);
    refusedLine(run.stderr, out);
    untouched(repo);
    expect(readdirSync(join(repo, out))).toEqual([JOURNAL]);
    expect(readFileSync(join(repo, out, JOURNAL), 'utf8')).toBe(planted);
  });

  it('the same with names relative to --out, in this version shape: refused before anything is read', async () => {
    const repo = checkout();
    mkdirSync(join(repo, out));
    writeFileSync(join(repo, out, JOURNAL), journalV2([{ name: '../.git/config', kind: 'file', sha256: sha256(GIT_CONFIG) }], ['../precious.txt']));
    process.chdir(repo);
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(2);
    refusedLine(run.stderr, out);
    expect(run.stderr).toContain('../.git/config');
    untouched(repo);
    expect(readdirSync(join(repo, out))).toEqual([JOURNAL]);
  });

  it('once the journal is removed, as the line says, the run writes its reports', async () => {
    const repo = checkout();
    mkdirSync(join(repo, out));
    writeFileSync(join(repo, out, JOURNAL), journalV2([{ name: '../.git/config', kind: 'file', sha256: sha256(GIT_CONFIG) }]));
    process.chdir(repo);
    expect((await runWithin(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none'])).code).toBe(2);
    execFileSync('rm', [join(out, JOURNAL)]);
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(existsSync(join(repo, out, 'report.json'))).toBe(true);
    untouched(repo);
  });
});

describe('a journal names only what this tool staged in --out', () => {
  /** --out inside a folder holding a victim file and a victim folder, with `journal` planted in it. */
  function planted(journal: string): { dir: string; out: string } {
    const dir = scratchDir('journal');
    const out = join(dir, 'out');
    mkdirSync(join(dir, 'victim-dir'), { recursive: true });
    writeFileSync(join(dir, 'victim-dir', 'keep'), 'keep');
    writeFileSync(join(dir, 'victim'), 'victim');
    mkdirSync(join(out, STAGING), { recursive: true });
    writeFileSync(join(out, STAGING, 'report.json'), 'staged');
    writeFileSync(join(out, 'report.json'), 'previous');
    writeFileSync(join(out, JOURNAL), journal);
    return { dir, out };
  }

  const ok = (name = 'report.json', kind = 'file') => ({ name, kind, sha256: sha256('staged') });
  const cases: [string, string][] = [
    ['a target that leaves --out', journalV2([ok('../victim')])],
    ['an absolute target', journalV2([ok('/etc/passwd')])],
    ['a target in a subfolder', journalV2([ok('sub/report.json')])],
    ['a name that is not one of the tool outputs', journalV2([ok('.git')])],
    ['a report name moved as a folder', journalV2([ok('report.json', 'dir')])],
    ['a removal outside --out', journalV2([ok()], ['../victim'])],
    ['a removal of a folder', journalV2([ok()], ['../victim-dir'])],
    ['a removal of a name that is not a report', journalV2([ok()], ['fixes'])],
    ['moves that are not a list', JSON.stringify({ format: 'teams-migration-audit-commit/2', pid: 4_194_999, run: RUN, moves: 7, removals: [] })],
    ['removals that are not a list (was "journal.removals is not iterable")', JSON.stringify({ moves: [], removals: 1, staging: [] })],
    ['a pid that is not a number', journalV2([ok()]).replace('4194999', '"../.."')],
    ['a run token that is a path', journalV2([ok()]).replace(RUN, '../../victim-dir')],
    ['an unknown field', JSON.stringify({ ...JSON.parse(journalV2([ok()])), staging: ['../victim-dir'] })],
    ['text that is not JSON', '{"moves": [{"from": "/'],
    ['the format of an earlier version (absolute paths)', JSON.stringify({ moves: [], removals: [], staging: [] })],
  ];
  it.each(cases)('%s: refused in one line naming the file; nothing is touched', async (_, journal) => {
    const { dir, out } = planted(journal);
    const error = await recoverOutputs(out).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(join(out, JOURNAL));
    expect(message).toMatch(/nothing was touched: remove .* to continue/);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('victim');
    expect(readFileSync(join(dir, 'victim-dir', 'keep'), 'utf8')).toBe('keep');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('previous');
    expect(readFileSync(join(out, STAGING, 'report.json'), 'utf8')).toBe('staged');
    expect(readdirSync(out).sort()).toEqual([JOURNAL, STAGING, 'report.json'].sort());
  });

  it('a staging folder that is a link to elsewhere is not followed: refused, the other folder untouched', async () => {
    const dir = scratchDir('journal');
    const out = join(dir, 'out');
    mkdirSync(out);
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'report.json'), 'staged');
    symlinkSync(join(dir, 'elsewhere'), join(out, STAGING));
    writeFileSync(join(out, JOURNAL), journalV2([ok()]));
    await expect(recoverOutputs(out)).rejects.toThrow(/is a link.*nothing was touched: remove/);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual(['report.json']);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  });

  it('a staged file that is a link is not moved into place', async () => {
    const dir = scratchDir('journal');
    const out = join(dir, 'out');
    mkdirSync(join(out, STAGING), { recursive: true });
    writeFileSync(join(dir, 'secret'), 'staged');
    symlinkSync(join(dir, 'secret'), join(out, STAGING, 'report.json'));
    writeFileSync(join(out, JOURNAL), journalV2([ok()]));
    await expect(recoverOutputs(out)).rejects.toThrow(/nothing was touched: remove/);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(readFileSync(join(dir, 'secret'), 'utf8')).toBe('staged');
  });

  it('a forged journal whose staging folder exists but holds other content than its digest says: refused, nothing moved', async () => {
    const { out } = planted(journalV2([{ name: 'report.json', kind: 'file', sha256: sha256('what the run wrote') }]));
    await expect(recoverOutputs(out)).rejects.toThrow(/does not match.*nothing was touched: remove/);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('previous');
  });

  it('a staging folder holding more than its journal names: refused', async () => {
    const { out } = planted(journalV2([ok()]));
    writeFileSync(join(out, STAGING, 'extra.sh'), 'echo');
    await expect(recoverOutputs(out)).rejects.toThrow(/nothing was touched: remove/);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('previous');
  });

  it('a journal that is a named pipe, a folder or a link: refused at once, never read', async () => {
    for (const make of ['fifo', 'dir', 'link'] as const) {
      const dir = scratchDir('journal');
      const out = join(dir, 'out');
      mkdirSync(out);
      if (make === 'fifo') execFileSync('mkfifo', [join(out, JOURNAL)]);
      if (make === 'dir') mkdirSync(join(out, JOURNAL));
      if (make === 'link') {
        writeFileSync(join(dir, 'elsewhere.json'), journalV2([]));
        symlinkSync(join(dir, 'elsewhere.json'), join(out, JOURNAL));
      }
      const kind = { fifo: 'a named pipe', dir: 'a folder', link: 'a link' }[make];
      await expect(recoverOutputs(out), make).rejects.toThrow(new RegExp(`${JOURNAL.replaceAll('.', '\\.')} is ${kind}.*nothing was touched: remove`));
    }
  });

  it('a well-formed journal is still confined: it replaces only the tool reports in --out, which the run then writes anew', async () => {
    // Anyone who can write --out can compute a digest: what keeps such a journal harmless is that it
    // may name nothing but this tool's own outputs in --out, which the run replaces anyway.
    const { dir, out } = planted(journalV2([ok()], ['summary.md']));
    writeFileSync(join(out, 'summary.md'), 'old summary');
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ format: 'impact-report/1' });
    expect(readdirSync(out).sort()).toEqual(['fixes', 'report.json']);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('victim');
  });
});

describe('a journal left by a killed run of this tool', () => {
  it('is finished by the next run on that --out, the fix kit with it', async () => {
    const out = join(scratchDir('genuine'), 'out');
    const first = await openOutputSet(out);
    await first.stageFile(join(out, 'report.json'), 'first report');
    await first.stageFile(join(out, 'summary.md'), 'first summary');
    await first.commit();
    await first.close();
    // The second run is "killed" right after its journal is written: no move is done, nothing cleaned up.
    const killed = await openOutputSet(out, {
      faults: {
        afterJournal: () => {
          throw new Error('killed');
        },
      },
    });
    await killed.stageFile(join(out, 'report.json'), 'second report');
    await killed.stageDir(join(out, 'fixes'), [{ path: 'README.md', content: '# kit' }], 'run second\n');
    await expect(killed.commit([join(out, 'summary.md')])).rejects.toThrow();
    await killed.close();
    expect(existsSync(join(out, JOURNAL))).toBe(true);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('first report');
    await recoverOutputs(out);
    expect(readdirSync(out).sort()).toEqual(['fixes', 'report.json']);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('second report');
    expect(readFileSync(join(out, 'fixes', 'README.md'), 'utf8')).toBe('# kit');
  });

  it('cut after its first rename: the rename done is recognised by its digest, the rest is finished', async () => {
    const out = join(scratchDir('genuine'), 'out');
    const first = await openOutputSet(out);
    await first.stageDir(join(out, 'fixes'), [{ path: 'README.md', content: '# old kit' }], 'run first\n');
    await first.stageFile(join(out, 'report.json'), 'first report');
    await first.commit();
    await first.close();
    const moved: string[] = [];
    const killed = await openOutputSet(out, {
      faults: {
        afterMove: (target) => {
          moved.push(target);
          throw new Error('killed');
        },
      },
    });
    await killed.stageFile(join(out, 'report.json'), 'second report');
    await killed.stageDir(join(out, 'fixes'), [{ path: 'README.md', content: '# new kit' }], 'run second\n');
    await expect(killed.commit()).rejects.toThrow();
    await killed.close();
    expect(moved).toEqual([join(out, 'report.json')]);
    expect(readFileSync(join(out, 'fixes', 'README.md'), 'utf8')).toBe('# old kit');
    await recoverOutputs(out);
    expect(readdirSync(out).sort()).toEqual(['fixes', 'report.json']);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('second report');
    expect(readFileSync(join(out, 'fixes', 'README.md'), 'utf8')).toBe('# new kit');
  });

  it('whose file in place was changed since is not finished over it: refused, nothing touched', async () => {
    const out = join(scratchDir('genuine'), 'out');
    const killed = await openOutputSet(out, {
      faults: {
        afterMove: () => {
          throw new Error('killed');
        },
      },
    });
    await killed.stageFile(join(out, 'report.json'), 'second report');
    await killed.stageFile(join(out, 'summary.md'), 'second summary');
    await expect(killed.commit()).rejects.toThrow();
    await killed.close();
    writeFileSync(join(out, 'report.json'), 'edited by hand');
    await expect(recoverOutputs(out)).rejects.toThrow(/report\.json is neither staged nor in place as its run wrote it.*remove/);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('edited by hand');
    expect(existsSync(join(out, 'summary.md'))).toBe(false);
  });
});
