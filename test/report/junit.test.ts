import { describe, expect, it } from 'vitest';
import { createBaseline } from '../../src/baseline/baseline.js';
import { gateReport } from '../../src/gate-run.js';
import type { Report } from '../../src/model/finding.js';
import { renderJunit } from '../../src/report/junit.js';
import { escapeXmlAttribute, escapeXmlText } from '../../src/report/xml.js';
import { demoReport, FILE_FINDING } from '../ci/helpers.js';

async function gated(report: Report, accept = 0): Promise<Report> {
  const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
  baseline.accepted = baseline.accepted.slice(0, accept);
  return (await gateReport(report, { failOn: 'manual' }, baseline, {})).report;
}

const count = (xml: string, pattern: RegExp) => xml.match(pattern)?.length ?? 0;
const attribute = (xml: string, element: string, name: string) => new RegExp(`<${element} [^>]*${name}="([^"]*)"`).exec(xml)?.[1];

describe('renderJunit', () => {
  it('has one testsuite per category with findings and one testcase per finding', async () => {
    const report = await gated(demoReport());
    const xml = renderJunit(report);
    expect(count(xml, /<testsuite /g)).toBe(Object.keys(report.summary.byCategory).length);
    expect(count(xml, /<testcase /g)).toBe(report.findings.length);
    expect(attribute(xml, 'testsuites', 'tests')).toBe(String(report.findings.length));
    expect(xml).toContain('<testsuite name="tma/page-widget: Page widget refers to teams" tests="5" failures="5" errors="0" skipped="0">');
  });

  it('fails the testcases that fail the gate, skips accepted ones, passes the rest', async () => {
    const report = await gated(demoReport(), 3);
    const xml = renderJunit(report);
    expect(count(xml, /<failure /g)).toBe(report.gate?.failing);
    expect(attribute(xml, 'testsuites', 'failures')).toBe(String(report.gate?.failing));
    expect(count(xml, /<skipped /g)).toBe(3);
    expect(attribute(xml, 'testsuites', 'skipped')).toBe('3');
    expect(xml).toContain('<skipped message="accepted in the baseline by alice: accepted at baseline creation"/>');
    // automatic findings pass under the default gate, but are still listed
    expect(xml).toMatch(/<testcase classname="tma\.ownership-direct" name="blueprint domain: ownership">\n {6}<system-out>/);
  });

  it('names a repository file finding by its place once, with file and line attributes (issue 42)', async () => {
    const xml = renderJunit(await demoReport([FILE_FINDING]));
    expect(xml).toContain('<testcase classname="tma.external-ownership" name="infra/port blueprints.tf:12" file="infra/port blueprints.tf" line="12">');
    // The path is not said twice in a name; org findings keep their resource in the name and get no file.
    for (const name of xml.matchAll(/<testcase [^>]*name="([^"]*)"/g)) expect(name[1]!.split('infra/port blueprints.tf').length, name[1]).toBeLessThanOrEqual(2);
    expect(xml).toMatch(/<testcase classname="tma\.ownership-direct" name="blueprint domain: ownership">/);
  });

  it('errors one testcase per item that could not be read', async () => {
    const report = await gated({ ...demoReport(), incomplete: [{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403 <forbidden>' }] });
    const xml = renderJunit(report);
    expect(attribute(xml, 'testsuites', 'errors')).toBe('1');
    expect(xml).toContain('<error message="HTTP 403 &lt;forbidden&gt;" type="incomplete">');
  });

  it('escapes org values, so a hostile title stays text', async () => {
    const report = demoReport();
    const target = report.findings.find((f) => f.kind === 'manual');
    if (!target) throw new Error('manual finding expected');
    target.resource = { ...target.resource, identifier: '<img src=x onerror=alert(1)> & "q"' };
    target.evidence = ']]></failure><script>alert(1)</script>\u0007';
    const xml = renderJunit(await gated(report));
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0007');
    expect(xml).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;');
    // Every tag left is one of ours.
    const tags = new Set([...xml.matchAll(/<\/?([a-zA-Z?][\w-]*)/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(['?xml', 'failure', 'system-out', 'testcase', 'testsuite', 'testsuites']);
  });

  it('escapes every occurrence, not just the first', () => {
    expect(escapeXmlText('a<b<c&&')).toBe('a&lt;b&lt;c&amp;&amp;');
    expect(escapeXmlAttribute('line 1\nline 2\tx')).toBe('line 1&#10;line 2&#9;x');
  });
});
