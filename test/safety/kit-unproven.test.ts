import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { buildFixKit } from '../../src/fix/build-fix-kit.js';
import { locateOrgTarget } from '../../src/fix/org-rewrite.js';
import { readFindingFiles } from '../../src/fix/write-fixes.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import type { Finding, Report } from '../../src/model/finding.js';
import { repositoryFindings } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { useJqEngine } from '../support/jq-engine.js';

/*
 * Issue 38 item 12: the kit never writes a rewrite that is not proven (docs/formats.md, the report), in an org
 * resource, predicted-org.json, repo.patch or --fix's files; the same report with the rewrites
 * proven shows each of them written, so the test cannot pass by writing nothing.
 */
const jq = useJqEngine();
const TEAMS_MAP = { 'Platform Team': 'platform', Payments: 'payments', 'SRE On-Call': 'sre_oncall', 'Data Science': 'data_science' };

async function kitOf(mark: (finding: Finding) => Finding) {
  const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'), { teamsMap: TEAMS_MAP, jq });
  const analyzed = analyze(catalog, await repositoryFindings(['fixtures/repo'], catalog));
  const report: Report = { ...analyzed, findings: analyzed.findings.map(mark) };
  const kit = buildFixKit({ catalog, report, jq, repoFiles: await readFindingFiles(report, ['fixtures/repo']) });
  return { report, kit };
}

/** Findings the migration itself or the data-migration files fix: no value is rewritten for them. */
const MIGRATION_MADE = new Set(['ownership-direct', 'ownership-inherited', 'team-relation-removed', 'relation-ownership', 'team-permission-identifiers']);
const suggested = (finding: Finding): Finding =>
  finding.rewrite === undefined || MIGRATION_MADE.has(finding.category) ? finding : { ...finding, rewriteProof: 'suggested', suggestion: `${finding.suggestion} This rewrite is a suggestion, not proven: it differs for a team named "x".` };

describe('the fix kit writes only proven rewrites', () => {
  it('proven: org resources, predicted-org.json and repo.patch carry the rewrites', async () => {
    const { report, kit } = await kitOf((finding) => finding);
    const rewritten = report.findings.filter((finding) => finding.rewrite !== undefined);
    const resolved = new Set(kit.files.flatMap((file) => file.findings));
    expect(rewritten.filter((finding) => resolved.has(finding.id)).length).toBeGreaterThan(10);
    expect(kit.files.some((file) => file.kind === 'resource')).toBe(true);
    expect(kit.patched.length).toBeGreaterThan(0);
  });
  it('suggested: no file resolves them, --fix has nothing to write, and each is unresolved saying why', async () => {
    const proven = await kitOf((finding) => finding);
    const { report, kit } = await kitOf(suggested);
    const unproven = report.findings.filter((finding) => finding.rewriteProof === 'suggested');
    expect(unproven.length).toBeGreaterThan(10);
    const ids = new Set(unproven.map((finding) => finding.id));
    for (const file of kit.files) expect(file.findings.filter((id) => ids.has(id)), file.path).toEqual([]);
    // What --fix would write (and repo.patch holds) adds none of their rewrites to any file.
    for (const finding of unproven.filter((f) => f.resource.type === 'file')) {
      for (const file of kit.patched) expect(file.after.split(finding.rewrite!).length, `${finding.id} in ${file.path}`).toBe(file.before.split(finding.rewrite!).length);
    }
    expect(kit.patched.length).toBeLessThan(proven.kit.patched.length);
    // predicted-org.json is the org as it is for every unproven value: where the proven kit changed it, this one did not.
    const predicted = (k: typeof kit) => k.files.find((file) => file.kind === 'predicted-org')!.content;
    expect(predicted(kit)).not.toBe(predicted(proven.kit));
    // At each unproven finding's own place the predicted org keeps a value that is not the rewrite.
    const valueIn = (text: string, finding: Finding) => {
      const org = JSON.parse(text) as OrgSnapshot;
      const target = locateOrgTarget(org, finding);
      return target?.path.reduce<unknown>((at, segment) => (at as Record<string | number, unknown> | undefined)?.[segment], target.record);
    };
    const isRewrite = (value: unknown, finding: Finding) => value === finding.rewrite || JSON.stringify(value) === finding.rewrite;
    const orgFindings = unproven.filter((f) => f.resource.type !== 'file');
    // The proven kit put the rewrite there (so the place is found), the unproven one did not.
    const provenPlaces = orgFindings.filter((finding) => isRewrite(valueIn(predicted(proven.kit), finding), finding));
    expect(provenPlaces.length).toBeGreaterThan(5);
    for (const finding of provenPlaces) expect(isRewrite(valueIn(predicted(kit), finding), finding), finding.id).toBe(false);
    const missing = new Map(kit.unresolved.map((u) => [u.id, u.missing]));
    for (const finding of unproven) expect(missing.get(finding.id), finding.id).toBe('a rewrite proven to keep what it does: the one suggested was not (it differs for a team named "x"), so a person must check it');
  });
});
