import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

/** Levenshtein distance with adjacent swaps counted once (a typo's usual shape). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
