import { describe, expect, it } from 'vitest';
import { BASELINE_FORMAT, createBaseline } from '../../src/baseline/baseline.js';
import { gateReport } from '../../src/gate-run.js';
import type { Report } from '../../src/model/finding.js';
import { cell, renderMarkdown } from '../../src/report/markdown.js';
import { demoReport } from '../ci/helpers.js';

async function gated(report: Report, failOn: 'none' | 'manual' = 'manual', accept = 0, stale: string[] = []): Promise<Report> {
  const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
  baseline.accepted = [...baseline.accepted.slice(0, accept), ...stale.map((id) => ({ id, reason: 'r', by: 'b' }))];
  return (await gateReport(report, { failOn }, { format: BASELINE_FORMAT, accepted: baseline.accepted }, {})).report;
}

describe('renderMarkdown', () => {
  it('states the gate result and the counts by kind', async () => {
    const report = await gated(demoReport(), 'manual', 2);
    const md = renderMarkdown(report);
    // unaffected findings never fail the gate, and two are accepted by the baseline
    const unaffected = report.findings.filter((f) => f.kind === 'manual' && f.verdict === 'unaffected').length;
    const failing = report.summary.manual - unaffected - 2;
    expect(md).toContain(`**Gate: failed** (exit 1): ${failing} findings over \`--fail-on manual\`; 2 accepted in the baseline.`);
    expect(md).toContain(`| automatic (the migration does it) | ${report.summary.automatic} | 0 | 0 |`);
    expect(md).toContain(`| manual (a person must act) | ${report.summary.manual} | 2 | ${failing} |`);
  });

  it('has a row per category with findings', async () => {
    const report = await gated(demoReport());
    const md = renderMarkdown(report);
    for (const [category, n] of Object.entries(report.summary.byCategory)) {
      expect(md).toMatch(new RegExp(`\\(${category}\\) \\| (automatic|manual) \\| ${n} \\|`));
    }
  });

  it('lists the top manual items, worst verdict first, and says how many more there are', async () => {
    const report = await gated(demoReport());
    const md = renderMarkdown(report, { topItems: 3 });
    const rows = md.split('\n').filter((line) => /^\| [0-9]+ \|/.test(line));
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => /\| breaks(, fails the gate)? \|/.test(row))).toBe(true);
    // Four columns, and the items come before the count tables.
    expect(rows.every((row) => row.split(' | ').length === 4)).toBe(true);
    expect(md.indexOf('### Top manual items')).toBeLessThan(md.indexOf('| kind | findings |'));
    const failingManual = report.findings.filter((f) => f.kind === 'manual' && f.verdict !== 'unaffected').length;
    expect(md).toContain(`…and ${failingManual - 3} more`);
  });

  it('says when the gate passes and nothing manual is left', async () => {
    const report = demoReport();
    const md = renderMarkdown(await gated(report, 'manual', report.summary.manual));
    expect(md).toContain('**Gate: passed** (exit 0)');
    expect(md).toContain('No manual item is left to do: each is accepted in the baseline or judged unaffected.');
  });

  it('lists stale baseline entries and incomplete items', async () => {
    const report = await gated({ ...demoReport(), incomplete: [{ resource: 'entities', reason: 'HTTP 500' }] }, 'manual', 0, ['abcdef0123456789']);
    const md = renderMarkdown(report);
    expect(md).toContain('**Gate: incomplete** (exit 3)');
    expect(md).toContain('### Stale baseline entries');
    expect(md).toContain('- abcdef0123456789');
    expect(md).toContain('- entities: HTTP 500');
  });

  it('escapes org values in cells: no table breakage, no HTML, no links', async () => {
    const report = demoReport();
    report.organization = { ...report.organization, name: 'Acme | <img src=x onerror=alert(1)> [x](http://e.vil)' };
    const md = renderMarkdown(await gated(report));
    expect(md).toContain('Acme \\| &lt;img src=x onerror=alert\\(1\\)&gt; \\[x\\]\\(http://e.vil\\)');
    expect(md).not.toContain('<img');
    expect(cell('a\nb|c|d & e')).toBe('a b\\|c\\|d &amp; e');
  });
});

describe('renderMarkdown: notes', () => {
  it('counts report.notes, lists the first ones escaped, and says how many more', () => {
    const notes = Array.from({ length: 4 }, (_, index) => `pages[${index}].widgets: expected an array, got string "*x*"`);
    const md = renderMarkdown({ ...demoReport(), notes }, { topItems: 3 });
    expect(md).toContain('### Notes');
    expect(md).toContain('4 notes: values of the org of a shape this tool does not fully know');
    expect(md).toContain('expressions jq does not compile (they fail alike before and after the migration)');
    expect(md).toContain('- pages\\[0\\].widgets: expected an array, got string "\\*x\\*"');
    expect(md).toContain('- …and 1 more');
    expect(md).not.toContain('pages\\[3\\]');
    expect(renderMarkdown(demoReport())).not.toContain('### Notes');
  });
});

describe('renderMarkdown: counts agree with their nouns', () => {
  it('says "1 finding", "1 entity changes", "1 person loses", never "(s)" or "1 … need"', async () => {
    const one = demoReport().findings.find((f) => f.kind === 'manual' && f.verdict === 'breaks')!;
    const base = demoReport();
    const report: Report = {
      ...(await gated({ ...base, findings: [{ ...one, impact: { entities: { changed: 1, read: 3 }, users: { loses: 1, gains: 1 } } }] })),
      verified: [{ ...one, verdict: 'unaffected' }],
      notes: ['pages[0]: expected an array'],
      incomplete: [],
      // The kit's contents are counted by src/fix/kit-contents.ts; one file whose name is its description keeps them out of this check.
      fixes: { dir: 'fixes', files: [{ path: 'predicted-org.json', kind: 'predicted-org', findings: [one.id] }], unresolved: [{ id: 'x', missing: 'a teams map' }] },
    };
    const md = renderMarkdown(report);
    expect(md).not.toMatch(/\(s\)|\(es\)/);
    expect(md).toContain('**Gate: failed** (exit 1): 1 finding over `--fail-on manual`.');
    expect(md).toContain('1 team reference checked and fine (nothing to do)');
    expect(md).toContain('1 note: values of the org');
    expect(md).toContain('**Impact:** 1 finding measured on the org\'s data: 1 entity changes value or result; 1 person loses and 1 gains a permission');
    expect(md).toMatch(/holds 1 file that fixes 1 finding \(.*\); 1 breaking finding needs a person\./);
    const incomplete = renderMarkdown({ ...report, incomplete: [{ resource: 'entities', reason: 'HTTP 500' }], gate: { ...report.gate!, result: 'incomplete' } });
    expect(incomplete).toContain('**Gate: incomplete** (exit 3): 1 item could not be read; 1 finding over');
  });
});

describe('renderMarkdown: the top items table', () => {
  it('comes before every count, and keeps a long value to write whole: a cut value copied into the service would be wrong', async () => {
    const base = demoReport();
    const one = base.findings.find((f) => f.kind === 'manual' && f.verdict === 'breaks')!;
    const long = `.team | map(select(. == ${Array.from({ length: 30 }, (_, i) => `"team_${i}"`).join(' or . == ')})) | length > 0`;
    const md = renderMarkdown(await gated({ ...base, findings: [{ ...one, rewrite: long }] }));
    const row = md.split('\n').find((line) => line.startsWith('| 1 |'))!;
    expect(row).toContain(cell(long));
    expect(row.endsWith(`| ${cell(long)} |`)).toBe(true);
    expect(md.indexOf('### Top manual items')).toBeLessThan(md.indexOf('| kind | findings |'));
  });
});

describe('renderMarkdown: wording (issue 31)', () => {
  it('no "unaffected 0" row under "N checked and fine": unaffected references are counted there, not as manual items', async () => {
    const report = await gated(demoReport());
    expect(report.verified?.length).toBeGreaterThan(0);
    const md = renderMarkdown(report);
    expect(md).toContain('checked and fine (nothing to do)');
    expect(md).not.toMatch(/^\| unaffected \| 0 \|$/m);
    // The verdict rows still add up to the manual total.
    const rows = md.split('\n').filter((line) => /^\| (breaks|needs review|needs action) \| \d+ \|$/.test(line));
    expect(rows.reduce((sum, row) => sum + Number(/(\d+) \|$/.exec(row)![1]), 0)).toBe(report.summary.manual);
  });

  it('a top item with no computed value says what to do instead of a dash', async () => {
    const report = await gated(demoReport());
    const md = renderMarkdown(report, { topItems: 100 });
    const rows = md.split('\n').filter((line) => /^\| [0-9]+ \|/.test(line));
    const withoutRewrite = report.findings.filter((f) => f.kind === 'manual' && f.rewrite === undefined && !f.accepted);
    expect(withoutRewrite.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.endsWith('| — |'))).toBe(false);
    for (const f of withoutRewrite) {
      const row = rows.find((line) => line.includes(cell(`${f.resource.type} ${f.resource.identifier}: ${f.location}`)));
      expect(row, f.id).toBeDefined();
      expect(row!.endsWith(`| no value computed: ${cell(f.suggestion)} |`), row).toBe(true);
    }
  });
});
