import { spawn } from 'node:child_process';
import { readdirSync, type Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type ignore from 'ignore';
import { readRegularFile, TooLarge } from '../read-regular-file.js';
import { IGNORE_FILE_MAX_BYTES, ignoredByFiles, ignoreFileRules, leaveOutRules, type ScopedRules } from './gitignore.js';

/**
 * Which files of a checkout the scan sees, as git has them: in a git checkout, what git tracks
 * plus untracked files it does not ignore (a tracked file is never ignored, whatever a `.gitignore`
 * says); elsewhere, the `.gitignore` files matched by git's rules. `--ignore` applies on top; the
 * tool's own leave-outs (vendor/, build/, …) only to files git does not track, or outside git: a
 * change moving a file into `vendor/` must not hide it. Nothing of an ignore file's text is ever
 * put into a note.
 */

export interface ListedEntry {
  /** Relative to the root, forward slashes. */
  path: string;
  dirent: Dirent;
  /** Tracked by git: never left out by the tool's own leave-outs or its project-template rule. */
  tracked: boolean;
}

export interface Listing {
  entries: ListedEntry[];
  /** Folders that could not be listed (absolute). */
  unlisted: string[];
  notes: string[];
  /** Ignore files that could not be read: relative path and why. */
  unreadIgnoreFiles: { path: string; why: string }[];
  /** Folders that are git repositories of their own (submodules, clones inside): relative paths. */
  nestedRepositories: string[];
}

/** What git answered for a checkout: its files (`tracked`: those in its index), or why it could not say. */
export type GitFiles = { files: Set<string>; tracked: Set<string> } | { failed: string };

/** Runs `git ls-files` for a folder; replaceable in tests (git missing, refusing the folder). */
export type GitLister = (root: string) => Promise<GitFiles>;

export interface ListOptions {
  git?: GitLister;
  /** Regular files the scan has no use for (of no kind it reads): dropped before any ignore rule is matched. */
  unwanted?: (path: string) => boolean;
}

/** A folder still to list, with the ignore files above it. */
interface Queued {
  dir: string;
  scopes: readonly ScopedRules[];
}

/**
 * The entries of a checkout the scan may read. `policy` holds `--ignore`;
 * `shown` prefixes the paths in notes.
 */
export async function listCheckout(root: string, shown: string, policy: ignore.Ignore, options: ListOptions = {}): Promise<Listing> {
  const git = options.git ?? gitLsFiles;
  const listing: Listing = { entries: [], unlisted: [], notes: [], unreadIgnoreFiles: [], nestedRepositories: [] };
  const checkout = (await gitTopOf(root)) !== undefined;
  let tracked: { files: Set<string>; cached: Set<string>; dirs: Set<string>; cachedDirs: Set<string> } | undefined;
  if (checkout) {
    const answer = await git(root);
    if ('failed' in answer) {
      // Never "no files": every file on disk is scanned, and the note says why .gitignore was not applied.
      listing.notes.push(`${shown || '.'}: git could not list the checkout's files (${answer.failed}); every file on disk was scanned, .gitignore files not applied`);
    } else {
      tracked = { files: answer.files, cached: answer.tracked, dirs: parentFolders(answer.files), cachedDirs: parentFolders(answer.tracked) };
    }
  }
  // The tool's own leave-outs (DEFAULT_IGNORE_LINES): they never leave out a tracked file.
  const leaveOuts = leaveOutRules();
  const seen = (path: string, isDir: boolean, scopes: readonly ScopedRules[]): boolean => {
    const shownPath = isDir ? `${path}/` : path;
    if (policy.ignores(shownPath)) return false;
    // In git, a folder is entered when git lists a file below it; a file's leave-out is decided by whether git tracks it.
    if (tracked && isDir) return (tracked.dirs.has(path) || tracked.files.has(path)) && (tracked.cachedDirs.has(path) || tracked.cached.has(path) || !leaveOuts.ignores(shownPath));
    if (tracked) return tracked.files.has(path) && (tracked.cached.has(path) || !leaveOuts.ignores(path));
    return !leaveOuts.ignores(shownPath) && !ignoredByFiles(scopes, path, isDir);
  };
  // Ignore files are read only outside git (git reads its own), and only when git was not asked.
  const readsIgnoreFiles = !checkout;
  const queue: Queued[] = [{ dir: '', scopes: [] }];
  /** One folder: its entries kept, its subfolders queued. */
  const listFolder = async ({ dir, scopes }: Queued): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = readdirSync(join(root, dir), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') listing.unlisted.push(join(root, dir));
      return;
    }
    let here = scopes;
    if (readsIgnoreFiles && dirents.some((d) => d.name === '.gitignore')) {
      const rules = await readIgnoreFile(root, posix.join(dir, '.gitignore'), shown, listing);
      if (rules) here = [...scopes, { base: dir, rules }];
    }
    for (const dirent of dirents) {
      const path = dir === '' ? dirent.name : `${dir}/${dirent.name}`;
      const isDir = dirent.isDirectory();
      if (dirent.isFile() && options.unwanted?.(path)) continue;
      if (!seen(path, isDir, here)) continue;
      if (isDir && tracked?.files.has(path)) {
        listing.nestedRepositories.push(path);
      } else if (isDir) {
        queue.push({ dir: path, scopes: here });
      } else listing.entries.push({ path, dirent, tracked: tracked?.cached.has(path) ?? false });
    }
  };
  // One folder after another, synchronously, as the files are read (scan.ts): a listing in flight
  // paid a thread-pool round trip per folder (issue 41).
  while (queue.length > 0) await listFolder(queue.shift()!);
  listing.entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  listing.unlisted.sort();
  listing.nestedRepositories.sort();
  listing.notes.sort();
  return listing;
}

/** Every folder that holds a listed file, at any depth ('' is the root). */
function parentFolders(files: ReadonlySet<string>): Set<string> {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) {
      const dir = file.slice(0, at);
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return dirs;
}

/**
 * One folder's `.gitignore`, read only when it is a regular file of at most a small size (a link
 * could point anywhere). One that is not applied is named, never quoted: the scan then sees more.
 */
async function readIgnoreFile(root: string, path: string, shown: string, listing: Listing): Promise<ignore.Ignore | undefined> {
  const named = posix.join(shown, path);
  let bytes;
  try {
    bytes = await readRegularFile(join(root, path), IGNORE_FILE_MAX_BYTES, { followLinks: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') listing.notes.push(`${named}: not applied, a symbolic link (ignore files are read only as regular files); the files it would leave out were scanned`);
    else if (code === 'ENOTREG') listing.notes.push(`${named}: not applied, not a regular file; the files it would leave out were scanned`);
    else if (code !== 'ENOENT') listing.unreadIgnoreFiles.push({ path, why: code ?? (error as Error).message });
    return undefined;
  }
  const rules = bytes instanceof TooLarge ? { refused: `over ${IGNORE_FILE_MAX_BYTES / 1024} KB` } : ignoreFileRules(bytes.toString('utf8'));
  if ('refused' in rules) {
    listing.notes.push(`${named}: not applied, ${rules.refused}; the files it would leave out were scanned`);
    return undefined;
  }
  return rules;
}

/** The folder holding the `.git` (folder, or file of a worktree or submodule) of the work tree a folder is in, if any. */
export async function gitTopOf(root: string): Promise<string | undefined> {
  for (let dir = root; ; dir = dirname(dir)) {
    if (await lstat(join(dir, '.git')).then(() => true, () => false)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `git ls-files` of a folder, read-only: tracked files and untracked ones not ignored, relative to
 * the folder. Run without the caller's GIT_* variables (a hook's GIT_DIR or GIT_INDEX_FILE would
 * point it elsewhere), without optional locks, and with no fsmonitor (a checkout's config could
 * name a command for it).
 */
export async function gitLsFiles(root: string): Promise<GitFiles> {
  const env: NodeJS.ProcessEnv = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  // `-t` tags each path: `? ` for an untracked file, another letter for one in the index.
  const args = ['-c', 'core.fsmonitor=false', 'ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard'];
  return new Promise<GitFiles>((resolve) => {
    const child = spawn('git', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ failed: error.code === 'ENOENT' ? 'git is not installed or not on PATH' : error.message }));
    child.on('close', (code, signal) => {
      if (code === 0) {
        const files = new Set<string>();
        const tracked = new Set<string>();
        for (const line of Buffer.concat(out).toString('utf8').split('\0')) {
          if (line.length < 3) continue;
          // A repository inside (submodule or nested clone) is listed as its folder, untracked ones with a slash.
          const path = line.slice(2).replace(/\/$/, '');
          files.add(path);
          if (line[0] !== '?') tracked.add(path);
        }
        resolve({ files, tracked });
        return;
      }
      resolve({ failed: gitFailure(Buffer.concat(err).toString('utf8'), code, signal) });
    });
  });
}

/** Git's error in a few words: its first `fatal:` line, with the hint for a checkout owned by another user. */
export function gitFailure(stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  if (/dubious ownership/.test(stderr)) return 'git refuses a checkout owned by another user: add it to safe.directory';
  const fatal = stderr.split('\n').find((line) => line.startsWith('fatal:'))?.slice('fatal:'.length).trim();
  const why = fatal ? fatal.slice(0, 200) : signal ? `ended by ${signal}` : `exit ${code}`;
  return `git ls-files: ${why}`;
}
