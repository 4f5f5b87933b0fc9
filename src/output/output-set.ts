import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, UsageError } from '../errors.js';

/**
 * A run's outputs as one set (issue 23): every file is written into a staging folder beside its
 * target first, and only when all of them are written whole are they renamed into place. A kill or
 * a full disk while writing leaves the previous outputs untouched; a kill while renaming leaves a
 * journal that the next run on the same `--out` finishes before anything else. A lock file keeps
 * two runs on one `--out` apart. Renames replace a link at the target, never follow it.
 */

/** The names this tool keeps in `--out` beside the reports. */
const LOCK = '.teams-migration-audit.lock';
const JOURNAL = '.teams-migration-audit.commit.json';
const STAGING_PREFIX = '.tma-staging-';

/** A fix kit folder carries this file; only a folder with it is ever deleted or replaced. */
export const KIT_MARKER = '.teams-migration-audit-fix-kit';
/** Kits written before the marker: their README.md starts so (write-fixes.ts). */
const LEGACY_KIT_MARK = '# Fix kit for ';

interface Move {
  from: string;
  to: string;
  /** A folder replaces the previous one whole (the fix kit); a file replaces a file. */
  kind: 'file' | 'dir';
}

interface Journal {
  moves: Move[];
  /** Our files of an earlier run that this run does not write (a format not asked for again). */
  removals: string[];
  staging: string[];
}

export interface StagedFile {
  /** Path inside the folder, `/`-separated. */
  path: string;
  content: string | Uint8Array;
}

export interface OutputSet {
  /** Take the lock and finish or clear what a killed run left (done by the first write anyway). */
  prepare(): Promise<void>;
  /** Stage one file; it reaches `target` only on commit. */
  stageFile(target: string, content: string | Uint8Array): Promise<void>;
  /** Stage a whole folder (the fix kit, marked as ours with `marker`'s text); it replaces `target` on commit. */
  stageDir(target: string, files: readonly StagedFile[], marker: string): Promise<void>;
  /** Rename everything staged into place, and remove `stale` (ours, not written this time). Returns the targets. */
  commit(stale?: readonly string[]): Promise<string[]>;
  /** Release the lock and remove what was staged but not committed. Safe to call twice. */
  close(): Promise<void>;
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Whether a process with this id is running (a lock left by a killed run is not). */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running process holding `<out>`'s lock, if any (a lock left by a killed run has none). */
async function lockHolder(out: string): Promise<number | undefined> {
  const holder = Number.parseInt((await readFile(join(out, LOCK), 'utf8').catch(() => '')).trim(), 10);
  return isRunning(holder) ? holder : undefined;
}

const heldBy = (out: string, holder: number) => new UsageError(`--out ${out}: another run (pid ${holder}) is writing there; wait for it to finish or choose another --out`);

/** At the start of a run: one line at once when another run holds `out`, rather than after the whole analysis. */
export async function refuseWhileLocked(out: string): Promise<void> {
  const holder = await lockHolder(resolve(out));
  if (holder !== undefined && holder !== process.pid) throw heldBy(out, holder);
}

/** Take `<out>/.teams-migration-audit.lock`, or say in one line who holds it. A dead holder's lock is taken over. */
async function takeLock(out: string): Promise<string> {
  const lock = join(out, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return lock;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`--out ${out}: cannot take the lock ${LOCK} (${errorCode(error)})`);
    }
    const holder = await lockHolder(out);
    if (holder !== undefined) throw heldBy(out, holder);
    // Left by a run that was killed: ours to take. unlink, not rm: a link there is removed, not followed.
    await unlink(lock).catch(() => undefined);
  }
  throw new UsageError(`--out ${out}: another run keeps taking the lock ${LOCK}; choose another --out`);
}

/** The kind of what is at `path`, without following a link there. */
async function kindAt(path: string): Promise<'none' | 'link' | 'dir' | 'file'> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return 'none';
  if (info.isSymbolicLink()) return 'link';
  return info.isDirectory() ? 'dir' : 'file';
}

/** Whether the folder at `dir` is a fix kit this tool wrote (its marker, or an earlier kit's README). */
export async function isOurKit(dir: string): Promise<boolean> {
  if ((await kindAt(join(dir, KIT_MARKER))) === 'file') return true;
  if ((await kindAt(join(dir, 'README.md'))) !== 'file') return false;
  return (await readFile(join(dir, 'README.md'), 'utf8').catch(() => '')).startsWith(LEGACY_KIT_MARK);
}

/**
 * Refused before anything is read: a fix kit folder that holds files not written by this tool
 * (a link there is fine: it is replaced, and what it points at is left alone).
 */
export async function checkKitDir(dir: string, what: string): Promise<void> {
  if ((await kindAt(dir)) !== 'dir') return;
  if ((await readdir(dir)).length === 0 || (await isOurKit(dir))) return;
  throw new UsageError(`${what} ${dir}: the folder holds files this tool did not write (no ${KIT_MARKER}); choose an empty or new folder`);
}

/** Put `move` in place; done already when its source is gone (a journal being finished). */
async function applyMove(move: Move, trash: string[]): Promise<void> {
  if ((await kindAt(move.from)) === 'none') return;
  const there = await kindAt(move.to);
  if (move.kind === 'dir' && there === 'dir' && (await readdir(move.to)).length > 0) {
    // An empty folder (made by the checks before the run) is replaced by the rename itself.
    if (!(await isOurKit(move.to))) throw new InputError(`${move.to} holds files this tool did not write; the new fix kit is left in ${move.from}`);
    const old = `${move.to}.tma-old-${process.pid}-${randomBytes(4).toString('hex')}`;
    await rename(move.to, old);
    trash.push(old);
  } else if (there === 'link' || (move.kind === 'dir' && there === 'file')) {
    // A link in the target's place is replaced, never followed.
    await unlink(move.to);
  } else if (move.kind === 'file' && there === 'dir') {
    throw new InputError(`${move.to} is a folder; cannot write the file there`);
  }
  await rename(move.from, move.to);
}

/** Finish what a journal lists, then remove it and the staging it names. */
async function finishJournal(path: string, journal: Journal): Promise<string[]> {
  const trash: string[] = [];
  const done: string[] = [];
  for (const move of journal.moves) {
    await applyMove(move, trash);
    done.push(move.to);
  }
  for (const stale of journal.removals) if ((await kindAt(stale)) !== 'dir') await rm(stale, { force: true });
  await unlink(path).catch(() => undefined);
  for (const dir of [...trash, ...journal.staging]) await rm(dir, { recursive: true, force: true });
  return done;
}

/** A commit left half-done by a killed run is finished; staging left by a run killed before its commit is removed. */
async function recover(out: string): Promise<void> {
  const journalPath = join(out, JOURNAL);
  const text = await readFile(journalPath, 'utf8').catch(() => undefined);
  if (text !== undefined) {
    let journal: Journal | undefined;
    try {
      journal = JSON.parse(text) as Journal;
    } catch {
      // Cut while written (it is renamed in whole, so only by hand): nothing was moved yet.
    }
    if (journal) await finishJournal(journalPath, journal);
    else await unlink(journalPath);
  }
  for (const entry of await readdir(out)) {
    const leftover = entry.startsWith(STAGING_PREFIX) || entry.includes('.tma-old-') || TEMPORARY.test(entry);
    if (leftover) await rm(join(out, entry), { recursive: true, force: true });
  }
  // The write check (output-path.ts) runs before the lock is taken: only a dead run's is ours to remove.
  await clearDeadLeftovers(out);
}

/** writeFileAtomic's temporary files, as a killed run leaves them. */
const TEMPORARY = /^\..*\.tma-\d+-[0-9a-f]{8}$/;

/** What a run leaves beside a target outside --out, with the process id of the run that made it. */
const LEFTOVER_OF = /^\.tma-staging-(\d+)-|\.tma-(?:old-)?(\d+)-[0-9a-f]{8}$|^\.teams-migration-audit-write-check-(\d+)-/;

/**
 * Beside a target outside --out (the --fix-out folder, the baseline) no lock is held, so only what
 * a run that is no longer running left there is removed: a staging folder, a temporary file, an old kit.
 */
async function clearDeadLeftovers(dir: string): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const match = LEFTOVER_OF.exec(entry);
    if (match && !isRunning(Number(match[1] ?? match[2] ?? match[3]))) await rm(join(dir, entry), { recursive: true, force: true });
  }
}

/** Write `content` to `path` through a temporary file in the same folder and a rename: never a cut file. */
export async function writeFileAtomic(path: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tma-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temporary, content, mode === undefined ? {} : { mode });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Words for a failed write: a full disk is named as such. */
export function writeFailure(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EDQUOT') return 'the disk quota is exceeded';
  return code;
}

/**
 * Open the output set of a run writing into `out`: take the lock, finish or clear what a killed
 * run left, and stage into folders beside each target from then on. `write` is the file
 * writer (tests pass one that fails as a full disk does).
 */
export async function openOutputSet(out: string, write: typeof writeFile = writeFile): Promise<OutputSet> {
  const root = resolve(out);
  const staging = new Map<string, string>();
  const moves: Move[] = [];
  let lock: string | undefined;
  let closed = false;
  // Taken at the first write, not at the start: a run that stops on a usage error never holds --out
  // (refuseWhileLocked said at the start whether another run holds it).
  const ready = async (): Promise<void> => {
    if (lock !== undefined) return;
    await mkdir(root, { recursive: true });
    lock = await takeLock(root);
    try {
      await recover(root);
    } catch (error) {
      throw new InputError(`--out ${out}: cannot finish the outputs a killed run left there (${writeFailure(error)})`, { cause: error });
    }
  };

  const stagingFor = async (target: string): Promise<string> => {
    const parent = dirname(resolve(target));
    let dir = staging.get(parent);
    if (dir === undefined) {
      await mkdir(parent, { recursive: true });
      if (parent !== root) await clearDeadLeftovers(parent);
      dir = join(parent, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
      await mkdir(dir);
      staging.set(parent, dir);
    }
    return join(dir, basename(target));
  };

  const failed = (error: unknown): never => {
    throw new InputError(`cannot write the outputs (${writeFailure(error)}); nothing was replaced: the previous outputs are untouched`, { cause: error });
  };

  return {
    prepare: ready,
    async stageFile(target, content) {
      await ready();
      try {
        const staged = await stagingFor(target);
        await write(staged, content);
        moves.push({ from: staged, to: resolve(target), kind: 'file' });
      } catch (error) {
        failed(error);
      }
    },
    async stageDir(target, files, marker) {
      await ready();
      try {
        const staged = await stagingFor(target);
        await mkdir(staged);
        for (const file of [...files, { path: KIT_MARKER, content: marker }]) {
          const path = join(staged, ...file.path.split('/'));
          await mkdir(dirname(path), { recursive: true });
          await write(path, file.content);
        }
        moves.push({ from: staged, to: resolve(target), kind: 'dir' });
      } catch (error) {
        failed(error);
      }
    },
    async commit(stale = []) {
      await ready();
      const journal: Journal = { moves, removals: stale.map((path) => resolve(path)), staging: [...staging.values()] };
      try {
        // The journal is the commit point: written whole (temporary file + rename) before the first move.
        await writeFileAtomic(join(root, JOURNAL), JSON.stringify(journal));
      } catch (error) {
        failed(error);
      }
      try {
        return await finishJournal(join(root, JOURNAL), journal);
      } catch (error) {
        throw new InputError(`cannot put the outputs in place (${writeFailure(error)}); the next run on --out ${out} finishes it`, { cause: error });
      } finally {
        staging.clear();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const dir of staging.values()) await rm(dir, { recursive: true, force: true });
      if (lock !== undefined) await unlink(lock).catch(() => undefined);
    },
  };
}

/** What the next run on `out` does before writing, on its own: finish a cut commit, clear what a killed run left. */
export async function recoverOutputs(out: string): Promise<void> {
  const outputs = await openOutputSet(out);
  try {
    await outputs.prepare();
  } finally {
    await outputs.close();
  }
}
