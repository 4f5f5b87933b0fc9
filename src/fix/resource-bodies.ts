import type { JqEngine } from '../jq/engine.js';
import { compareText } from '../compare-text.js';
import { copyJson, type JsonObject } from '../model/json.js';
import type { Finding } from '../model/finding.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import type { PredictedOrg } from './predicted-org.js';
import { jsonText, streamedFile, type FixFile, type UnresolvedFix } from './fix-kit.js';
import { applyOrgRewrite, locateOrgTarget, type OrgTarget } from './org-rewrite.js';

/**
 * `org/<type>/<identifier>.json`: the whole corrected body of every org resource with a breaking
 * finding, every rewrite of that resource applied, ready for the builder's JSON editor. The body is
 * taken from `after` (the predicted org) when given, with the outcome of each rewrite put into it:
 * pasted after the migration, a body as read today would put back what the migration removed
 * (`teamInheritance`, a relation to `_team`, titles in permissions). A breaking finding whose
 * rewrite cannot be applied is returned as unresolved.
 */
export function resourceBodies(snapshot: OrgSnapshot, findings: readonly Finding[], jq: JqEngine | undefined, after?: PredictedOrg): { files: FixFile[]; unresolved: UnresolvedFix[] } {
  // Each finding with its path in the record, located once.
  const groups = new Map<string, { record: JsonObject; findings: { finding: Finding; path: OrgTarget['path'] }[]; breaks: boolean }>();
  for (const finding of findings) {
    if (finding.kind !== 'manual' || finding.resource.type === 'file') continue;
    const target = locateOrgTarget(snapshot, finding);
    if (!target) continue;
    let group = groups.get(target.file);
    if (!group) groups.set(target.file, (group = { record: target.record, findings: [], breaks: false }));
    group.findings.push({ finding, path: target.path });
    if (finding.verdict === 'breaks') group.breaks = true;
  }
  const files: FixFile[] = [];
  const unresolved: UnresolvedFix[] = [];
  for (const [file, group] of [...groups].sort(([a], [b]) => compareText(a, b))) {
    if (!group.breaks) continue;
    // Copied only for a body that is written and no predicted org holds (the 100x org's 20,000 were garbage beside it).
    const copy = after === undefined ? copyJson(group.record) : undefined;
    const applied: string[] = [];
    for (const { finding, path } of group.findings) {
      const outcome = copy ? applyOrgRewrite(copy, path, finding, jq) : after!.outcomes.get(finding)!;
      if (outcome.applied) applied.push(finding.id);
      else if (finding.verdict === 'breaks') unresolved.push({ id: finding.id, missing: outcome.missing });
    }
    const body = copy ?? locateOrgTarget(after!.org, group.findings[0]!.finding)!.record;
    // Its text made as it is written: the 100x org's 20,094 bodies (14 MB) were held until the last was written.
    if (applied.length > 0) files.push(streamedFile(file, 'resource', applied, () => [jsonText(body)]));
  }
  return { files, unresolved };
}
