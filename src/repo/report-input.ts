import type { AnalyzeOptions } from '../analyze.js';
import type { Catalog } from '../catalog/catalog.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';
import { settleRepositoryMappings } from './mapping-files.js';
import { displayRoots, scanRepositories } from './scan.js';

/**
 * The org analysed when only `--repo` is given (a pull-request check): empty, with `entities`
 * and `scorecards` present so the report does not claim that they could not be read.
 */
export function repositoryOnlySnapshot(dirs: readonly string[]): OrgSnapshot {
  const name = displayRoots(dirs).map((root) => root || '.').join(', ');
  return { format: SNAPSHOT_FORMAT, organization: { id: 'repository-only', name }, blueprints: [], entities: {}, scorecards: [] };
}

/**
 * Scan the `--repo` directories for `analyze`: findings, gaps, the scan's notes (kept in
 * report.notes, so the page and summary.md show them), and the org's git integrations whose
 * mapping the scan holds, settled by that file.
 * `ownPaths` are the run's own inputs and outputs (`--snapshot`, `--out`, …): never scanned, so a
 * repository that keeps them (the CI recipe's `ci/` and `audit/`) gives the same findings every run.
 */
export async function repositoryFindings(
  dirs: readonly string[],
  catalog: Catalog,
  ownPaths: readonly (string | undefined)[] = [],
  ignore: readonly string[] = [],
): Promise<Pick<AnalyzeOptions, 'extraFindings' | 'extraIncomplete' | 'extraNotes' | 'reviseDrafts'>> {
  if (dirs.length === 0) return {};
  const scan = await scanRepositories(dirs, { catalog, ownPaths: ownPaths.filter((path): path is string => path !== undefined), ignore });
  return {
    extraFindings: scan.findings,
    extraIncomplete: scan.incomplete,
    extraNotes: scan.notes,
    reviseDrafts: (drafts) => settleRepositoryMappings(drafts, catalog, scan.mappingFiles),
  };
}
