import type { AnalyzeOptions } from '../analyze.js';
import type { Catalog } from '../catalog/catalog.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';
import { terminalSafe } from '../terminal-text.js';
import { displayRoot, scanRepositories } from './scan.js';

/**
 * The org analysed when only `--repo` is given (a pull-request check): empty, with `entities`
 * and `scorecards` present so the report does not claim that they could not be read.
 */
export function repositoryOnlySnapshot(dirs: readonly string[]): OrgSnapshot {
  const name = dirs.map((dir) => displayRoot(dir) || '.').join(', ');
  return { format: SNAPSHOT_FORMAT, organization: { id: 'repository-only', name }, blueprints: [], entities: {}, scorecards: [] };
}

/**
 * Scan the `--repo` directories for `analyze`; skipped files are reported through `note`.
 * `ownPaths` are the run's own inputs and outputs (`--snapshot`, `--out`, …): never scanned, so a
 * repository that keeps them (the CI recipe's `ci/` and `audit/`) gives the same findings every run.
 */
export async function repositoryFindings(
  dirs: readonly string[],
  catalog: Catalog,
  note?: (line: string) => void,
  ownPaths: readonly (string | undefined)[] = [],
  ignore: readonly string[] = [],
): Promise<Pick<AnalyzeOptions, 'extraFindings' | 'extraIncomplete'>> {
  if (dirs.length === 0) return {};
  const scan = await scanRepositories(dirs, { catalog, ownPaths: ownPaths.filter((path): path is string => path !== undefined), ignore });
  for (const line of scan.notes) note?.(`note: ${terminalSafe(line)}\n`);
  return { extraFindings: scan.findings, extraIncomplete: scan.incomplete };
}
