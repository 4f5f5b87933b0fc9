import { readJsonInput } from '../json-input.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { checkSnapshot, type CheckedSnapshot, type CheckOptions } from './validate-snapshot.js';

/**
 * Read an org-snapshot/1 file: the snapshot and a note per value of an unexpected shape. A file
 * that is not a snapshot (or, with `strict`, any misfit) is one InputError line naming the file.
 */
export async function loadSnapshotFile(path: string, options: CheckOptions = {}): Promise<CheckedSnapshot> {
  const document = await readJsonInput(path, 'snapshot');
  return checkSnapshot(document, path, options);
}

/** Read a file that must fit org-snapshot/1 exactly (fixtures, tests): any misfit is an InputError. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  return (await loadSnapshotFile(path, { strict: true })).snapshot;
}
