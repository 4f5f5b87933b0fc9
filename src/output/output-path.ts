import { constants } from 'node:fs';
import { access, mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * Make sure `dir` is a directory this run can write into, creating it one level at a time, and
 * fail with one line (exit 2) before any analysis when it cannot be. Node's recursive mkdir spins
 * for ever under /proc, so each missing level is created by a plain mkdir that fails at once.
 * `what` names the option in the message ("--out").
 */
export async function ensureWritableDir(dir: string, what: string, shown: string = dir): Promise<void> {
  const fail = (why: string): never => {
    throw new UsageError(`${what} ${shown}: ${why}`);
  };
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a level above is a file; walking up finds it and says so.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      return fail(`cannot read ${current} (${error.code ?? error.message})`);
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
  for (const level of missing) {
    await mkdir(level).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') fail(`cannot create ${level} (${error.code ?? error.message})`);
    });
  }
  await access(resolve(dir), constants.W_OK).catch((error: NodeJS.ErrnoException) => fail(`not writable (${error.code ?? error.message})`));
  // Access checks pass for root everywhere; only a real write proves the directory takes files.
  const probe = join(resolve(dir), `.teams-migration-audit-write-check-${process.pid}`);
  const handle = await open(probe, 'wx').catch((error: NodeJS.ErrnoException) => fail(`cannot write files there (${error.code ?? error.message})`));
  await handle.close();
  await unlink(probe);
}

/** A file the run will write later (`--write-baseline`, `snapshot --out`): its folder writable, and not a directory itself. */
export async function ensureWritableFile(file: string, what: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) throw new UsageError(`${what} ${file}: is a directory, expected a file path`);
  await ensureWritableDir(dirname(resolve(file)), what, file);
}
