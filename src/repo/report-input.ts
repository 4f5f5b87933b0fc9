import type { AnalyzeOptions } from '../analyze.js';
import type { Catalog } from '../catalog/catalog.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';
import { settleRepositoryMappings } from './mapping-files.js';
import { displayRoots, REPOSITORY_ONLY_ORG, scanRepositories, type RepoScan } from './scan.js';

/**
 * A repository-only run's stand-in snapshot with the teams the files name: the catalog the fix kit
 * predicts the org from, so predicted-org.json holds them.
 */
export function withDescribedTeams(snapshot: OrgSnapshot, described: RepoScan['describedTeams']): OrgSnapshot {
  if (!described) return snapshot;
  return { ...snapshot, teams: described.teams, entities: { ...(snapshot.entities ?? {}), _team: described.teamEntities } };
}

/**
 * The org analysed when only `--repo` is given (a pull-request check): empty, with `entities`
 * and `scorecards` present so the report does not claim that they could not be read.
 */
export function repositoryOnlySnapshot(dirs: readonly string[]): OrgSnapshot {
  const name = displayRoots(dirs).map((root) => root || '.').join(', ');
  return { format: SNAPSHOT_FORMAT, organization: { id: REPOSITORY_ONLY_ORG, name }, blueprints: [], entities: {}, scorecards: [] };
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
  /** The run was given an org (`--snapshot`, live): it decides, even one predicted from a repository (the fix kit's predicted-org.json). */
  orgGiven?: boolean,
  /** `--max-file-size`: the largest file read whole (larger ones leave the run incomplete). */
  maxFileBytes?: number,
): Promise<Pick<AnalyzeOptions, 'extraFindings' | 'extraIncomplete' | 'extraNotes' | 'reviseDrafts'> & Pick<RepoScan, 'describedTeams'>> {
  if (dirs.length === 0) return {};
  const scan = await scanRepositories(dirs, { catalog, ownPaths: ownPaths.filter((path): path is string => path !== undefined), ignore, ...(orgGiven !== undefined && { orgGiven }), ...(maxFileBytes !== undefined && { maxFileBytes }) });
  return {
    extraFindings: scan.findings,
    extraIncomplete: scan.incomplete,
    extraNotes: scan.notes,
    reviseDrafts: (drafts) => settleRepositoryMappings(drafts, catalog, scan.mappingFiles),
    ...(scan.describedTeams && { describedTeams: scan.describedTeams }),
  };
}
