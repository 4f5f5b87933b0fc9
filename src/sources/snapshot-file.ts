import { InputError } from '../errors.js';
import { assertJsonDepth } from '../json-input.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { readInputFile } from '../read-input-file.js';
import { checkSnapshot, type CheckedSnapshot, type CheckOptions } from './validate-snapshot.js';

/**
 * Read an org-snapshot/1 file: the snapshot and a note per value of an unexpected shape. A file
 * that is not a snapshot (or, with `strict`, any misfit) is one InputError line naming the file.
 */
export async function loadSnapshotFile(path: string, options: CheckOptions = {}): Promise<CheckedSnapshot> {
  const text = await readInputFile(path, 'snapshot');
  assertJsonDepth(text, path, 'snapshot');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // V8 may quote the offending text, newlines and all; the error stays one line.
    throw new InputError(`${path}: not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`, { cause: error });
  }
  return checkSnapshot(document, path, options);
}

/** Read a file that must fit org-snapshot/1 exactly (fixtures, tests): any misfit is an InputError. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  return (await loadSnapshotFile(path, { strict: true })).snapshot;
}
