import { InputError } from './errors.js';
import { missingPathHint } from './missing-path-hint.js';
import { NotRegularFileError, readRegularFile } from './read-regular-file.js';

/**
 * Read one of the user's input files as text. A failure is one InputError line naming the file,
 * what it was meant to be and why, in words (`no such file`, with the near name when one was
 * mistyped), never a raw errno dump. `onBytes` sees the file's bytes as read. A leading
 * UTF-8 byte order mark (Windows editors, PowerShell's Out-File) is dropped.
 */
export async function readInputFile(path: string, what: string, missingHint = '', onBytes?: (bytes: Buffer) => void): Promise<string> {
  let text: string;
  try {
    const bytes = await readRegularFile(path);
    // What the run read, seen once as it is read (the run id of a snapshot file is its bytes' digest).
    onBytes?.(bytes);
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A typo gets the name it missed; a file that is not there yet, the way to make it.
    const why =
      code === 'ENOENT'
        ? `no such file${(await missingPathHint(path)) || missingHint}`
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : error instanceof NotRegularFileError
              ? `it is ${error.kind}, not a regular file`
              : (error as Error).message;
    throw new InputError(`${path}: cannot read the ${what}: ${why}`, { cause: error });
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
