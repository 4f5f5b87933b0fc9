import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { InputError } from '../errors.js';
import type { FixesSummary, Report } from '../model/finding.js';
import { displayRoot } from '../repo/scan.js';
import type { FixKit } from './fix-kit.js';
import { fileLocation, type PatchedFile, type RepoFile } from './repo-patch.js';


/** Where a finding's path (`<repo as given>/<file>`) is on disk, for each `--repo` directory. */
function diskPath(shown: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    const root = displayRoot(dir);
    if (root === '') return join(dir, shown);
    if (shown.startsWith(`${root}/`)) return join(dir, shown.slice(root.length + 1));
  }
  return undefined;
}

/** The text of every file a file finding points at, read again so the patch is placed on what is there now. */
export async function readFindingFiles(report: Report, dirs: readonly string[]): Promise<RepoFile[]> {
  const paths = new Set(report.findings.flatMap((f) => (f.resource.type === 'file' ? [fileLocation(f.location)?.path ?? ''] : [])).filter(Boolean));
  const files: RepoFile[] = [];
  for (const path of [...paths].sort()) {
    const onDisk = diskPath(path, dirs);
    if (onDisk === undefined) continue;
    try {
      files.push({ path, text: await readFile(onDisk, 'utf8') });
    } catch {
      // Left out: its findings are listed as unresolved ("could not be read again").
    }
  }
  return files;
}

const KIT_MARK = '# Fix kit for ';

/** Write the kit into `dir`; a kit written there before is replaced whole, so no stale file stays. */
export async function writeFixKit(kit: FixKit, dir: string): Promise<FixesSummary> {
  const previous = await readFile(join(dir, 'README.md'), 'utf8').catch(() => undefined);
  if (previous?.startsWith(KIT_MARK)) {
    for (const old of ['org', 'data-migration', 'repo.patch', 'predicted-org.json']) await rm(join(dir, old), { recursive: true, force: true });
  }
  for (const file of kit.files) {
    const target = join(dir, ...file.path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
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
  const targets: { path: string; onDisk: string; after: string }[] = [];
  for (const file of patched) {
    const onDisk = diskPath(file.path, dirs);
    const now = onDisk === undefined ? undefined : await readFile(onDisk, 'utf8').catch(() => undefined);
    if (onDisk === undefined || now !== file.before) {
      throw new InputError(`--fix: ${file.path} changed since it was read; nothing was written, run the audit again`);
    }
    targets.push({ path: file.path, onDisk, after: file.after });
  }
  for (const target of targets) await writeFile(target.onDisk, target.after);
  return targets.map((target) => target.path);
}
