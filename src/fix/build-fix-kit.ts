import type { Catalog } from '../catalog/catalog.js';
import { compareText } from '../compare-text.js';
import type { JqEngine } from '../jq/engine.js';
import type { Finding, Report } from '../model/finding.js';
import { dataMigrationFiles, relationMoves } from './data-migration.js';
import { fixReadme } from './fix-readme.js';
import { missingFix, streamedFile, type FixFile, type FixKit, type UnresolvedFix } from './fix-kit.js';
import { predictedOrgJson, predictOrg } from './predicted-org.js';
import type { PatchRepo } from './apply-root.js';
import { repoPatch, type RepoFile } from './repo-patch.js';
import { resourceBodies } from './resource-bodies.js';

interface FixKitInput {
  catalog: Catalog;
  report: Report;
  jq?: JqEngine;
  /** The text of every repository file a finding points at, as read at the edge (path as in the findings). */
  repoFiles?: readonly RepoFile[];
  /** Where each `--repo` directory's patch is applied from (src/fix/apply-root.ts). */
  repos?: readonly PatchRepo[];
  /** Called once the org is predicted, the step that leaves the most garbage (the run collects it there when it is much). */
  settle?: () => unknown;
}

/** Every file of the kit, pure: the writer puts them on disk. */
export function buildFixKit(input: FixKitInput): FixKit {
  const { catalog, report, jq } = input;
  const findings = report.findings;
  const moves = relationMoves(catalog, findings);
  const predicted = predictOrg(catalog, findings, moves, jq);
  input.settle?.();
  const bodies = resourceBodies(catalog.snapshot, findings, jq, predicted);
  const patch = repoPatch(findings, input.repoFiles ?? [], input.repos ?? []);
  const files: FixFile[] = [...bodies.files, ...patch.files, ...dataMigrationFiles(moves)];
  const resolved = [...new Set(files.flatMap((file) => file.findings))];
  files.push(streamedFile('predicted-org.json', 'predicted-org', resolved.sort(), () => predictedOrgJson(predicted)));
  const listed = [...bodies.unresolved, ...patch.unresolved];
  const unresolved = [...listed, ...uncovered(findings, files, listed)].sort((a, b) => compareText(a.id, b.id));
  files.push(...fixReadme(files, moves, unresolved, report, patch.applyAt));
  return { files, unresolved, patched: patch.patched };
}

/** Breaking findings no file resolves and no step listed: said so, so the kit never drops one silently. */
function uncovered(findings: readonly Finding[], files: readonly FixFile[], listed: readonly UnresolvedFix[]): UnresolvedFix[] {
  const covered = new Set([...files.flatMap((file) => file.findings), ...listed.map((u) => u.id)]);
  return findings
    .filter((finding) => finding.verdict === 'breaks' && !covered.has(finding.id))
    .map((finding) => ({ id: finding.id, missing: `a fix the kit could not place (the ${finding.resource.type} ${JSON.stringify(finding.resource.identifier)} was not found as the finding describes it): ${missingFix(finding)}` }));
}
