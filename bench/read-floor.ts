/**
 * The repository scan's floor (`npm run bench:repo-scan`, issue 41), run as a process of its own as
 * the scan is: every file of the folder listed (git's own folder aside), then each read once,
 * synchronously, one after another, as `cat` reads them. Prints how many files and bytes it read.
 * Usage: node read-floor.js DIR
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
if (root === undefined) throw new Error('usage: read-floor.js DIR');
let files = 0;
let bytes = 0;
const pending = [''];
while (pending.length > 0) {
  const dir = pending.pop()!;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path !== '.git') pending.push(path);
    } else if (entry.isFile()) {
      bytes += readFileSync(join(root, path)).length;
      files++;
    }
  }
}
process.stdout.write(`${files} files, ${bytes} bytes\n`);
