import { lstat, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { fileLocation } from '../file-location.js';
import { readRegularFile, TooLarge } from '../read-regular-file.js';
import { atomicWriteFaults, writeBeside, writeFailure, writeFileAtomic, type OutputSet } from '../output/output-set.js';
import { rewrittenRuns } from '../output/rewritten-runs.js';
import { StreamedContent, type StagedContent } from '../output/staged-digest.js';
import { redactTokenShapes } from '../secrets/token-shapes.js';
import { credentialRedactor } from '../secrets/credentials.js';
import type { FixesSummary, Report } from '../model/finding.js';
import { displayRoots, MAX_FILE_BYTES } from '../repo/scan.js';
import type { FileEncoding, FixFile, FixKit, PatchedFile } from './fix-kit.js';
import { controlsShown, jsonControlsEscaped, markdownEscape, workflowCommandsDisarmed } from '../terminal-text.js';
import { withSignalsHeld } from './hold-signals.js';
import type { RepoFile } from './repo-patch.js';

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
  // Each folder listed once; a sibling is read only as a regular file within the scan's size limit
  // (it is a file the repository supplies that the scan did not read).
  const siblings = new Set<string>();
  for (const folder of new Set([...paths].filter((p) => p.endsWith('.tf')).map((p) => posix.dirname(p)))) {
    const onDisk = diskPath(posix.join(folder, '_'), dirs);
    const names = onDisk === undefined ? [] : await readdir(dirname(onDisk), { withFileTypes: true }).catch(() => []);
    for (const entry of names) {
      const path = posix.join(folder, entry.name);
      if (entry.isFile() && entry.name.endsWith('.tf') && !paths.has(path)) siblings.add(path);
    }
  }
  const files: RepoFile[] = [];
  const read = new Set<string>();
  const readAs = async (path: string, onDisk: string) => {
    if (read.has(path)) return;
    read.add(path);
    if (!siblings.has(path)) return void files.push({ path, ...decodeFile(await readFile(onDisk)) });
    const bytes = await readRegularFile(onDisk, MAX_FILE_BYTES, { followLinks: false });
    if (!(bytes instanceof TooLarge)) files.push({ path, ...decodeFile(bytes) });
  };
  for (const path of siblings) paths.add(path);
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
function decodeFile(bytes: Buffer): { text: string; encoding?: FileEncoding } {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { text: bytes.toString('latin1'), encoding: 'latin1' };
}

/**
 * Stage the kit as the folder `dir` in the run's output set: on commit it replaces the kit written
 * there before whole (only a folder marked as ours, never through a link), so no stale file stays.
 * The marker holds the run id, as every other file of the run does.
 */
export async function writeFixKit(kit: FixKit, dir: string, outputs: OutputSet, runId: string, secrets: readonly string[] = []): Promise<FixesSummary> {
  // Org values were redacted when read; this catches a token shape that reached a kit file another way.
  // The patch is left as it is: its context lines must match the repository byte for byte to apply.
  // A README is read in a terminal or a viewer: org text in it shows its control characters as escapes
  // and starts no workflow command; a JSON file keeps them as \u escapes (the same data to a parser).
  // A streamed file (the predicted org) is escaped and redacted piece by piece: each piece is a whole
  // JSON value (an org member, an entity) or the punctuation between two, so no string spans two pieces,
  // and runs are cut only between pieces: a secret (below) is never split across two runs either.
  // The run's credentials and the org's secrets (`secrets`, found by value) are cut before the escapes,
  // which could change how one is spelled (a README's Markdown escapes).
  const withoutSecrets = credentialRedactor(secrets);
  const shown = (file: FixFile, raw: string) => {
    const text = withoutSecrets(raw);
    return file.kind === 'readme' ? workflowCommandsDisarmed(controlsShown(text, ['\n']), markdownEscape) : file.path.endsWith('.json') ? jsonControlsEscaped(text) : text;
  };
  const contentOf = (file: FixFile): StagedContent => {
    if (file.kind === 'repo-patch') return file.bytes ?? file.content;
    const pieces = file.pieces;
    if (pieces === undefined) return redactTokenShapes(shown(file, file.content));
    // Pieces gathered first: two regular expressions per entity cost more than the writing.
    return new StreamedContent(() => rewrittenRuns(pieces(), (run) => redactTokenShapes(shown(file, run))));
  };
  const files = kit.files.map((file) => ({ path: file.path, content: contentOf(file) }));
  await outputs.stageDir(dir, files, `run ${runId}\n`);
  return {
    dir: posix.normalize(dir.split('\\').join('/')),
    files: kit.files.map(({ path, kind, findings }) => ({ path, kind, findings })),
    ...(kit.unresolved.length > 0 && { unresolved: kit.unresolved }),
  };
}

/**
 * `--fix` could not replace one file: every file it had replaced was put back, so the repositories
 * are as they were (or, when even that failed, the files still changed are named).
 */
export class FixNotApplied extends InputError {
  override name = 'FixNotApplied';
}

interface FixTarget {
  path: string;
  onDisk: string;
  before: Uint8Array;
  after: Uint8Array;
  mode: number;
}

/**
 * `--fix`: write the patched files in place, all or none. Every file is checked first: one changed
 * since it was read is refused with one line, and then nothing is written. Then every new file is
 * written whole beside its target (a temporary file with the target's mode); only when all are
 * written are they renamed over their targets. A failure at any step removes what was staged and
 * puts back each file already replaced, and says which file failed and that nothing was changed.
 */
export async function applyPatchedFiles(patched: readonly PatchedFile[], dirs: readonly string[]): Promise<string[]> {
  const targets: FixTarget[] = [];
  for (const file of patched) {
    const onDisk = diskPath(file.path, dirs);
    // A link that appeared since the read is not written through (nor replaced by a file).
    const regular = onDisk !== undefined && (await lstat(onDisk).catch(() => undefined))?.isFile() === true;
    const bytes = onDisk === undefined || !regular ? undefined : await readFile(onDisk).catch(() => undefined);
    if (onDisk === undefined || bytes === undefined || bytes.toString(file.encoding ?? 'utf8') !== file.before) {
      // Before any file is touched; as any --fix that changed nothing, the reports are still written (fix-run.ts).
      throw new FixNotApplied(`--fix: ${file.path} changed since it was read; nothing was changed: run the audit again`);
    }
    targets.push({ path: file.path, onDisk, before: bytes, after: Buffer.from(file.after, file.encoding ?? 'utf8'), mode: (await stat(onDisk)).mode & 0o7777 });
  }
  // Ctrl-C or a CI job's timeout waits until every file is replaced, or every one put back.
  return withSignalsHeld(() => replaceAll(targets));
}

/** Stage every target beside itself, then rename each over it; on a failure, put back what was replaced. */
async function replaceAll(targets: readonly FixTarget[]): Promise<string[]> {
  const staged: string[] = [];
  const replaced: FixTarget[] = [];
  let current: FixTarget | undefined;
  try {
    for (const target of targets) {
      current = target;
      staged.push(await writeBeside(target.onDisk, target.after, target.mode));
    }
    for (const [index, target] of targets.entries()) {
      current = target;
      await rename(staged[index]!, target.onDisk);
      replaced.push(target);
      await atomicWriteFaults.at?.('renamed', target.onDisk);
    }
  } catch (error) {
    for (const path of staged) await rm(path, { force: true });
    const notRestored: string[] = [];
    for (const target of replaced.reverse()) {
      await writeFileAtomic(target.onDisk, target.before, target.mode).catch(() => notRestored.push(target.path));
    }
    const failed = `--fix: cannot replace ${current?.path ?? 'a file'} (${writeFailure(error)})`;
    if (notRestored.length === 0) throw new FixNotApplied(`${failed}; nothing was changed: every file is as it was`, { cause: error });
    throw new FixNotApplied(`${failed}; could not put back ${notRestored.join(', ')}, which still hold the fix; every other file is as it was`, { cause: error });
  }
  return targets.map((target) => target.path);
}
