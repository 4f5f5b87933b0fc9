import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { writeFileAtomic, type OutputSet } from '../output/output-set.js';
import { redactTokenShapes } from '../secrets/token-shapes.js';
import type { FixesSummary, Report } from '../model/finding.js';
import { displayRoots } from '../repo/scan.js';
import type { FixFile, FixKit } from './fix-kit.js';
import { controlsShown, jsonControlsEscaped, markdownEscape, workflowCommandsDisarmed } from '../terminal-text.js';
import { fileLocation, type FileEncoding, type PatchedFile, type RepoFile } from './repo-patch.js';


/** Where a finding's path (`<repo prefix>/<file>`) is on disk, for each `--repo` directory. */
function diskPath(shown: string, dirs: readonly string[]): string | undefined {
  const roots = displayRoots(dirs);
  for (const [index, dir] of dirs.entries()) {
    const root = roots[index]!;
    if (root === '') return join(dir, shown);
    if (shown.startsWith(`${root}/`)) return join(dir, shown.slice(root.length + 1));
  }
  return undefined;
}

/** The path findings give `onDisk` (a real file), when it is inside one of the `--repo` directories. */
async function shownPath(onDisk: string, dirs: readonly string[]): Promise<string | undefined> {
  const roots = displayRoots(dirs);
  for (const [index, dir] of dirs.entries()) {
    const inside = relative(await realpath(dir).catch(() => dir), onDisk);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    return posix.join(roots[index]!, inside.split(sep).join('/'));
  }
  return undefined;
}

/**
 * The text of every file a file finding points at, read again so the patch is placed on what is
 * there now. A file that is a link (the scan reads one only when it points at a file inside the
 * repository) is read as its target, under the target's path: the patch and `--fix` change the
 * target, never the link.
 */
export async function readFindingFiles(report: Report, dirs: readonly string[]): Promise<RepoFile[]> {
  const paths = new Set(report.findings.flatMap((f) => (f.resource.type === 'file' ? [fileLocation(f.location)?.path ?? ''] : [])).filter(Boolean));
  // The other .tf files of a Terraform configuration the patch may change: its version constraints
  // (versions.tf) sit apart from the resources, and repo.patch raises them where they are too low.
  for (const path of [...paths].filter((p) => p.endsWith('.tf'))) {
    const onDisk = diskPath(path, dirs);
    const names = onDisk === undefined ? [] : await readdir(dirname(onDisk), { withFileTypes: true }).catch(() => []);
    for (const entry of names) if (entry.isFile() && entry.name.endsWith('.tf')) paths.add(posix.join(posix.dirname(path), entry.name));
  }
  const files: RepoFile[] = [];
  const read = new Set<string>();
  const readAs = async (path: string, onDisk: string) => {
    if (read.has(path)) return;
    read.add(path);
    files.push({ path, ...decodeFile(await readFile(onDisk)) });
  };
  for (const path of [...paths].sort()) {
    const onDisk = diskPath(path, dirs);
    if (onDisk === undefined) continue;
    try {
      if ((await lstat(onDisk)).isSymbolicLink()) {
        const target = await realpath(onDisk);
        const targetPath = await shownPath(target, dirs);
        files.push({ path, text: '', linkTo: targetPath ?? target });
        if (targetPath !== undefined) await readAs(targetPath, target);
      } else {
        await readAs(path, onDisk);
      }
    } catch {
      // Left out: its findings are listed as unresolved ("could not be read again").
    }
  }
  return files;
}

/**
 * A file's text and how it was decoded: UTF-8 when its bytes are UTF-8, else Latin-1, where each
 * byte is one character, so the lines a change does not touch are written back byte for byte.
 */
export function decodeFile(bytes: Buffer): { text: string; encoding?: FileEncoding } {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { text: bytes.toString('latin1'), encoding: 'latin1' };
}

/**
 * Stage the kit as the folder `dir` in the run's output set: on commit it replaces the kit written
 * there before whole (only a folder marked as ours, never through a link), so no stale file stays.
 * The marker holds the run id, as every other file of the run does.
 */
export async function writeFixKit(kit: FixKit, dir: string, outputs: OutputSet, runId: string): Promise<FixesSummary> {
  // Org values were redacted when read; this catches a token shape that reached a kit file another way.
  // The patch is left as it is: its context lines must match the repository byte for byte to apply.
  // A README is read in a terminal or a viewer: org text in it shows its control characters as escapes
  // and starts no workflow command; a JSON file keeps them as \u escapes (the same data to a parser).
  const shown = (file: FixFile) =>
    file.kind === 'readme' ? workflowCommandsDisarmed(controlsShown(file.content, ['\n']), markdownEscape) : file.path.endsWith('.json') ? jsonControlsEscaped(file.content) : file.content;
  const files = kit.files.map((file) => ({ path: file.path, content: file.kind === 'repo-patch' ? (file.bytes ?? file.content) : redactTokenShapes(shown(file)) }));
  await outputs.stageDir(dir, files, `run ${runId}\n`);
  return {
    dir: posix.normalize(dir.split('\\').join('/')),
    files: kit.files.map(({ path, kind, findings }) => ({ path, kind, findings })),
    ...(kit.unresolved.length > 0 && { unresolved: kit.unresolved }),
  };
}

/**
 * `--fix`: write the patched files in place. Every file is checked first: one changed since it was
 * read is refused with one line, and then nothing is written.
 */
export async function applyPatchedFiles(patched: readonly PatchedFile[], dirs: readonly string[]): Promise<string[]> {
  const targets: { path: string; onDisk: string; after: Uint8Array }[] = [];
  for (const file of patched) {
    const onDisk = diskPath(file.path, dirs);
    // A link that appeared since the read is not written through (nor replaced by a file).
    const regular = onDisk !== undefined && (await lstat(onDisk).catch(() => undefined))?.isFile() === true;
    const now = onDisk === undefined || !regular ? undefined : await readFile(onDisk).then((bytes) => bytes.toString(file.encoding ?? 'utf8')).catch(() => undefined);
    if (onDisk === undefined || now !== file.before) {
      throw new InputError(`--fix: ${file.path} changed since it was read; nothing was written, run the audit again`);
    }
    targets.push({ path: file.path, onDisk, after: Buffer.from(file.after, file.encoding ?? 'utf8') });
  }
  // Each file whole or not at all (a temporary file renamed over it), with the mode it had.
  for (const target of targets) await writeFileAtomic(target.onDisk, target.after, (await stat(target.onDisk)).mode & 0o7777);
  return targets.map((target) => target.path);
}
