#!/usr/bin/env node
// The action's output folder, kept to what the run wrote (issue 38). Three commands:
//   check OUT STATE        refuse, in one line (exit 2), an OUT that holds anything the audit does not
//                          write, or a link; record what it already holds in STATE
//   collect OUT STATE DEST copy into DEST (a fresh folder) the regular files under OUT that this run
//                          wrote: new since `check`; never a link, never a file that was there before
// The artifact is DEST: an uploader follows links, so what it gets holds none, and nothing a pull
// request committed into the checkout can ride along with the reports. Node's standard library only.
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the audit writes directly in --out (src/output/own-outputs.ts), each with its kind. */
export const OWN_OUTPUTS = new Map([
  ['index.html', 'file'],
  ['report.json', 'file'],
  ['report.sarif', 'file'],
  ['report.junit.xml', 'file'],
  ['summary.md', 'file'],
  ['fixes', 'dir'],
]);

/**
 * The first link on OUT's way down from the checkout (the step's working folder), in words, or none.
 * The checkout is the pull request's to shape: a committed link there would send the reports, and
 * the copy uploaded from them, wherever it points. Above the checkout the path is the workflow's.
 */
export async function linkOnTheWay(out, checkout = process.cwd()) {
  const within = relative(checkout, resolve(checkout, out));
  if (within === '' || within.startsWith('..') || isAbsolute(within)) return undefined;
  let path = checkout;
  const parts = within.split(sep);
  for (const [index, part] of parts.entries()) {
    path = join(path, part);
    const info = await lstat(path).catch((error) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (info === undefined) return undefined;
    if (info.isSymbolicLink() && index < parts.length - 1) return `its path passes through ${JSON.stringify(parts.slice(0, index + 1).join('/'))}, a link in the checkout`;
  }
  return undefined;
}

/** The first entry of OUT the audit would not have written, in words, or none. */
export async function foreignEntry(out) {
  const onTheWay = await linkOnTheWay(out);
  if (onTheWay !== undefined) return onTheWay;
  const info = await lstat(out).catch((error) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) return 'it is a symbolic link';
  if (!info.isDirectory()) return 'it is not a folder';
  for (const name of (await readdir(out)).sort()) {
    const kind = OWN_OUTPUTS.get(name);
    const entry = await lstat(join(out, name));
    const actual = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
    if (kind !== actual) return `it holds ${JSON.stringify(name)}, which the audit does not write there`;
  }
  return undefined;
}

/** Every regular file under a folder (links and other kinds are not followed), with what identifies this very file. */
async function regularFiles(root) {
  const files = new Map();
  const walk = async (dir) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const info = await lstat(path);
        files.set(relative(root, path), `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`);
      }
    }
  };
  await walk(root);
  return files;
}

/** A regular file's bytes, refusing a link swapped in since it was listed (O_NOFOLLOW, checked on the open file). */
async function readRegular(path) {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${path}: not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function check(out, state) {
  const foreign = await foreignEntry(out);
  if (foreign !== undefined) {
    process.stderr.write(`teams-migration-audit action: the out folder ${out} is refused: ${foreign}; leave 'out' empty (a fresh folder in the runner's temp) or name a new folder\n`);
    return 2;
  }
  await writeFile(state, JSON.stringify([...(await regularFiles(out))]));
  return 0;
}

export async function collect(out, state, dest) {
  const before = new Map(JSON.parse(await readFile(state, 'utf8')));
  const written = [...(await regularFiles(out))].filter(([path, identity]) => before.get(path) !== identity).map(([path]) => path).sort();
  for (const path of written) {
    const target = join(dest, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await readRegular(join(out, path)), { flag: 'wx' });
  }
  process.stdout.write(written.map((path) => `${path}\n`).join(''));
  return 0;
}

// Run as a script (the action's step); imported (a test), it only defines the functions.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'check' && args.length === 2) process.exitCode = await check(args[0], args[1]);
  else if (command === 'collect' && args.length === 3) process.exitCode = await collect(args[0], args[1], args[2]);
  else {
    process.stderr.write('usage: out-folder.mjs check OUT STATE | collect OUT STATE DEST\n');
    process.exitCode = 2;
  }
}
