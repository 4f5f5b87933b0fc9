import { createHash } from 'node:crypto';
import { compareText } from '../compare-text.js';
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Digests that bind a commit journal to the files its run staged (issue 32): computed from the
 * bytes a run writes, and again from what is on disk when a journal is finished, so a journal is
 * obeyed only for the very files it was written for. Reading the disk never follows a link and
 * never opens anything but a regular file: a link or a pipe where a staged file should be is a
 * mismatch, not something read through.
 */

export type StagedKind = 'file' | 'dir';

/**
 * A file too large to hold as one string (the predicted org of a million entities, the page of
 * 130,000 findings): its text is made piece by piece as it is written, gathered into runs of about
 * a megabyte of bytes (one write each), and hashed on the way, so its digest is known once it is
 * written, without a second pass. The runs are Buffers, never a string of a megabyte: such a string
 * lives in V8's large-object space until the next full collection, so a big file's strings piled up
 * as garbage to several times its size (issue 41).
 */
export class StreamedContent implements Iterable<Uint8Array> {
  #digest: string | undefined;
  constructor(private readonly pieces: () => Iterable<string>) {}

  *[Symbol.iterator](): Iterator<Uint8Array> {
    const hash = createHash('sha256');
    let parts: Buffer[] = [];
    let bytes = 0;
    const run = (): Buffer => {
      const joined = Buffer.concat(parts, bytes);
      hash.update(joined);
      parts = [];
      bytes = 0;
      return joined;
    };
    for (const piece of this.pieces()) {
      if (piece === '') continue;
      const encoded = Buffer.from(piece, 'utf8');
      parts.push(encoded);
      bytes += encoded.length;
      if (bytes >= RUN_BYTES) yield run();
    }
    if (bytes > 0) yield run();
    this.#digest = hash.digest('hex');
  }

  /** The digest of what was written: asked only after the write. */
  get sha256(): string {
    if (this.#digest === undefined) throw new Error('the digest of a streamed file is known once it is written');
    return this.#digest;
  }
}

/** Ours: bytes gathered per write of a streamed file. */
const RUN_BYTES = 1 << 20;

/** What a staged file holds: its text, its bytes, or text made as it is written. */
export type StagedContent = string | Uint8Array | StreamedContent;

/** A file of a staged folder, `/`-separated path inside it. */
export interface StagedFile {
  path: string;
  content: StagedContent;
}

/** The digest of a file about to be staged: the SHA-256 of the bytes `content` is written as (a string as UTF-8, hashed without a copy). */
export const fileDigest = (content: StagedContent): string =>
  content instanceof StreamedContent ? content.sha256 : (typeof content === 'string' ? createHash('sha256').update(content, 'utf8') : createHash('sha256').update(content)).digest('hex');

/** One entry of a folder's listing: a subfolder, or a file with its content's digest. */
interface TreeEntry {
  path: string;
  sha256?: string;
}

/** A folder's digest: every subfolder and file by path (code-unit order), each file with its content's digest. */
function treeDigest(entries: readonly TreeEntry[]): string {
  const hash = createHash('sha256');
  const sorted = [...entries].sort((a, b) => compareText(a.path, b.path));
  for (const entry of sorted) hash.update(entry.sha256 === undefined ? `d ${JSON.stringify(entry.path)}\n` : `f ${JSON.stringify(entry.path)} ${entry.sha256}\n`);
  return hash.digest('hex');
}

/** The digest of a folder about to be staged with these files (its subfolders are the files' parents). */
export function folderDigest(files: readonly StagedFile[]): string {
  const dirs = new Set<string>();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) dirs.add(parts.slice(0, depth).join('/'));
  }
  return treeDigest([...[...dirs].map((path) => ({ path })), ...files.map((file) => ({ path: file.path, sha256: fileDigest(file.content) }))]);
}

/** The digest of the regular file at `path`, or undefined when it is anything else (a link is not followed). */
async function diskFileDigest(path: string): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/** Every entry under `dir`, or undefined when anything there is not a folder or a regular file. */
async function diskTree(dir: string, prefix: string, entries: TreeEntry[]): Promise<boolean> {
  for (const name of (await readdir(dir)).sort()) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    const info = await lstat(join(dir, name));
    if (info.isDirectory()) {
      entries.push({ path });
      if (!(await diskTree(join(dir, name), path, entries))) return false;
    } else if (info.isFile()) {
      const digest = await diskFileDigest(join(dir, name));
      if (digest === undefined) return false;
      entries.push({ path, sha256: digest });
    } else {
      return false;
    }
  }
  return true;
}

/**
 * The digest of what is at `path` as a `kind`, read from disk without following a link; undefined
 * when nothing is there, it is of another kind, or a folder holds a link, a pipe or a device.
 */
export async function diskDigest(path: string, kind: StagedKind): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  if (kind === 'file') return info.isFile() ? diskFileDigest(path) : undefined;
  if (!info.isDirectory()) return undefined;
  const entries: TreeEntry[] = [];
  return (await diskTree(path, '', entries).catch(() => false)) ? treeDigest(entries) : undefined;
}
