import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { errorCode, UsageError } from '../errors.js';

/**
 * Make sure `dir` is a directory this run can write into, creating it one level at a time, and
 * fail with one line (exit 2) before any analysis when it cannot be. Node's recursive mkdir spins
 * for ever under /proc, so each missing level is created by a plain mkdir that fails at once.
 * `what` names the option in the message ("--out"). Resolves to the folders it had to create,
 * outermost first, so a run that stops early can take them away again.
 */
export async function ensureWritableDir(dir: string, what: string, shown: string = dir): Promise<string[]> {
  const fail = (why: string): never => {
    throw new UsageError(`${what} ${shown}: ${why}`);
  };
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a level above is a file; walking up finds it and says so.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      return fail(`cannot read ${current} (${errorCode(error)})`);
    });
    if (info) {
      if (!info.isDirectory()) fail(`${current} exists and is not a directory`);
      break;
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  // Only the levels this call made: one another process made meanwhile (EEXIST) is not ours.
  const made: string[] = [];
  try {
    for (const level of missing) {
      const created = await mkdir(level).then(
        () => true,
        (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : fail(`cannot create ${level} (${errorCode(error)})`)),
      );
      if (created) made.push(level);
    }
    await access(resolve(dir), constants.W_OK).catch((error: unknown) => fail(`not writable (${errorCode(error)})`));
    // Access checks pass for root everywhere; only a real write proves the directory takes files.
    const probe = join(resolve(dir), `.teams-migration-audit-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
    const handle = await open(probe, 'wx').catch((error: unknown) => fail(`cannot write files there (${errorCode(error)})`));
    await handle.close();
    await unlink(probe);
  } catch (error) {
    await removeEmptyCreated(made);
    throw error;
  }
  return made;
}

/**
 * Takes away the folders a run created (ensureWritableDir) that are still empty, innermost first:
 * a run that stopped on an error before writing leaves no empty output folder behind. A folder
 * something was written into stays, whoever wrote it.
 */
export async function removeEmptyCreated(created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) {
    try {
      await rmdir(dir);
    } catch {
      return; // not empty (or gone): neither it nor anything above it is ours to remove
    }
  }
}

/** A file the run will write later (`--write-baseline`, `snapshot --out`): its folder writable, and not a directory itself. */
export async function ensureWritableFile(file: string, what: string): Promise<string[]> {
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) throw new UsageError(`${what} ${file}: is a directory, expected a file path`);
  return ensureWritableDir(dirname(resolve(file)), what, file);
}

export interface NamedPath {
  /** The option, as the user wrote it: "--snapshot". */
  flag: string;
  path: string;
}

/** The path with its existing part's links resolved, so `out/../s.json` and a link to `s.json` compare equal. */
async function canonical(path: string): Promise<string> {
  const absolute = resolve(path);
  const real = await realpath(absolute).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(await canonical(parent), basename(absolute));
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/**
 * Outputs never name an input (issue 23): a baseline written over the snapshot, a report written
 * over the baseline, a fix kit folder replaced over the teams map. Refused in one line before
 * anything is read. `files` are written whole; `dirs` are replaced whole (the fix kit).
 */
export async function refuseOutputsNamingInputs(
  inputs: readonly NamedPath[],
  outputs: { files: readonly NamedPath[]; dirs: readonly NamedPath[] },
  /** Pairs meant to name one file: `--write-baseline` rewriting the `--baseline` it read (written whole, after the read). */
  rewrites: readonly (readonly [output: string, input: string])[] = [],
): Promise<void> {
  for (const named of [...inputs, ...outputs.files, ...outputs.dirs]) {
    if (named.path.trim() === '') throw new UsageError(`${named.flag} is empty; name a path`);
  }
  const inputPaths = await Promise.all(inputs.map(async (input) => ({ ...input, at: await canonical(input.path), info: await stat(input.path).catch(() => undefined) })));
  for (const output of outputs.files) {
    const at = await canonical(output.path);
    const info = await stat(output.path).catch(() => undefined);
    for (const input of inputPaths) {
      if (rewrites.some(([outputFlag, inputFlag]) => outputFlag === output.flag && inputFlag === input.flag)) continue;
      const same = at === input.at || (info !== undefined && input.info !== undefined && info.dev === input.info.dev && info.ino === input.info.ino);
      if (same) throw new UsageError(`${output.flag} ${output.path} is the ${input.flag} input ${input.path}: the run would overwrite what it reads; write it elsewhere`);
    }
  }
  for (const output of outputs.dirs) {
    const at = await canonical(output.path);
    for (const input of inputPaths) {
      if (inside(input.at, at)) throw new UsageError(`${output.flag} ${output.path} holds the ${input.flag} input ${input.path}, and the fix kit folder is replaced whole; write it elsewhere`);
    }
  }
}
