import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openOutputSet } from '../../src/output/output-set.js';
import { recoverOutputs } from '../support/recover-outputs.js';
import { KIT_MARKER } from '../../src/output/out-entries.js';
import { readReport, runWithin, scratchDir, stderrLines } from './helpers.js';

/*
 * Issue 23 items 2 and 3: outputs written whole or not at all, two runs on one --out kept apart,
 * links inside --out replaced and never followed, and no output ever written over an input.
 */
const DEMO = 'fixtures/demo-org.json';
const analyze = (out: string, ...more: string[]) => ['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none', ...more];
const oneLine = (stderr: string) => expect(stderr).toMatch(/^teams-migration-audit: [^\n]+\n$/);

describe('outputs never name an input: refused in one line before anything is read', () => {
  it('--write-baseline naming the snapshot is refused, and the snapshot is untouched', async () => {
    const dir = scratchDir('inputs');
    const snapshot = join(dir, 's.json');
    writeFileSync(snapshot, readFileSync(DEMO));
    const run = await runWithin(['analyze', '--snapshot', snapshot, '--out', join(dir, 'out'), '--write-baseline', snapshot]);
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toContain(`--write-baseline ${snapshot} is the --snapshot input`);
    expect(readFileSync(snapshot, 'utf8')).toBe(readFileSync(DEMO, 'utf8'));
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('--write-baseline rewriting the --baseline it read is the one pair allowed: the file is replaced whole', async () => {
    const dir = scratchDir('inputs');
    const baseline = join(dir, 'b.json');
    writeFileSync(baseline, JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted: [{ id: 'gone-1', reason: 'old', by: 'someone' }] }));
    const run = await runWithin(analyze(join(dir, 'out'), '--baseline', baseline, '--write-baseline', baseline, '--format', 'json'));
    expect(run.code).toBe(0);
    const rewritten = JSON.parse(readFileSync(baseline, 'utf8')) as { accepted: { id: string }[] };
    expect(rewritten.accepted.map((entry) => entry.id)).not.toContain('gone-1');
    expect(rewritten.accepted.length).toBeGreaterThan(0);
  });

  it('a baseline named out/report.json, or a teams map inside the fix kit folder, is refused', async () => {
    const dir = scratchDir('inputs');
    mkdirSync(join(dir, 'out', 'fixes'), { recursive: true });
    writeFileSync(join(dir, 'out', 'report.json'), '{"format":"baseline/1","accepted":[]}');
    const baseline = await runWithin(analyze(join(dir, 'out'), '--baseline', join(dir, 'out', 'report.json')));
    expect(baseline.code).toBe(2);
    oneLine(baseline.stderr);
    expect(baseline.stderr).toContain('is the --baseline input');
    writeFileSync(join(dir, 'out', 'fixes', 'teams.yaml'), 'Platform: platform\n');
    const teams = await runWithin(analyze(join(dir, 'out'), '--teams-map', join(dir, 'out', 'fixes', 'teams.yaml')));
    expect(teams.code).toBe(2);
    expect(teams.stderr).toContain('holds the --teams-map input');
    expect(readFileSync(join(dir, 'out', 'fixes', 'teams.yaml'), 'utf8')).toBe('Platform: platform\n');
  });

  it('--out "" is refused, and nothing is written in the working directory', async () => {
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', '']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('teams-migration-audit: --out is empty; name a path\n');
    expect(existsSync('fixes')).toBe(false);
    expect(existsSync('report.json')).toBe(false);
  });
});

describe('links inside --out are replaced, never followed', () => {
  it('a report.json link to another file: the file keeps its text, the link becomes the report', async () => {
    const dir = scratchDir('links');
    const victim = join(dir, 'victim.json');
    writeFileSync(victim, 'precious');
    mkdirSync(join(dir, 'out'));
    symlinkSync(victim, join(dir, 'out', 'report.json'));
    const run = await runWithin(analyze(join(dir, 'out'), '--format', 'json'));
    expect(run.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'out', 'report.json')).isSymbolicLink()).toBe(false);
    expect(readReport(join(dir, 'out')).format).toBe('impact-report/1');
  });

  it('fixes -> a folder elsewhere: nothing there is deleted, and the kit is written in --out', async () => {
    const dir = scratchDir('links');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(join(elsewhere, 'org'), { recursive: true });
    mkdirSync(join(elsewhere, 'data-migration'));
    writeFileSync(join(elsewhere, 'org', 'keep.json'), '{}');
    writeFileSync(join(elsewhere, 'README.md'), '# Fix kit for someone else\n');
    mkdirSync(join(dir, 'out'));
    symlinkSync(elsewhere, join(dir, 'out', 'fixes'));
    const run = await runWithin(analyze(join(dir, 'out'), '--format', 'json'));
    expect(run.code).toBe(0);
    expect(readdirSync(elsewhere).sort()).toEqual(['README.md', 'data-migration', 'org']);
    expect(readFileSync(join(elsewhere, 'org', 'keep.json'), 'utf8')).toBe('{}');
    expect(lstatSync(join(dir, 'out', 'fixes')).isDirectory()).toBe(true);
    expect(existsSync(join(dir, 'out', 'fixes', KIT_MARKER))).toBe(true);
  });

  it('a fix kit folder holding files this tool did not write is refused before anything is read', async () => {
    const dir = scratchDir('kit');
    mkdirSync(join(dir, 'kit', 'org'), { recursive: true });
    writeFileSync(join(dir, 'kit', 'org', 'mine.json'), 'mine');
    const run = await runWithin(analyze(join(dir, 'out'), '--fix-out', join(dir, 'kit')));
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toContain(`holds files this tool did not write (no ${KIT_MARKER})`);
    expect(readFileSync(join(dir, 'kit', 'org', 'mine.json'), 'utf8')).toBe('mine');
  });
});

describe('one run at a time on one --out, and its files are one set', () => {
  it('a second run while one holds --out stops in one line; a lock left by a killed run is taken over', async () => {
    const dir = scratchDir('lock');
    mkdirSync(join(dir, 'out'));
    const holder = spawn('sleep', ['30']);
    try {
      // As a running holder writes it: its process id and start time on this boot, in this PID namespace.
      const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const lock = { format: 'teams-migration-audit-lock/1', pid: holder.pid, started, boot, pidns: readlinkSync('/proc/self/ns/pid'), host: hostname(), token: '0123456789abcdef' };
      writeFileSync(join(dir, 'out', '.teams-migration-audit.lock'), JSON.stringify(lock));
      const second = await runWithin(analyze(join(dir, 'out')));
      expect(second.code).toBe(2);
      expect(second.stderr).toBe(`teams-migration-audit: --out ${join(dir, 'out')}: another run (pid ${holder.pid}) is writing there; wait for it to finish or choose another --out\n`);
      expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.on('exit', resolve));
    const after = await runWithin(analyze(join(dir, 'out')));
    expect(after.code).toBe(0);
    expect(existsSync(join(dir, 'out', '.teams-migration-audit.lock'))).toBe(false);
  });

  it('two runs writing into one --out at once: the second to write says so in one line, the first writes', async () => {
    const out = join(scratchDir('lock'), 'out');
    const [first, second] = [await openOutputSet(out), await openOutputSet(out)];
    await first.stageFile(join(out, 'report.json'), 'first');
    await expect(second.stageFile(join(out, 'report.json'), 'second')).rejects.toThrow(
      new RegExp(`^--out ${out}: another run \\(pid ${process.pid}\\) is writing there; wait for it to finish or choose another --out$`),
    );
    await first.commit();
    await Promise.all([first.close(), second.close()]);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('first');
    expect(readdirSync(out)).toEqual(['report.json']);
  });

  it('a format not asked for again is removed, so no file of an earlier run stays beside the new ones', async () => {
    const out = join(scratchDir('set'), 'out');
    await runWithin(analyze(out, '--format', 'json,sarif,junit,md,html'));
    expect(readdirSync(out).sort()).toEqual(['fixes', 'index.html', 'report.json', 'report.junit.xml', 'report.sarif', 'summary.md']);
    await runWithin(analyze(out, '--format', 'json'));
    expect(readdirSync(out).sort()).toEqual(['fixes', 'report.json']);
  });

  it('the same input twice gives byte-identical files carrying one run id, shown in report.json, the page, SARIF, JUnit and Markdown', async () => {
    const dir = scratchDir('same');
    const all = '--format=json,sarif,junit,md,html';
    await runWithin(analyze(join(dir, 'a'), all));
    await runWithin(analyze(join(dir, 'b'), all));
    const id = readReport(join(dir, 'a')).run!.id;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    for (const name of ['report.json', 'index.html', 'report.sarif', 'report.junit.xml', 'summary.md', `fixes/${KIT_MARKER}`]) {
      const text = readFileSync(join(dir, 'a', name), 'utf8');
      expect(text, name).toBe(readFileSync(join(dir, 'b', name), 'utf8'));
      expect(text, name).toContain(id);
    }
    const other = join(dir, 'other.json');
    const org = JSON.parse(readFileSync(DEMO, 'utf8')) as { organization: { name: string } };
    org.organization.name = 'Another';
    writeFileSync(other, JSON.stringify(org));
    await runWithin(['analyze', '--snapshot', other, '--out', join(dir, 'c'), '--fail-on', 'none']);
    expect(readReport(join(dir, 'c')).run!.id).not.toBe(id);
  });
});

describe('a full disk while writing', () => {
  it('is one line naming that nothing was replaced, and the previous outputs are untouched', async () => {
    const out = scratchDir('full');
    writeFileSync(join(out, 'report.json'), 'previous');
    let writes = 0;
    const full = (async (...args: Parameters<typeof writeFile>) => {
      if (++writes === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return writeFile(...args);
    }) as typeof writeFile;
    const outputs = await openOutputSet(out, { write: full });
    await outputs.stageFile(join(out, 'index.html'), 'new page');
    await expect(outputs.stageFile(join(out, 'report.json'), 'new report')).rejects.toThrow(
      'cannot write the outputs (no space left on the device); nothing was replaced: the previous outputs are untouched',
    );
    await outputs.close();
    expect(readdirSync(out)).toEqual(['report.json']);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('previous');
  });

  it('a commit cut after its journal is finished by the next run on that --out', async () => {
    const out = scratchDir('journal');
    writeFileSync(join(out, 'index.html'), 'old');
    writeFileSync(join(out, '.teams-migration-audit-write-check-4194999-0123abcd'), '');
    // Cut as a kill right after the journal would cut it: no rename made, nothing cleaned up.
    const cut = await openOutputSet(out, { faults: { afterJournal: () => Promise.reject(new Error('killed')) } });
    await cut.stageFile(join(out, 'report.json'), 'new');
    await expect(cut.commit([join(out, 'index.html')])).rejects.toThrow('killed');
    await cut.close();
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old');
    await recoverOutputs(out);
    expect(readdirSync(out)).toEqual(['report.json']);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('new');
  });
});

describe('leftovers beside a target outside --out', () => {
  it('are removed when the run that left them is gone, kept while it runs', async () => {
    const dir = scratchDir('leftovers');
    // Above Linux's largest pid_max (2^22): no process has it.
    const dead = { pid: 4_194_999 };
    const kitParent = join(dir, 'elsewhere');
    mkdirSync(join(kitParent, `.tma-staging-${dead.pid}-0123abcd`), { recursive: true });
    mkdirSync(join(kitParent, `kit.tma-old-${dead.pid}-0123abcd`));
    mkdirSync(join(kitParent, `.tma-staging-${process.pid}-0123abcd`));
    writeFileSync(join(kitParent, 'mine.txt'), 'kept');
    const outputs = await openOutputSet(join(dir, 'out'));
    await outputs.stageDir(join(kitParent, 'kit'), [{ path: 'README.md', content: 'kit' }], 'run x\n');
    await outputs.commit();
    await outputs.close();
    expect(readdirSync(kitParent).sort()).toEqual([`.tma-staging-${process.pid}-0123abcd`, 'kit', 'mine.txt']);
  });
});

describe('stderr of a refused run', () => {
  it('is one line', async () => {
    const run = await runWithin(['analyze', '--snapshot', DEMO, '--out', '', '--quiet']);
    expect(stderrLines(run)).toHaveLength(1);
  });
});
