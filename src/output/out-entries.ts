import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileKind } from '../read-regular-file.js';

/**
 * What is at a path in `--out` (or beside another target), seen without following a link: a
 * planted link, pipe or folder is named for what it is, never opened or read through.
 */

/** A fix kit folder carries this file; only a folder with it is ever deleted or replaced. */
export const KIT_MARKER = '.teams-migration-audit-fix-kit';
/** Kits written before the marker: their README.md starts so (write-fixes.ts). */
const LEGACY_KIT_MARK = '# Fix kit for ';

/** The kind of what is at `path`, without following a link there. */
export async function kindAt(path: string): Promise<'none' | 'link' | 'dir' | 'file'> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return 'none';
  if (info.isSymbolicLink()) return 'link';
  return info.isDirectory() ? 'dir' : 'file';
}

/** What is at `path` in words for a refusing line ('a named pipe'), or 'none' / 'file' for nothing / a regular file. */
export async function plantedKind(path: string): Promise<string> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return 'none';
  if (info.isFile()) return 'file';
  if (info.isSymbolicLink()) return 'a link';
  return info.isDirectory() ? 'a folder' : fileKind(info);
}

/** Whether the folder at `dir` is a fix kit this tool wrote (its marker, or an earlier kit's README). */
export async function isOurKit(dir: string): Promise<boolean> {
  if ((await kindAt(join(dir, KIT_MARKER))) === 'file') return true;
  if ((await kindAt(join(dir, 'README.md'))) !== 'file') return false;
  return (await readFile(join(dir, 'README.md'), 'utf8').catch(() => '')).startsWith(LEGACY_KIT_MARK);
}
