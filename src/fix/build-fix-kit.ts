import type { Catalog } from '../catalog/catalog.js';
import type { JqEngine } from '../jq/engine.js';
import type { Report } from '../model/finding.js';
import { dataMigrationFiles, relationMoves } from './data-migration.js';
import { fixReadme } from './fix-readme.js';
import { jsonText, type FixFile, type FixKit } from './fix-kit.js';
import { predictOrg } from './predicted-org.js';
import type { PatchRepo } from './apply-root.js';
import { repoPatch, type RepoFile } from './repo-patch.js';
import { resourceBodies } from './resource-bodies.js';

export interface FixKitInput {
  catalog: Catalog;
  report: Report;
  jq?: JqEngine;
  /** The text of every repository file a finding points at, as read at the edge (path as in the findings). */
  repoFiles?: readonly RepoFile[];
  /** Where each `--repo` directory's patch is applied from (src/fix/apply-root.ts). */
  repos?: readonly PatchRepo[];
  /** The kit's folder, absolute, for the README's commands. */
  dir?: string;
}

/** Every file of the kit, pure: the writer puts them on disk. */
export function buildFixKit(input: FixKitInput): FixKit {
  const { catalog, report, jq } = input;
  const findings = report.findings;
  const moves = relationMoves(catalog, findings);
  const predicted = predictOrg(catalog, findings, moves, jq);
  const bodies = resourceBodies(catalog.snapshot, findings, jq, predicted);
  const patch = repoPatch(findings, input.repoFiles ?? [], input.repos ?? []);
  const files: FixFile[] = [...bodies.files];
  files.push(...patch.files);
  files.push(...dataMigrationFiles(moves));
  const resolved = [...new Set(files.flatMap((file) => file.findings))];
  files.push({ path: 'predicted-org.json', kind: 'predicted-org', findings: resolved.sort(), content: jsonText(predicted) });
  const unresolved = [...bodies.unresolved, ...patch.unresolved].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  files.push(...fixReadme(files, moves, unresolved, report, { applyAt: patch.applyAt, ...(input.dir !== undefined && { dir: input.dir }) }));
  return { files, unresolved, patched: patch.patched };
}
