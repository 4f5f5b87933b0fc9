import { createHash } from 'node:crypto';
import { InputError } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import { describeOwnKind, ownDocumentKindOf, OWN_KIND_USE } from '../own-documents.js';
import { SNAPSHOT_FORMAT } from '../model/snapshot.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { checkSnapshot, type CheckedSnapshot, type CheckOptions } from './validate-snapshot.js';

/** How an org snapshot is made, for the lines that refuse another file. */
const RECORD_ONE = 'record an org snapshot with `teams-migration-audit snapshot --out org.json`';

/**
 * Read an org-snapshot/1 file: the snapshot and a note per value of an unexpected shape. A file
 * that is not a snapshot (or, with `strict`, any misfit) is one InputError line naming the file.
 */
export async function loadSnapshotFile(path: string, options: CheckOptions = {}): Promise<CheckedSnapshot & { sha256: string }> {
  let sha256 = '';
  const document = await readJsonInput(path, 'snapshot', {
    htmlHint: ` (index.html is the report this tool writes; ${RECORD_ONE})`,
    onBytes: (bytes) => (sha256 = createHash('sha256').update(bytes).digest('hex')),
  });
  // Our other files are JSON too, and each has its place: say which file it is and where it goes.
  const kind = ownDocumentKindOf(document);
  if (kind !== undefined && kind !== SNAPSHOT_FORMAT) {
    throw new InputError(`${path}: it is ${describeOwnKind(kind)}, not an org snapshot: ${OWN_KIND_USE[kind]}, and ${RECORD_ONE}`);
  }
  return { ...checkSnapshot(document, path, options), sha256 };
}

/** Read a file that must fit org-snapshot/1 exactly (fixtures, tests): any misfit is an InputError. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  return (await loadSnapshotFile(path, { strict: true })).snapshot;
}
