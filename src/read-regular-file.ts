import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** Thrown for a path that is there but is no regular file; `code` mimics an errno for callers that switch on it. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path}: not a regular file (${kind})`);
  }
}

/** What a non-regular file is, in words for the error line. */
export function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a file';
}

/**
 * The bytes of a regular file, and nothing else. Opening a named pipe for reading waits for a
 * writer for ever, and a device such as /dev/zero never ends: the file is opened without
 * waiting (O_NONBLOCK, which regular files ignore) and checked on the open descriptor, so
 * nothing can be swapped in between the check and the read.
 */
export async function readRegularFile(path: string): Promise<Buffer>;
/**
 * With `maxBytes`: a larger file is not read; its size comes back instead (one stat for both checks).
 * With `followLinks: false`, a symbolic link is refused by the open itself (ELOOP; O_NOFOLLOW).
 */
export async function readRegularFile(path: string, maxBytes: number, options?: { followLinks?: boolean }): Promise<Buffer | TooLarge>;
export async function readRegularFile(path: string, maxBytes = Number.POSITIVE_INFINITY, options: { followLinks?: boolean } = {}): Promise<Buffer | TooLarge> {
  const noFollow = options.followLinks === false ? (constants.O_NOFOLLOW ?? 0) : 0;
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(path, fileKind(info));
    if (info.size > maxBytes) return new TooLarge(info.size);
    return await readWhole(handle, info.size);
  } finally {
    await handle.close();
  }
}

/** A file over the caller's size limit, with its size. */
export class TooLarge {
  constructor(readonly size: number) {}
}

/**
 * The file's bytes in one read of the size its stat gave (readFile stats it again and reads in
 * chunks); a file that grew since is read on to its end, so nothing is cut.
 */
async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled); // shrank since the stat
    filled += bytesRead;
  }
  // Grown since the stat: read on to the end (the first probe is one pooled byte, the common case).
  for (let probe = 1; ; probe = 64 * 1024) {
    const chunk = Buffer.allocUnsafe(probe);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, filled);
    if (bytesRead === 0) return buffer;
    buffer = Buffer.concat([buffer, chunk.subarray(0, bytesRead)]);
    filled += bytesRead;
  }
}
