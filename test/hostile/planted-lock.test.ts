import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openOutputSet, refuseWhileLocked } from '../../src/output/output-set.js';
import { recoverOutputs } from '../support/recover-outputs.js';
import { runWithin, scratchDir } from './helpers.js';

/*
 * Issue 32 item 2: a lock in --out that is not a lock (a named pipe, a folder, a link) is refused
 * in one line naming it and how to clear it, never read, never a hang; a lock left by a killed
 * run is recognised by what holds it (the process's start time, the boot, the PID namespace),
 * not only by a live process id: PID 1 of a container and a reused PID do not hold it.
 */
const LOCK = '.teams-migration-audit.lock';
const DEMO = 'fixtures/demo-org.json';
const analyze = (out: string) => ['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'none', '--format', 'json'];

const startOf = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};
const self = {
  boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
  pidns: readlinkSync('/proc/self/ns/pid'),
  host: hostname(),
};
/** A lock as this version writes it, with the fields a test wants to change. */
const lockOf = (fields: Record<string, unknown>) => JSON.stringify({ format: 'teams-migration-audit-lock/1', token: 'feedfacecafebeef', ...self, ...fields }) + '\n';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
const sleeper = () => {
  const child = spawn('sleep', ['60']);
  children.push(child);
  return child.pid!;
};

function outWith(make: (lock: string) => void): string {
  const out = join(scratchDir('lock'), 'out');
  mkdirSync(out, { recursive: true });
  make(join(out, LOCK));
  return out;
}

describe('a lock that is not a lock', () => {
  const kinds: [string, string, (lock: string) => void][] = [
    ['a named pipe', 'a named pipe', (lock) => execFileSync('mkfifo', [lock])],
    ['a folder', 'a folder', (lock) => mkdirSync(lock)],
    ['a link to a pipe', 'a link', (lock) => {
      execFileSync('mkfifo', [`${lock}.target`]);
      symlinkSync(`${lock}.target`, lock);
    }],
  ];
  it.each(kinds)('%s: the run stops at once in one line naming the file and how to clear it', async (_, words, make) => {
    const out = outWith(make);
    const run = await runWithin(analyze(out));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`teams-migration-audit: --out ${out}: ${join(out, LOCK)} is ${words}, not a lock this tool wrote; remove it to continue\n`);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    // And at the first write (a run that got past the start): the same line, no hang.
    await expect(recoverOutputs(out)).rejects.toThrow(`${join(out, LOCK)} is ${words}, not a lock this tool wrote; remove it to continue`);
  });
});

describe('a lock left by a run that is gone is taken over', () => {
  const cases: [string, () => string][] = [
    ['PID 1 of another container (another start time)', () => lockOf({ pid: 1, started: '7' })],
    ['a PID reused by an unrelated process (its start time differs)', () => lockOf({ pid: sleeper(), started: '1' })],
    ['a lock of an earlier boot', () => lockOf({ pid: sleeper(), started: startOf(children.at(-1)!.pid!), boot: '00000000-0000-0000-0000-000000000000' })],
    ['this very process id, from another process before it (a container restarted)', () => lockOf({ pid: process.pid, started: startOf(process.pid), token: '0000000000000000' })],
    ['a lock of another PID namespace not refreshed for ten minutes', () => lockOf({ pid: 1, started: '7', pidns: 'pid:[1]' })],
    ['an empty lock (killed while writing it)', () => ''],
    ['an earlier version\'s lock naming PID 1, not refreshed for ten minutes (was refused for ever, with no hint)', () => '1\n'],
  ];
  it.each(cases)('%s', async (name, lock) => {
    const out = outWith((path) => writeFileSync(path, lock()));
    if (name.includes('ten minutes')) utimesSync(join(out, LOCK), new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    await refuseWhileLocked(out);
    const outputs = await openOutputSet(out);
    await outputs.stageFile(join(out, 'report.json'), 'mine');
    await outputs.commit();
    await outputs.close();
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('mine');
    expect(existsSync(join(out, LOCK))).toBe(false);
  });
});

describe('a lock held by a live run is kept', () => {
  it('the holder seen running with its start time: refused in one line', async () => {
    const pid = sleeper();
    const out = outWith((path) => writeFileSync(path, lockOf({ pid, started: startOf(pid) })));
    await expect(refuseWhileLocked(out)).rejects.toThrow(`--out ${out}: another run (pid ${pid}) is writing there; wait for it to finish or choose another --out`);
    await expect(recoverOutputs(out)).rejects.toThrow(`another run (pid ${pid}) is writing there`);
    expect(JSON.parse(readFileSync(join(out, LOCK), 'utf8'))).toMatchObject({ pid });
  });

  it('a holder this run cannot see (another PID namespace), refreshed a moment ago: refused with how to clear it', async () => {
    const out = outWith((path) => writeFileSync(path, lockOf({ pid: 1, started: '7', pidns: 'pid:[1]', host: 'builder-7' })));
    await expect(refuseWhileLocked(out)).rejects.toThrow(
      new RegExp(`^--out ${out}: another run \\(pid 1 on builder-7, in another container or PID namespace\\) may be writing there: its lock was refreshed \\d+ s ago; wait for it to finish, or if no run is going on there, remove ${join(out, LOCK)}$`),
    );
  });

  it('an earlier version\'s lock naming a live process, written a moment ago: refused with how to clear it', async () => {
    const pid = sleeper();
    const out = outWith((path) => writeFileSync(path, `${pid}\n`));
    await expect(refuseWhileLocked(out)).rejects.toThrow(
      new RegExp(`^--out ${out}: another run \\(pid ${pid}\\) may be writing there: its lock was refreshed \\d+ s ago; wait for it to finish, or if no run is going on there, remove ${join(out, LOCK)}$`),
    );
  });

  it('the lock this tool writes names its process, start time, boot and PID namespace, and is refreshed while held', async () => {
    const out = join(scratchDir('lock'), 'out');
    let refresh: (() => void) | undefined;
    let stopped = false;
    const outputs = await openOutputSet(out, {
      lockRefresh: (run) => {
        refresh = run;
        return () => (stopped = true);
      },
    });
    await outputs.prepare();
    const lock = JSON.parse(readFileSync(join(out, LOCK), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ format: 'teams-migration-audit-lock/1', pid: process.pid, started: startOf(process.pid), ...self });
    expect(lock.token).toMatch(/^[0-9a-f]{16}$/);
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(join(out, LOCK), tenMinutesAgo, tenMinutesAgo);
    refresh!();
    await expect.poll(() => statSync(join(out, LOCK)).mtimeMs).toBeGreaterThan(tenMinutesAgo.getTime() + 300_000);
    await outputs.close();
    expect(stopped).toBe(true);
    expect(existsSync(join(out, LOCK))).toBe(false);
  });
});
