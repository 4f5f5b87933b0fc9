import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readFile, readlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { errorCode, UsageError } from '../errors.js';
import { plantedKind } from './out-entries.js';

/**
 * The lock that keeps two runs on one `--out` apart (issue 23), and recognises a lock left by a
 * killed run by what holds it, not only by a live process id (issue 32): a killed container
 * leaves PID 1, which is alive in the next container, and a PID is soon reused by an unrelated
 * process. The lock names its process, that process's start time (from /proc/<pid>/stat), the
 * boot and the PID namespace it ran in, and a random token; the holder refreshes the lock's
 * modification time while it holds it. A holder this run can see is judged by its start time; one
 * it cannot see (another container, another host, a system without /proc, an earlier version's
 * lock of a bare PID) holds the lock while it keeps refreshing it.
 */

export const LOCK = '.teams-migration-audit.lock';

/**
 * What a lock keeps: `--out` (its lock inside it), or a fix kit folder outside `--out`'s own
 * names, which is replaced whole and so holds its lock beside it (`.<name>.teams-migration-audit.lock`).
 */
interface LockSite {
  /** The option that named the folder, for the line: `--out`, `--fix-out`. */
  flag: string;
  /** The folder as the user gave it. */
  target: string;
  /** The lock's path on disk, and as the line shows it. */
  path: string;
  shown: string;
}

/** The lock of `--out`, inside it. */
export const outLock = (out: string, root: string): LockSite => ({ flag: '--out', target: out, path: join(root, LOCK), shown: join(out, LOCK) });

/** The lock of a folder replaced whole (a fix kit outside `--out`'s own names), beside it. */
export function folderLock(flag: string, dir: string): LockSite {
  const name = `.${basename(resolve(dir))}${LOCK}`;
  return { flag, target: dir, path: join(dirname(resolve(dir)), name), shown: join(dirname(dir), name) };
}
const FORMAT = 'teams-migration-audit-lock/1';
/** How often a holder refreshes its lock, and after how long without a refresh an unseen holder is gone. */
const REFRESH_MS = 20_000;
const STALE_AFTER_MS = 120_000;

interface LockRecord extends Partial<Identity> {
  pid: number;
  token?: string;
}

/** This process as a lock names it; the /proc parts are missing where there is no /proc. */
interface Identity {
  /** The start time in clock ticks since boot (/proc/<pid>/stat, field 22). */
  started?: string;
  boot?: string;
  pidns?: string;
  host: string;
}

/** The start time of process `pid` in clock ticks since boot, or undefined when there is no such process (or no /proc). */
async function startTicks(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

let selfIdentity: Promise<Identity> | undefined;
const identity = (): Promise<Identity> =>
  (selfIdentity ??= (async () => ({
    started: await startTicks(process.pid),
    boot: (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => undefined))?.trim(),
    pidns: await readlink('/proc/self/ns/pid').catch(() => undefined),
    host: hostname(),
  }))());

/** Tokens of the locks this process holds now: a lock naming this process id is held only if its token is one of them. */
const heldHere = new Set<string>();

/** Whether a process with this id is running here (for leftovers named by a process id, and locks of earlier versions). */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock's text and when it was last refreshed, read without following a link or waiting on a pipe. */
async function readLockFile(path: string): Promise<{ text: string; modifiedMs: number } | 'gone' | 'other'> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'ELOOP') return 'other' as const;
    throw error;
  });
  if (handle === undefined) return 'gone';
  if (handle === 'other') return 'other';
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > 4096) return 'other';
    return { text: await handle.readFile('utf8'), modifiedMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

/** The record in a lock's text: this version's JSON, an earlier version's bare process id, or nothing (cut while written). */
function parseLock(text: string): LockRecord | undefined {
  if (/^\s*\d+\s*$/.test(text)) return { pid: Number(text.trim()) };
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (value?.format !== FORMAT || typeof value.pid !== 'number' || !Number.isSafeInteger(value.pid)) return undefined;
    const text_ = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : undefined);
    return { pid: value.pid, started: text_('started'), boot: text_('boot'), pidns: text_('pidns'), host: text_('host'), token: text_('token') };
  } catch {
    return undefined;
  }
}

/** Who holds a lock: seen running (certain), or not seen but refreshed lately. */
type Holder = { record: LockRecord; seen: true } | { record: LockRecord; seen: false; refreshedAgoMs: number };

/** The holder of the lock at `path`, or undefined when nothing holds it (no lock, or one left by a run that is gone). */
async function holderOf(site: LockSite, now: number): Promise<Holder | undefined> {
  const { flag, target, path, shown } = site;
  const kind = await plantedKind(path);
  if (kind === 'none') return undefined;
  if (kind !== 'file') throw new UsageError(`${flag} ${target}: ${shown} is ${kind}, not a lock this tool wrote; remove it to continue`);
  const read = await readLockFile(path).catch((error: unknown) => {
    throw new UsageError(`${flag} ${target}: ${shown} cannot be read (${errorCode(error)}); remove it to continue`);
  });
  if (read === 'gone') return undefined; // released meanwhile
  if (read === 'other') throw new UsageError(`${flag} ${target}: ${shown} is not a lock this tool wrote; remove it to continue`);
  const { text, modifiedMs } = read;
  const record = parseLock(text);
  if (record === undefined || record.pid <= 0) return undefined;
  const self = await identity();
  // The same process cannot be another run: a lock naming it is held only by one of its own open sets.
  if (record.pid === process.pid) return record.token !== undefined && heldHere.has(record.token) ? { record, seen: true } : undefined;
  if (record.boot !== undefined && self.boot !== undefined && record.boot !== self.boot) return undefined; // every process of an earlier boot is gone
  const visible = record.started !== undefined && self.boot !== undefined && record.boot === self.boot && record.pidns !== undefined && record.pidns === self.pidns;
  if (visible) return (await startTicks(record.pid)) === record.started ? { record, seen: true } : undefined;
  // Not seen from here: an earlier version's bare PID, another PID namespace or host, or no /proc.
  if (record.started === undefined && !isRunning(record.pid)) return undefined;
  const refreshedAgoMs = Math.max(0, now - modifiedMs);
  return refreshedAgoMs > STALE_AFTER_MS ? undefined : { record, seen: false, refreshedAgoMs };
}

/** The line refusing the site's folder while `holder` holds its lock. */
function heldBy({ flag, target, shown }: LockSite, holder: Holder): UsageError {
  const { pid, host, pidns } = holder.record;
  if (holder.seen) return new UsageError(`${flag} ${target}: another run (pid ${pid}) is writing there; wait for it to finish or choose another ${flag}`);
  const where = host !== undefined && pidns !== undefined ? ` on ${host}, in another container or PID namespace` : '';
  return new UsageError(
    `${flag} ${target}: another run (pid ${pid}${where}) may be writing there: its lock was refreshed ${Math.round(holder.refreshedAgoMs / 1000)} s ago; ` +
      `wait for it to finish, or if no run is going on there, remove ${shown}`,
  );
}

/** At the start of a run: one line at once when another run holds the site, rather than after the whole analysis. */
export async function refuseWhileLocked(site: LockSite): Promise<void> {
  const holder = await holderOf(site, Date.now());
  if (holder !== undefined) throw heldBy(site, holder);
}

export interface HeldLock {
  /** Release it: removed only while it is still this run's (never another run's that took it over). */
  release(): Promise<void>;
}

/** Runs `refresh` every so often until stopped; tests pass one that lets them call it. */
export type RefreshSchedule = (refresh: () => void) => () => void;
const everyFewSeconds: RefreshSchedule = (refresh) => {
  const timer = setInterval(refresh, REFRESH_MS);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Take `<root>/.teams-migration-audit.lock`, or say in one line who holds it. A lock left by a
 * run that is gone is taken over. The lock is written whole under another name and linked into
 * place, so it is never seen empty; a file system without links gets it created exclusively.
 */
export async function takeLock(site: LockSite, schedule: RefreshSchedule = everyFewSeconds): Promise<HeldLock> {
  const { path } = site;
  const self = await identity();
  const token = randomBytes(8).toString('hex');
  const record = { format: FORMAT, pid: process.pid, started: self.started, boot: self.boot, pidns: self.pidns, host: self.host, token };
  const text = `${JSON.stringify(record)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createLock(site, text)) {
      heldHere.add(token);
      const stop = schedule(() => void utimes(path, new Date(), new Date()).catch(() => undefined));
      return {
        async release() {
          stop();
          heldHere.delete(token);
          const there = await readLockFile(path).catch(() => 'gone' as const);
          if (typeof there === 'object' && parseLock(there.text)?.token === token) await unlink(path).catch(() => undefined);
        },
      };
    }
    const holder = await holderOf(site, Date.now());
    if (holder !== undefined) throw heldBy(site, holder);
    // Left by a run that is gone: ours to take. unlink, not rm: a link there is removed, not followed.
    await unlink(path).catch(() => undefined);
  }
  throw new UsageError(`${site.flag} ${site.target}: another run keeps taking the lock ${site.shown}; choose another ${site.flag}`);
}

/** Create the lock with its text in one step; false when something is there already. */
async function createLock({ path, flag, target, shown }: LockSite, text: string): Promise<boolean> {
  const temporary = `${path}.tma-${process.pid}-${randomBytes(4).toString('hex')}`;
  const cannot = (error: unknown) => new UsageError(`${flag} ${target}: cannot take the lock ${shown} (${errorCode(error)})`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
  } catch (error) {
    throw cannot(error);
  }
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw cannot(error);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  // No hard links here (some network and FUSE file systems): an exclusive create, then the text.
  try {
    await writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannot(error);
  }
}
