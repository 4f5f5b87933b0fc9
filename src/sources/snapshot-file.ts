import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { validateSnapshot } from './validate-snapshot.js';

/** Read and validate an org-snapshot/1 file. Every failure is one InputError line naming the file. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new InputError(`${path}: cannot read the snapshot: ${why}`, { cause: error });
  }
  let document: unknown;
  try {
    // Editors on Windows (and PowerShell's Out-File) write a UTF-8 byte order mark; JSON.parse rejects it.
    document = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new InputError(`${path}: not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return validateSnapshot(document, path);
}
