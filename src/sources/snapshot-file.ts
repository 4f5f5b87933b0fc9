import { InputError } from '../errors.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { readInputFile } from '../read-input-file.js';
import { validateSnapshot } from './validate-snapshot.js';

/** Read and validate an org-snapshot/1 file. Every failure is one InputError line naming the file. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  const text = await readInputFile(path, 'snapshot');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // V8 may quote the offending text, newlines and all; the error stays one line.
    throw new InputError(`${path}: not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`, { cause: error });
  }
  return validateSnapshot(document, path);
}
