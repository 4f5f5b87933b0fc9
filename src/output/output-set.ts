import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errorCode, InputError, UsageError } from '../errors.js';
import { JOURNAL, JournalRefused, newJournal, readJournal, STAGING_PREFIX, stagingName, targetProblem, verifyJournal, type CommitJournal, type JournalMove } from './commit-journal.js';
import { isOurKit, kindAt, KIT_MARKER } from './out-entries.js';
import { folderLock, isRunning, outLock, refuseWhileLocked as lockedBy, takeLock, type HeldLock, type RefreshSchedule } from './output-lock.js';
import { isReportFile, KIT_DIR, OWN_OUTPUTS } from './own-outputs.js';
import { fileDigest, folderDigest, type StagedContent, type StagedFile, type StagedKind } from './staged-digest.js';

/**
 * A run's outputs as one set (issue 23): every file is written into a staging folder beside its
 * target first, and only when all of them are written whole are they renamed into place. A kill or
 * a full disk while writing leaves the previous outputs untouched; a kill while renaming the
 * tool's own outputs in `--out` leaves a journal that the next run on the same `--out` finishes
 * before anything else, once it has checked that the journal names nothing but what its run
 * staged there (src/output/commit-journal.ts; issue 32). A fix kit or baseline elsewhere is put
 * in place just before them, one rename each. A lock file keeps two runs on one `--out` apart.
 * Renames replace a link at the target, never follow it.
 */

interface Move {
  from: string;
  to: string;
  /** A folder replaces the previous one whole (the fix kit); a file replaces a file. */
  kind: StagedKind;
}

/** A move this run staged, with the digest of what it wrote. */
interface StagedMove extends Move {
  sha256: string;
  /** One of the tool's own outputs directly in --out: made through the journal. */
  journaled: boolean;
}

/**
 * Fault points for tests (CONTRIBUTING.md, "Fault points of the output set"). Each runs at its
 * moment of a commit; a throw stops the commit there as a kill would (the test then leaves the
 * set unclosed, or closes it, which only releases the lock).
 */
interface OutputSetFaults {
  /** Once the lock is taken, before what a killed run left is finished or cleared. */
  afterLock?(): void | Promise<void>;
  /** After each file or folder is staged whole (`target` is where it goes on commit). */
  afterStage?(target: string): void | Promise<void>;
  /** After the journal is written in --out, before the first rename. */
  afterJournal?(): void | Promise<void>;
  /** After each rename into place (`target` is the absolute path put in place). */
  afterMove?(target: string): void | Promise<void>;
  /** After the report files not written again are removed, before the journal is. */
  afterRemovals?(): void | Promise<void>;
  /** When the commit is done (journal and staging gone), before the set is closed. */
  afterCommit?(): void | Promise<void>;
}

interface OutputSetOptions {
  /** The file writer (tests pass one that fails as a full disk does). */
  write?: typeof writeFile;
  faults?: OutputSetFaults;
  /** How the held lock is refreshed (tests pass one they drive). */
  lockRefresh?: RefreshSchedule;
}

export interface OutputSet {
  /** Take the lock and finish or clear what a killed run left (done by the first write anyway). */
  prepare(): Promise<void>;
  /** Stage one file; it reaches `target` only on commit. */
  stageFile(target: string, content: StagedContent): Promise<void>;
  /** Stage a whole folder (the fix kit, marked as ours with `marker`'s text); it replaces `target` on commit. */
  stageDir(target: string, files: readonly StagedFile[], marker: string): Promise<void>;
  /** Rename everything staged into place, and remove `stale` (ours, not written this time). Returns the targets. */
  commit(stale?: readonly string[]): Promise<string[]>;
  /** Release the lock and remove what was staged but not committed. Safe to call twice. */
  close(): Promise<void>;
}

/** At the start of a run: one line at once when another run holds `out`, rather than after the whole analysis. */
export const refuseWhileLocked = (out: string): Promise<void> => lockedBy(outLock(out, resolve(out)));

/**
 * The same for a fix kit folder outside --out (`--fix-out`): its own lock beside it, and, for a
 * folder named as a run's default kit (`<dir>/fixes`), the lock of a run whose --out is `<dir>`.
 */
export async function refuseWhileKitLocked(flag: string, dir: string): Promise<void> {
  const parent = dirname(resolve(dir));
  const asOut = basename(resolve(dir)) === KIT_DIR ? [{ ...outLock(dirname(dir), parent), flag, target: dir }] : [];
  for (const site of [folderLock(flag, dir), ...asOut]) await lockedBy(site);
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

/** Put `move` in place; done already when its source is gone. Checked with targetProblem before. */
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

/**
 * Make the moves of a journal in `root` that are still to make, remove the report files it names
 * (never a folder; a link is removed, not followed), then the journal, its staging folder and
 * the kits moved aside. Everything here was checked by verifyJournal or is this run's own.
 */
async function finishJournal(root: string, journal: CommitJournal, pending: readonly JournalMove[], faults: OutputSetFaults): Promise<void> {
  const staging = join(root, stagingName(journal.pid, journal.run));
  const trash: string[] = [];
  for (const move of pending) {
    await applyMove({ from: join(staging, move.name), to: join(root, move.name), kind: move.kind }, trash);
    await faults.afterMove?.(join(root, move.name));
  }
  for (const name of journal.removals) if ((await kindAt(join(root, name))) !== 'dir') await rm(join(root, name), { force: true });
  await faults.afterRemovals?.();
  await unlink(join(root, JOURNAL)).catch(() => undefined);
  for (const dir of [...trash, staging]) await rm(dir, { recursive: true, force: true });
}

/**
 * A commit left half-done by a killed run is finished, once its journal is checked to name only
 * what that run staged (a planted one is refused in one line, touching nothing); staging left by
 * a run killed before its commit is removed. `shown` is --out as the user gave it.
 */
async function recover(root: string, shown: string): Promise<void> {
  const journal = await readJournal(root, join(shown, JOURNAL));
  if (journal) {
    const pending = await verifyJournal(root, journal, join(shown, JOURNAL));
    await finishJournal(root, journal, pending, {});
  }
  for (const entry of await readdir(root)) {
    const leftover = entry.startsWith(STAGING_PREFIX) || entry.includes('.tma-old-') || TEMPORARY.test(entry);
    // rm removes a link itself, never what it points at.
    if (leftover) await rm(join(root, entry), { recursive: true, force: true });
  }
  // The write check (output-path.ts) runs before the lock is taken: only a dead run's is ours to remove.
  await clearDeadLeftovers(root);
}

/**
 * At the start of a run, before anything is read: a journal in `out` that this tool would not
 * finish is refused in one line now, rather than after a whole live read. Touches nothing.
 */
export async function refusePlantedJournal(out: string): Promise<void> {
  const root = resolve(out);
  const journal = await readJournal(root, join(out, JOURNAL));
  if (journal) await verifyJournal(root, journal, join(out, JOURNAL));
}

/**
 * Ours: files a staged folder has in flight at once. A 10x org's kit holds about 2,500 files;
 * written one after another each waits for its own round trip to the file system (about 0.4 ms
 * here), while a few at a time keep libuv's four threads busy without holding many open.
 */
const FILES_IN_FLIGHT = 8;

/** `files` under `root`: each folder made once, parents first, then the files a few at a time; the first failure is thrown once all have stopped. */
async function writeTree(root: string, files: readonly StagedFile[], write: typeof writeFile): Promise<void> {
  const paths = files.map((file) => join(root, ...file.path.split('/')));
  const folders = [...new Set(paths.map((path) => dirname(path)).filter((dir) => dir !== root))].sort((a, b) => a.length - b.length);
  for (const dir of folders) await mkdir(dir, { recursive: true });
  let next = 0;
  let failure: { error: unknown } | undefined;
  const writer = async (): Promise<void> => {
    while (failure === undefined && next < files.length) {
      const i = next++;
      try {
        await write(paths[i]!, files[i]!.content);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, files.length) }, writer));
  if (failure) throw failure.error;
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

/** The steps of `writeFileAtomic`, in order: a cut at any of them leaves the old file or the new one. */
export type AtomicWriteStep = 'opened' | 'half-written' | 'written' | 'renamed';

/**
 * Fault points for tests: `at(step, target)` runs at each step of every `writeFileAtomic` (the
 * journal, `snapshot --out`, a baseline written alone, `--fix`); a throw there cuts the write as a
 * kill or a full disk would.
 */
export const atomicWriteFaults: { at?: (step: AtomicWriteStep, target: string) => void | Promise<void> } = {};

/** Bytes a file name may have on the usual file systems (ext4, APFS, NTFS in UTF-16 units). */
export const MAX_NAME_BYTES = 255;
/** The longest part of a target's name kept in its temporary file's name: `.NAME.tma-PID-HEX8` stays under MAX_NAME_BYTES. */
const TEMPORARY_NAME_BYTES = 200;

/** `name` cut to at most `bytes` UTF-8 bytes, on a character boundary. */
function cutToBytes(name: string, bytes: number): string {
  let kept = '';
  let used = 0;
  for (const char of name) {
    const size = Buffer.byteLength(char);
    if (used + size > bytes) break;
    kept += char;
    used += size;
  }
  return kept;
}

/**
 * The temporary file beside `path`: its name plus the run's pid and a random part. A long name
 * (a 250-byte file name is legal) is cut and given a short hash of the whole, so the temporary
 * name stays under the 255-byte limit and still tells which file it was for.
 */
export function temporaryPath(path: string): string {
  const name = basename(path);
  const kept = Buffer.byteLength(name) <= TEMPORARY_NAME_BYTES ? name : `${cutToBytes(name, TEMPORARY_NAME_BYTES - 9)}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  return join(dirname(path), `.${kept}.tma-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * Write `content` to `path` through a temporary file in the same folder and a rename: never a cut
 * file, and never a write into the file itself (a reader or a hard link keeps the old content whole).
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const temporary = await writeBeside(path, content, mode);
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await atomicWriteFaults.at?.('renamed', path);
}

/**
 * The first half of `writeFileAtomic`: `content` written whole to a new temporary file beside
 * `path`, with `mode` (exactly: the umask does not take from it), whose path is returned for the
 * caller to rename over `path`. On any failure nothing of it is left.
 */
export async function writeBeside(path: string, content: string | Uint8Array, mode?: number): Promise<string> {
  const temporary = temporaryPath(path);
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const fault = atomicWriteFaults.at;
  try {
    const handle = await open(temporary, 'wx', mode ?? 0o666);
    try {
      await fault?.('opened', path);
      const half = Math.floor(bytes.byteLength / 2);
      await handle.writeFile(bytes.subarray(0, half));
      await fault?.('half-written', path);
      await handle.writeFile(bytes.subarray(half));
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await fault?.('written', path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return temporary;
}

/** Words for a failed write: a full disk is named as such. */
export function writeFailure(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EDQUOT') return 'the disk quota is exceeded';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'EACCES' || code === 'EPERM') return `not permitted (${code}: a read-only folder or an immutable file)`;
  if (code === 'ENAMETOOLONG') return 'a file name is too long';
  return code;
}

/**
 * Open the output set of a run writing into `out`: take the lock, finish or clear what a killed
 * run left, and stage into folders beside each target from then on.
 */
export async function openOutputSet(out: string, options: OutputSetOptions = {}): Promise<OutputSet> {
  const { write = writeFile, faults = {}, lockRefresh } = options;
  const root = resolve(out);
  /** This run's token: it names the staging folder of --out and binds the journal to it. */
  const run = randomBytes(8).toString('hex');
  /** Staging folders by the folder they stage for; --out's own outputs have their own (the journal's). */
  const staging = new Map<string, string>();
  const moves: StagedMove[] = [];
  let lock: HeldLock | undefined;
  /** Locks of kit folders outside --out's own names, taken when each is staged. */
  const kitLocks: HeldLock[] = [];
  let closed = false;
  // Taken at the first write, not at the start: a run that stops on a usage error never holds --out
  // (refuseWhileLocked said at the start whether another run holds it).
  const ready = async (): Promise<void> => {
    if (lock !== undefined) return;
    await mkdir(root, { recursive: true });
    lock = await takeLock(outLock(out, root), lockRefresh);
    await faults.afterLock?.();
    try {
      await recover(root, out);
    } catch (error) {
      if (error instanceof JournalRefused) throw error;
      throw new InputError(`--out ${out}: cannot finish the outputs a killed run left there (${writeFailure(error)})`, { cause: error });
    }
  };

  /** Whether `target` is one of the tool's own outputs directly in --out, of this kind: those go through the journal. */
  const journaled = (target: string, kind: StagedKind): boolean => dirname(resolve(target)) === root && OWN_OUTPUTS.get(basename(target)) === kind;

  const stagingFor = async (target: string, inJournal: boolean): Promise<string> => {
    const parent = dirname(resolve(target));
    const key = inJournal ? JOURNAL : parent;
    let dir = staging.get(key);
    if (dir === undefined) {
      await mkdir(parent, { recursive: true });
      if (parent !== root) await clearDeadLeftovers(parent);
      dir = inJournal ? join(root, stagingName(process.pid, run)) : join(parent, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
      await mkdir(dir);
      staging.set(key, dir);
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
        const inJournal = journaled(target, 'file');
        const staged = await stagingFor(target, inJournal);
        await write(staged, content);
        moves.push({ from: staged, to: resolve(target), kind: 'file', sha256: fileDigest(content), journaled: inJournal });
      } catch (error) {
        failed(error);
      }
      await faults.afterStage?.(resolve(target));
    },
    async stageDir(target, files, marker) {
      await ready();
      const inJournal = journaled(target, 'dir');
      // A kit elsewhere is locked like --out: two runs never replace one folder at once.
      if (!inJournal) kitLocks.push(await takeLock(folderLock('--fix-out', target), lockRefresh));
      try {
        const staged = await stagingFor(target, inJournal);
        await mkdir(staged);
        const all = [...files, { path: KIT_MARKER, content: marker }];
        await writeTree(staged, all, write);
        moves.push({ from: staged, to: resolve(target), kind: 'dir', sha256: folderDigest(all), journaled: inJournal });
      } catch (error) {
        failed(error);
      }
      await faults.afterStage?.(resolve(target));
    },
    async commit(stale = []) {
      await ready();
      const removals = stale.map((path) => {
        const name = basename(path);
        if (dirname(resolve(path)) !== root || !isReportFile(name)) throw new Error(`${path} is not a report file in --out ${out}`);
        return name;
      });
      const inJournal = moves.filter((move) => move.journaled);
      const elsewhere = moves.filter((move) => !move.journaled);
      // What would stop a commit halfway stops it before the first rename.
      for (const move of moves) {
        const problem = await targetProblem(move.to, move.kind, move.to);
        if (problem !== undefined) throw new InputError(`${problem}; nothing was replaced: the previous outputs are untouched`);
      }
      const journal = newJournal(process.pid, run, inJournal.map((move) => ({ name: basename(move.to), kind: move.kind, sha256: move.sha256 })), removals);
      const journalPath = join(root, JOURNAL);
      const needsJournal = journal.moves.length > 0 || journal.removals.length > 0;
      try {
        // The journal is the commit point: written whole (temporary file + rename) before the first move.
        if (needsJournal) await writeFileAtomic(journalPath, JSON.stringify(journal));
      } catch (error) {
        // Whatever step failed, no journal stays to name a staging folder that closing the set removes.
        if (needsJournal) await unlink(journalPath).catch(() => undefined);
        failed(error);
      }
      // From here the journal owns --out's staging folder: closing the set no longer removes it.
      const journalStaging = staging.get(JOURNAL);
      staging.delete(JOURNAL);
      await faults.afterJournal?.();
      const done: string[] = [];
      // A kit or a baseline outside --out's own names is no journal's to name: put in place first, so a
      // failure there leaves the reports in --out as they were.
      try {
        const trash: string[] = [];
        for (const move of elsewhere) {
          await applyMove(move, trash);
          done.push(move.to);
          await faults.afterMove?.(move.to);
        }
        for (const dir of [...trash, ...staging.values()]) await rm(dir, { recursive: true, force: true });
        staging.clear();
      } catch (error) {
        if (needsJournal) await unlink(journalPath).catch(() => undefined);
        if (journalStaging !== undefined) await rm(journalStaging, { recursive: true, force: true });
        throw new InputError(`cannot put the outputs in place (${writeFailure(error)}); the reports in --out ${out} are untouched`, { cause: error });
      }
      try {
        if (needsJournal) await finishJournal(root, journal, journal.moves, faults);
      } catch (error) {
        throw new InputError(`cannot put the outputs in place (${writeFailure(error)}); the next run on --out ${out} finishes it`, { cause: error });
      }
      await faults.afterCommit?.();
      return [...done, ...inJournal.map((move) => move.to)];
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const dir of staging.values()) await rm(dir, { recursive: true, force: true });
      for (const held of kitLocks) await held.release();
      await lock?.release();
    },
  };
}
