import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { cspHash, scriptSafeJson } from '../../src/report/escape.js';
import { renderHtml } from '../../src/report/html.js';
import { finding, reportOf } from '../browser/synthetic-report.js';

const meta = { generatedAt: '2026-01-02T03:04:05.000Z', source: 'snapshot fixtures/demo-org.json' };
const golden = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;
const XSS = '<img src=x onerror=alert(1)></script><script>alert(2)</script>"\'';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const between = (html: string, open: string, close: string) => {
  const start = html.indexOf(open);
  const end = html.indexOf(close, start + open.length);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start + open.length, end);
};

describe('scriptSafeJson', () => {
  it('cannot close the script element it sits in, and parses back to the same value', () => {
    const value = { title: XSS, more: 'a & b > c \u2028' };
    const text = scriptSafeJson(JSON.stringify(value));
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderHtml', () => {
  const html = renderHtml(golden, meta);

  it('allows only its own inline script and style, by hash, and loads nothing', () => {
    // The attribute is HTML-escaped like any other; the browser reads it decoded.
    const csp = between(html, '<meta http-equiv="Content-Security-Policy" content="', '">')
      .replace(/&#x27;/g, "'")
      .replace(/&#x3D;/g, '=');
    const script = between(html, '<script>', '</script>');
    const style = between(html, '<style>', '</style>');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).not.toContain('unsafe-inline');
    expect(cspHash('x')).toBe(sha('x'));
    // No reference to anything outside the file: no http(s) URL, no src attribute, no stylesheet link.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/\ssrc=/);
    expect(html).not.toMatch(/<link\b/);
  });

  it('is a pure function of the report and the metadata', () => {
    expect(renderHtml(golden, meta)).toBe(html);
    expect(renderHtml(golden, { ...meta, generatedAt: '2027-05-06T07:08:09Z' })).toContain('2027-05-06 07:08 UTC');
  });

  it('carries every finding in the embedded data', () => {
    const data = JSON.parse(between(html, '<script type="application/json" id="report-data">', '</script>'));
    expect(data.findings.map((f: { id: string }) => f.id)).toEqual(golden.findings.map((f) => f.id));
    expect(data.organization).toEqual(golden.organization);
  });

  it('escapes org values in the markup and in the embedded JSON', () => {
    const report = reportOf(
      [finding({ category: 'page-widget', resource: { type: 'page', identifier: XSS, title: XSS }, location: XSS, evidence: XSS })],
      { id: `org${XSS}`, name: XSS },
    );
    const out = renderHtml(report, { ...meta, source: `snapshot ${XSS}` });
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    // Exactly two script elements open and close: the data and the code; the payload adds none.
    expect(out.match(/<script/g)).toHaveLength(2);
    expect(out.match(/<\/script>/g)).toHaveLength(2);
  });

  it('renders an empty report (strict mode: the view model fills every key)', () => {
    const out = renderHtml(reportOf([]), meta);
    expect(out).toContain('No findings: the migration changes nothing here');
    expect(out).not.toContain('Your repositories');
  });

  it('shows the gate result, incomplete items and stale baseline ids', () => {
    const report: Report = {
      ...reportOf([]),
      incomplete: [{ resource: 'page sre', reason: '403' }],
      gate: { failOn: 'any', result: 'failed', failing: 3, staleBaselineIds: ['deadbeef'] },
    };
    const out = renderHtml(report, meta);
    expect(out).toContain('Gate failed');
    expect(out).toContain('3 findings over the threshold');
    expect(out).toContain('<code>deadbeef</code>');
    expect(out).toMatch(/Incomplete: \d+ items? could not be read/);
  });
});

describe('report.css colours', () => {
  // WCAG 2 relative luminance and contrast ratio.
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
  };
  const css = readFileSync('templates/report.css', 'utf8');
  const schemes = [...css.matchAll(/:root \{([^}]*)\}/g)].map((m) => Object.fromEntries([...(m[1] ?? '').matchAll(/--([a-z-]+): (#[0-9a-f]{6})/g)].map((v) => [v[1], v[2]])));

  it('keep text at 4.5:1 or better on every background, light, dark and print', () => {
    expect(schemes.length).toBe(3);
    for (const vars of schemes) {
      for (const fg of ['fg', 'muted', 'auto', 'manual', 'none', 'unaffected', 'bad', 'focus']) {
        for (const bg of ['bg', 'panel']) {
          const [a, b] = [vars[fg] ?? schemes[0]?.[fg], vars[bg] ?? schemes[0]?.[bg]];
          expect(contrast(a ?? '', b ?? ''), `--${fg} on --${bg}: ${a} on ${b}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    }
  });
});

describe('renderHtml: notes', () => {
  it('lists report.notes in a Notes section, escaped like everything else, and has none without notes', () => {
    const withNotes = renderHtml({ ...golden, notes: [`pages[0].widgets[0].title: expected a string, got ${XSS}`, 'teams[1].name: expected a string, got number 5'] }, meta);
    const section = between(withNotes, '<details class="notes"', '</details>');
    expect(section).toContain('<code>teams[1].name: expected a string, got number 5</code>');
    expect(section).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;&lt;/script&gt;&lt;script&gt;');
    expect(section).not.toContain('<img');
    expect(renderHtml(golden, meta)).not.toContain('class="notes"');
  });
});
