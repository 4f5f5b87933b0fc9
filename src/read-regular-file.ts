import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
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
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(path, fileKind(info));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
