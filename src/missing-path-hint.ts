import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { editDistance } from './edit-distance.js';

/**
 * What to say after "no such file": the folder that is missing, or the one name beside it that is
 * nearly the one typed ("org-snaphsot.json" → "org-snapshot.json"). Nothing when neither holds:
 * a guess far from what was typed misleads more than silence.
 */
export async function missingPathHint(path: string): Promise<string> {
  const folder = dirname(path);
  const info = await stat(folder).catch(() => undefined);
  if (!info) return ` (there is no folder ${folder})`;
  if (!info.isDirectory()) return ` (${folder} is not a folder)`;
  const typed = basename(path);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const near = entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => ({ name: entry.name, distance: editDistance(typed.toLowerCase(), entry.name.toLowerCase()) }))
    .filter(({ name, distance }) => distance <= nearEnough(typed, name))
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  return near[0] ? ` (did you mean ${join(folder, near[0].name)}?)` : '';
}

/** Two edits, or fewer for short names, where one edit already turns most of the name into another. */
function nearEnough(a: string, b: string): number {
  return Math.min(2, Math.floor(Math.min(a.length, b.length) / 4));
}
