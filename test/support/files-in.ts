import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under `dir`, as paths relative to it, sorted: output folders hold sub-folders (the fix kit). */
export async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}
