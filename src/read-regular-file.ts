import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

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
 * The file's bytes in one read of one byte more than its stat gave (readFile stats it again and
 * reads in chunks): fewer bytes back is the end of a regular file, so the common case is one call;
 * a file that grew since is read on to its end, so nothing is cut.
 */
async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(size + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    filled += bytesRead;
    // Short of the buffer: the end (shrunk since the stat, or as big as it said).
    if (bytesRead === 0 || filled < buffer.length) return buffer.subarray(0, filled);
    // Grown since the stat: read on in 64 KB steps to the end.
    buffer = Buffer.concat([buffer, Buffer.allocUnsafe(64 * 1024)]);
  }
}

/**
 * readRegularFile, synchronously: the repository scan reads thousands of small files from a
 * checkout the system has just written (issue 41), where each asynchronous call's round trip
 * through the thread pool cost more than the read. The same checks: opened without waiting,
 * checked on the open descriptor, over `maxBytes` its size instead.
 */
export function readRegularFileSync(path: string, maxBytes: number, options: { followLinks?: boolean } = {}): Buffer | TooLarge {
  const noFollow = options.followLinks === false ? (constants.O_NOFOLLOW ?? 0) : 0;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFileError(path, fileKind(info));
    if (info.size > maxBytes) return new TooLarge(info.size);
    let buffer = Buffer.allocUnsafe(info.size + 1);
    let filled = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      filled += bytesRead;
      // As readWhole: short of the buffer is the end; a file grown since the stat is read on.
      if (bytesRead === 0 || filled < buffer.length) return buffer.subarray(0, filled);
      buffer = Buffer.concat([buffer, Buffer.allocUnsafe(64 * 1024)]);
    }
  } finally {
    closeSync(fd);
  }
}
