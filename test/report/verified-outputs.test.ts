import { describe, expect, it } from 'vitest';
import { createBaseline } from '../../src/baseline/baseline.js';
import { gateReport } from '../../src/gate-run.js';
import type { Report } from '../../src/model/finding.js';
import { computeProgress } from '../../src/progress/compute-progress.js';
import { renderJson } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { cell, renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';
import { demoReport } from '../ci/helpers.js';
import { validate } from '../ci/json-schema.js';
import { REPORT_SCHEMA } from '../ci/schemas.js';

/** docs/formats.md `verified`: references checked and fine are `verified`, never listed as a problem, never failing a gate. */
describe('verified references in every output', () => {
  const report = demoReport();
  const verified = report.verified ?? [];

  it('the demo org has some, and none of them is also a finding', () => {
    expect(verified.length).toBeGreaterThan(0);
    expect(verified.every((f) => f.verdict === 'unaffected')).toBe(true);
    const ids = new Set(report.findings.map((f) => f.id));
    expect(verified.filter((f) => ids.has(f.id))).toEqual([]);
    expect(report.summary.manual + report.summary.automatic).toBe(report.findings.length);
  });

  it('SARIF and JUnit carry one result or testcase per finding and none for a verified reference', () => {
    const sarif = JSON.parse(renderSarif(report, { toolVersion: '0.0.0', orgArtifactUri: 'org.json' })) as { runs: { results: { partialFingerprints: Record<string, string> }[] }[] };
    const fingerprints = sarif.runs[0]!.results.map((r) => Object.values(r.partialFingerprints)[0]);
    expect(fingerprints).toHaveLength(report.findings.length);
    for (const finding of verified) expect(fingerprints).not.toContain(finding.id);
    const junit = renderJunit(report);
    expect(junit.match(/<testcase /g)).toHaveLength(report.findings.length);
    for (const finding of verified) expect(junit).not.toContain(finding.location);
  });

  it('the Markdown summary counts them in one line and lists none of them', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(`${verified.length === 1 ? '1 team reference' : `${verified.length} team references`} checked and fine (nothing to do): see report.json \`verified\`.`);
    // Top items are written as `cell(location)`; before verified existed, an unaffected one could be listed.
    for (const finding of verified) expect(md).not.toContain(cell(finding.location));
    expect(md).toContain(cell(report.findings.find((f) => f.kind === 'manual' && f.verdict === 'breaks')!.location));
  });

  it('a baseline entry of a now verified finding is not stale: it is said apart, and fails nothing', async () => {
    const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
    const id = verified[0]!.id;
    baseline.accepted.push({ id, reason: 'was review before the migration', by: 'bob' }, { id: '0000000000000000', reason: 'gone', by: 'bob' });
    const { report: gated, notes } = await gateReport(report, { failOn: 'manual' }, baseline, {});
    expect(gated.gate).toMatchObject({ result: 'passed', failing: 0, staleBaselineIds: ['0000000000000000'], verifiedBaselineIds: [id] });
    expect(notes.some((line) => line.includes('stale') && line.includes(id))).toBe(false);
    expect(notes).toContainEqual(expect.stringContaining(`1 baseline entry accepts a finding now verified (checked, nothing to do; remove, or rewrite with --write-baseline): ${id}`));
  });

  it('the schema describes verified, progress and verifiedBaselineIds, and the report validates', async () => {
    const previous: Report = { ...report, findings: [...report.findings, ...verified] };
    const withProgress: Report = { ...report, progress: computeProgress(previous, report, '2026-01-01T00:00:00.000Z') };
    const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
    baseline.accepted.push({ id: verified[0]!.id, reason: 'r', by: 'b' });
    const { report: gated } = await gateReport(withProgress, { failOn: 'manual' }, baseline, {});
    const document = JSON.parse(renderJson(gated)) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(expect.arrayContaining(['verified', 'progress']));
    expect(gated.progress).toMatchObject({ open: report.findings.length, new: 0, fixed: verified.map((f) => expect.objectContaining({ id: f.id, now: 'verified' })) });
    expect(validate(REPORT_SCHEMA, document)).toEqual([]);
    (document.progress as { open: unknown }).open = 'three';
    expect(validate(REPORT_SCHEMA, document).map((e) => e.path)).toContain('$.progress.open');
  });
});
