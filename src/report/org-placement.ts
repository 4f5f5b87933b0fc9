import { readFile } from 'node:fs/promises';
import { repositoryPath } from '../gate-run.js';
import type { Finding } from '../model/finding.js';
import { snapshotLineOf } from './snapshot-lines.js';

/**
 * Where org findings sit in a file: the snapshot they were read from, when it is inside the working
 * directory (the checkout, in CI), at the line that names each finding's resource. SARIF and the
 * CI annotations place them the same way; a live read, the demo or a snapshot elsewhere has none.
 */
export interface OrgPlacement {
  /** The snapshot's path relative to the working directory, `/`-separated. */
  uri: string;
  lineOf: (finding: Pick<Finding, 'resource'>) => number;
}

export async function orgPlacementOf(snapshot: string | undefined): Promise<OrgPlacement | undefined> {
  const uri = repositoryPath(snapshot);
  if (uri === undefined || snapshot === undefined) return undefined;
  return { uri, lineOf: snapshotLineOf(await readFile(snapshot, 'utf8')) };
}
