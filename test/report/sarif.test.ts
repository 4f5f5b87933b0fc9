import { describe, expect, it } from 'vitest';
import { createBaseline } from '../../src/baseline/baseline.js';
import { gateReport } from '../../src/gate-run.js';
import { CATEGORY_DOCS } from '../../src/model/category-docs.js';
import { CATEGORIES, type Finding, type Report } from '../../src/model/finding.js';
import { FINGERPRINT_KEY, renderSarif, sarifLevel } from '../../src/report/sarif.js';
import { demoReport, FILE_FINDING } from '../ci/helpers.js';
import { validate } from '../ci/json-schema.js';
import { SARIF_SCHEMA } from '../ci/schemas.js';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } }; logicalLocations?: { name: string; fullyQualifiedName: string; kind: string }[] }[];
  partialFingerprints: Record<string, string>;
  suppressions?: { kind: string; status: string; justification: string }[];
}
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string; shortDescription: { text: string }; help: { text: string; markdown: string } }[] } };
    invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[];
    results: SarifResult[];
  }[];
}

async function gatedDemo(accept = 0): Promise<Report> {
  const report = demoReport([FILE_FINDING]);
  const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
  baseline.accepted = baseline.accepted.slice(0, accept);
  return (await gateReport(report, { failOn: 'manual' }, baseline, {})).report;
}

/** Org findings are results only when placed in a file: by default the snapshot `org.json`. */
const sarifOf = (report: Report, orgArtifactUri: string | null = 'org.json', orgLineOf?: (f: Finding) => number): SarifLog =>
  JSON.parse(renderSarif(report, orgArtifactUri === null ? { toolVersion: '9.9.9' } : { toolVersion: '9.9.9', orgArtifactUri, ...(orgLineOf && { orgLineOf }) })) as SarifLog;

describe('renderSarif', () => {
  it('validates against the shipped SARIF 2.1.0 schema, with and without an org artifact', async () => {
    const report = await gatedDemo(2);
    expect(validate(SARIF_SCHEMA, sarifOf(report))).toEqual([]);
    expect(validate(SARIF_SCHEMA, sarifOf(report, 'ci/org snapshot.json'))).toEqual([]);
  });

  it('the schema catches a property SARIF does not have', async () => {
    const log = sarifOf(await gatedDemo()) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    const first = log.runs[0]?.results[0];
    if (!first) throw new Error('results expected');
    first.severity = 'high';
    expect(validate(SARIF_SCHEMA, log).map((e) => e.path)).toContain('$.runs[0].results[0].severity');
  });

  it('has one namespaced rule per category, with the category docs as help', async () => {
    const [run] = sarifOf(await gatedDemo()).runs;
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual(CATEGORIES.map((c) => `tma/${c}`));
    const pageWidget = rules.find((r) => r.id === 'tma/page-widget');
    expect(pageWidget?.shortDescription.text).toBe(CATEGORY_DOCS['page-widget'].title);
    expect(pageWidget?.help.text).toContain(CATEGORY_DOCS['page-widget'].fix);
    expect(run?.tool.driver.version).toBe('9.9.9');
  });

  it('has one result per finding, in report order, each fingerprinted with the finding id and pointing at its rule', async () => {
    const report = await gatedDemo();
    const results = sarifOf(report).runs[0]?.results ?? [];
    expect(results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).toEqual(report.findings.map((f) => f.id));
    for (const [index, result] of results.entries()) {
      const finding = report.findings[index];
      expect(result.ruleId).toBe(`tma/${finding?.category}`);
      expect(CATEGORIES[result.ruleIndex]).toBe(finding?.category);
    }
  });

  it('puts file findings at their file and line, so code scanning annotates the line', async () => {
    const results = sarifOf(await gatedDemo()).runs[0]?.results ?? [];
    const file = results.find((r) => r.ruleId === 'tma/external-ownership');
    expect(file?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'infra/port%20blueprints.tf' }, region: { startLine: 12 } } }]);
  });

  it('gives org findings a logical location, and the snapshot as artifact at their line; without a file they are no results', async () => {
    const report = await gatedDemo();
    const finding = report.findings.find((f) => f.resource.type === 'page');
    const pick = (log: SarifLog) => log.runs[0]?.results.find((r) => r.partialFingerprints[FINGERPRINT_KEY] === finding?.id);
    const logical = { name: finding?.resource.identifier, fullyQualifiedName: `page/${finding?.resource.identifier}/${finding?.location}`, kind: 'resource' };
    // Code scanning rejects a whole upload when one result has no file: a live read's org findings are left out, and counted.
    const bare = sarifOf(report, null);
    expect(bare.runs[0]?.results.filter((r) => r.locations[0]?.physicalLocation === undefined)).toEqual([]);
    expect(bare.runs[0]?.results.length).toBe(report.findings.filter((f) => f.resource.type === 'file').length);
    const anchored = pick(sarifOf(report, 'ci/org-snapshot.json', () => 42));
    expect(anchored?.locations[0]?.logicalLocations?.[0]).toMatchObject(logical);
    expect(anchored?.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: 'ci/org-snapshot.json' }, region: { startLine: 42 } });
    expect(anchored?.message.text).toContain(`page ${finding?.resource.identifier}`);
  });

  it('says where the unplaced org findings came from: "read live" only for a live read (issue 31)', async () => {
    const report = await gatedDemo();
    const note = (meta: Parameters<typeof renderSarif>[1]) =>
      (JSON.parse(renderSarif(report, meta)) as SarifLog).runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text).join(' ');
    const orgFindings = report.findings.filter((f) => f.resource.type !== 'file').length;
    expect(note({ toolVersion: '1', orgOrigin: 'live' })).toContain(`${orgFindings} findings about the org read live have no place in a file`);
    const demo = note({ toolVersion: '1', orgOrigin: 'demo' });
    expect(demo).not.toContain('read live');
    expect(demo).toContain(`${orgFindings} findings about the bundled demo org have no place in a file`);
    const elsewhere = note({ toolVersion: '1', orgOrigin: 'snapshot-elsewhere' });
    expect(elsewhere).not.toContain('read live');
    expect(elsewhere).toContain('read from a snapshot outside the working directory');
    expect(elsewhere).toContain('Run from the folder that holds the snapshot');
  });

  it('leaves baselined findings out by default, since code scanning ignores suppressions, and says so (issue 42)', async () => {
    const report = await gatedDemo(2);
    const run = sarifOf(report).runs[0]!;
    expect(run.results).toHaveLength(report.findings.length - 2);
    expect(run.results.filter((r) => r.suppressions)).toEqual([]);
    expect(run.invocations[0]?.toolExecutionNotifications.map((n) => n.message.text)).toContain(
      '2 findings accepted in the baseline are left out (code scanning ignores suppressions, so each would stay an open alert); summary.md lists them, and --sarif-accepted keeps them as suppressed results.',
    );
    // Nothing accepted, nothing said.
    expect(sarifOf(await gatedDemo(0)).runs[0]!.invocations[0]?.toolExecutionNotifications.map((n) => n.message.text).join(' ')).not.toContain('accepted');
  });

  it('with --sarif-accepted keeps baselined findings, marked as externally suppressed with the reason', async () => {
    const report = await gatedDemo(2);
    const results = (JSON.parse(renderSarif(report, { toolVersion: '9.9.9', orgArtifactUri: 'org.json', includeAccepted: true })) as SarifLog).runs[0]?.results ?? [];
    expect(results).toHaveLength(report.findings.length);
    const suppressed = results.filter((r) => r.suppressions);
    expect(suppressed).toHaveLength(2);
    expect(suppressed[0]?.suppressions).toEqual([{ kind: 'external', status: 'accepted', justification: 'accepted at baseline creation (accepted by alice)' }]);
  });

  it('levels come from kind and verdict', () => {
    expect(sarifLevel({ kind: 'automatic' })).toBe('note');
    expect(sarifLevel({ kind: 'manual', verdict: 'breaks' })).toBe('error');
    expect(sarifLevel({ kind: 'manual', verdict: 'review' })).toBe('warning');
    expect(sarifLevel({ kind: 'manual' })).toBe('warning');
    expect(sarifLevel({ kind: 'manual', verdict: 'unaffected' })).toBe('note');
  });

  it('reports an incomplete run as not successful, with what could not be read', async () => {
    const report = { ...(await gatedDemo()), incomplete: [{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403' }] };
    const invocation = sarifOf(report).runs[0]?.invocations[0];
    expect(invocation?.executionSuccessful).toBe(false);
    expect(invocation?.toolExecutionNotifications[0]?.message.text).toContain('page sre_dashboard permissions: HTTP 403');
  });

  it('is the same text for the same report, and sorted even when the input is not', async () => {
    const report = await gatedDemo(1);
    const shuffled = { ...report, findings: [...report.findings].reverse() };
    expect(renderSarif(shuffled, { toolVersion: '1', orgArtifactUri: 'org.json' })).toBe(renderSarif(report, { toolVersion: '1', orgArtifactUri: 'org.json' }));
  });
});
