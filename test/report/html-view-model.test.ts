import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { buildReportView, INLINE_PEOPLE, type ClientAccessLine } from '../../src/report/view-model.js';
import { splitFileLocation } from '../../src/file-location.js';
import { renderHtml } from '../../src/report/html.js';
import { finding, reportOf, syntheticReport } from '../browser/synthetic-report.js';

const meta = { generatedAt: '2026-01-02T03:04:05.000Z', source: 'snapshot fixtures/demo-org.json' };
const inlinePeople = (line: ClientAccessLine | undefined) => (line && 'people' in line ? line.people : undefined);

const golden = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;

describe('buildReportView', () => {
  it('lists the manual work first, breaking items before those to review, the automatic part last and folded, losing none', () => {
    const view = buildReportView(golden, meta);
    const [manual, repository, automatic] = view.client.sections;
    expect(automatic?.groups.map((g) => g.key)).toEqual([
      'category:ownership-direct',
      'category:ownership-inherited',
      'category:team-relation-removed',
      'category:team-permission-identifiers',
    ]);
    expect(manual?.groups[0]?.key).toBe('category:calculation-property:breaks');
    expect(repository?.groups).toEqual([]);
    const listed = view.client.sections.flatMap((s) => s.groups.flatMap((g) => g.items)).sort((a, b) => a - b);
    expect(listed).toEqual(golden.findings.map((_, i) => i));
    // Every breaking item is listed before any other manual item.
    const order = (manual?.groups ?? []).flatMap((g) => g.items).map((i) => golden.findings[i]?.verdict ?? 'none');
    const lastBreak = order.lastIndexOf('breaks');
    expect(order.slice(0, lastBreak + 1).every((v) => v === 'breaks')).toBe(true);
    const firstUnaffected = order.indexOf('unaffected');
    if (firstUnaffected !== -1) expect(firstUnaffected).toBeGreaterThan(Math.max(order.lastIndexOf('review'), order.lastIndexOf('none')));
    expect(order.lastIndexOf('review')).toBeGreaterThan(lastBreak);
    for (const section of [manual, automatic]) {
      for (const index of section?.groups.flatMap((g) => g.items) ?? []) expect(golden.findings[index]?.kind).toBe(section?.id);
    }
    // No repository scanned: no empty "Your repositories" part; the automatic part is folded.
    expect(view.sections.map((s) => [s.id, s.folded])).toEqual([
      ['manual', false],
      ['automatic', true],
    ]);
  });

  it('puts file findings under "Your repositories", grouped by file and ordered by line', () => {
    const file = (path: string, line: number) =>
      finding({ category: 'external-ownership', resource: { type: 'file', identifier: path }, location: `${path}:${line}` });
    const report = reportOf([
      file('terraform/main.tf', 40),
      finding({ category: 'page-widget', resource: { type: 'page', identifier: 'p' }, location: 'widgets[0]' }),
      file('gitops/port.yaml', 7),
      file('terraform/main.tf', 9),
    ]);
    const view = buildReportView(report, meta);
    const repository = view.client.sections.find((s) => s.id === 'repository');
    expect(repository?.groups.map((g) => [g.heading, g.items])).toEqual([
      ['gitops/port.yaml', [2]],
      ['terraform/main.tf', [3, 0]],
    ]);
    // Not listed twice: the manual part holds only the page finding.
    expect(view.client.sections.find((s) => s.id === 'manual')?.groups.flatMap((g) => g.items)).toEqual([1]);
    expect(view.sections.map((s) => [s.id, s.count])).toEqual([
      ['manual', 1],
      ['repository', 3],
      ['automatic', 0],
    ]);
    expect(view.cards.map((c) => c.label)).toContain('in your repositories');
  });

  it('splits file locations at the last numeric line suffix only', () => {
    expect(splitFileLocation('a/b.tf:12')).toEqual({ path: 'a/b.tf', line: 12 });
    expect(splitFileLocation('C:/x/y.yaml:3')).toEqual({ path: 'C:/x/y.yaml', line: 3 });
    expect(splitFileLocation('port.yaml')).toEqual({ path: 'port.yaml', line: 0 });
    expect(splitFileLocation('odd:name')).toEqual({ path: 'odd:name', line: 0 });
  });

  it('labels ownership changes as ownership before → after and counts verdicts', () => {
    const view = buildReportView(golden, meta);
    const direct = view.client.findings.find((f) => f.category === 'ownership-direct');
    expect(direct).toMatchObject({ beforeLabel: 'Ownership before', afterLabel: 'Ownership after', rewrite: '{"ownership":{"type":"Direct"}}' });
    const breaks = golden.findings.filter((f) => f.verdict === 'breaks').length;
    expect(breaks).toBeGreaterThan(0);
    expect(view.cards.find((c) => c.tone === 'breaks')?.value).toBe(breaks);
    // Unaffected references are verified, not findings: no filter for them, and their card counts `verified`.
    expect(view.filters.verdicts.map((v) => v.value)).toEqual(['breaks', 'none', 'review']);
    expect(view.cards.find((c) => c.tone === 'unaffected')).toMatchObject({ value: golden.verified?.length, href: '#verified-h' });
    expect(golden.verified?.length).toBeGreaterThan(0);
  });

  it('shows the gate and stale baseline entries when the report carries them, and marks accepted findings', () => {
    const accepted = finding({
      category: 'webhook-mapping',
      resource: { type: 'webhook', identifier: 'w' },
      location: 'mappings[0].entity.team',
      accepted: { reason: 'owned by the vendor', by: 'ana' },
    });
    const report: Report = { ...reportOf([accepted]), gate: { failOn: 'manual', result: 'passed', failing: 0, staleBaselineIds: ['abc'] } };
    const view = buildReportView(report, meta);
    expect(view.gate).toMatchObject({ shown: true, tone: 'passed', label: 'Gate passed', stale: ['abc'] });
    expect(view.gate.detail).toContain('--fail-on manual');
    expect(view.client.findings[0]?.accepted).toEqual({ reason: 'owned by the vendor', by: 'ana' });
    expect(view.cards.find((c) => c.label === 'accepted in the baseline')?.value).toBe(1);
    expect(buildReportView(reportOf([]), meta).gate.shown).toBe(false);
  });

  it('formats the run time from the metadata, never from a clock', () => {
    expect(buildReportView(reportOf([]), meta).generatedAtLabel).toBe('2026-01-02 03:04 UTC');
    expect(buildReportView(reportOf([]), { ...meta, generatedAt: 'yesterday' }).generatedAtLabel).toBe('yesterday');
  });

  it('draws every bar, the total included, on one scale, stacks them by verdict, and keeps tiny segments visible', () => {
    const view = buildReportView(syntheticReport(1300), meta);
    const width = (b: { segments: { width: number }[] }) => b.segments.reduce((sum, s) => sum + s.width, 0);
    const all = [view.chart.total, ...view.chart.bars];
    const longest = all.reduce((a, b) => (b.count > a.count ? b : a));
    expect(width(longest)).toBeGreaterThanOrEqual(1000 - longest.segments.length);
    // One scale: a bar's length is its count over the longest bar's count (rounding and the 4-unit minimum aside).
    for (const bar of all) expect(Math.abs(width(bar) - (bar.count / longest.count) * 1000), bar.label).toBeLessThanOrEqual(4 * bar.segments.length);
    expect(width(view.chart.bars[0]!)).toBeLessThan(width(view.chart.total));
    expect(Math.min(...view.chart.bars.flatMap((b) => b.segments.map((s) => s.width)))).toBeGreaterThanOrEqual(4);
    expect(view.chart.bars.reduce((sum, b) => sum + b.count, 0)).toBe(1300);
    expect(view.chart.bars.filter((b) => b.tone === 'automatic').map((b) => b.href)).toEqual(['#kind=automatic']);
    // Segments of a row sit side by side, and each names one verdict (or automatic) only.
    for (const bar of view.chart.bars) {
      bar.segments.forEach((s, i) => expect(s.x).toBe(i === 0 ? 0 : (bar.segments[i - 1]?.x ?? 0) + (bar.segments[i - 1]?.width ?? 0)));
      expect(bar.segments.reduce((sum, s) => sum + s.count, 0)).toBe(bar.count);
    }
    expect(view.chart.total.count).toBe(view.manual);
  });

  it('links the blast radius\'s example entity and each person who loses access to their pages, and repository files nowhere', () => {
    const calc = finding({
      category: 'calculation-property',
      resource: { type: 'blueprint', identifier: 'micro service' },
      location: 'calculationProperties.owner',
      verdict: 'breaks',
      impact: { entities: { changed: 2, read: 5, example: { identifier: 'cart/ü 1', before: '"A"', after: '"a"' } } },
    });
    const action = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'deploy' }, location: 'permissions.execute', verdict: 'breaks' });
    const file = finding({ category: 'external-ownership', resource: { type: 'file', identifier: 'main.tf' }, location: 'main.tf:3' });
    const report: Report = {
      ...reportOf([calc, action, file]),
      access: [{ resource: action.resource, permission: 'execute', finding: action.id, loses: ['a+b@x.io'] }],
    };
    const view = buildReportView(report, { ...meta, appUrl: 'https://app.us.getport.io' });
    const [c, a, f] = view.client.findings;
    expect(c?.exampleEntity).toEqual({ identifier: 'cart/ü 1', url: 'https://app.us.getport.io/micro%20serviceEntity?identifier=cart%2F%C3%BC%201' });
    expect(a?.exampleEntity).toBeNull();
    expect(inlinePeople(view.client.access[action.id]?.[0])).toEqual([{ email: 'a+b@x.io', url: 'https://app.us.getport.io/_userEntity?identifier=a%2Bb%40x.io' }]);
    expect(f?.serviceUrl).toBe('');
    expect(f?.exampleEntity).toBeNull();
    // Without an app address (a repository-only run) the entity is named, not linked.
    const plain = buildReportView(report, meta);
    expect(plain.client.findings[0]?.exampleEntity).toEqual({ identifier: 'cart/ü 1', url: '' });
    expect(inlinePeople(plain.client.access[action.id]?.[0])?.[0]?.url).toBe('');
  });
});

describe('access people on the page (issue 41)', () => {
  const action = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'deploy' }, location: 'permissions.execute', verdict: 'breaks' });
  const approve = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'release' }, location: 'permissions.approve', verdict: 'breaks' });
  const emails = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `person-${String(i).padStart(6, '0')}+${tag}@example.com`);
  const withPeople = (losing: number): Report => ({
    ...reportOf([action, approve]),
    access: [
      { resource: action.resource, permission: 'execute', finding: action.id, loses: emails(losing, 'a'), gains: emails(2, 'b') },
      { resource: approve.resource, permission: 'approve', finding: approve.id, undecidable: 'it reads .entity' },
    ],
  });

  it('keeps the people in the page while they are few', () => {
    const view = buildReportView(withPeople(10), meta);
    expect(view.client.userUrl).toBeUndefined();
    expect(inlinePeople(view.client.access[action.id]?.[0])?.map((p) => p.email)).toEqual(emails(10, 'a'));
  });

  it('carries only counts and the report.json entry once they are many, so the page does not grow with them', () => {
    const many = buildReportView(withPeople(INLINE_PEOPLE + 1), { ...meta, appUrl: 'https://app.us.getport.io' });
    expect(many.client.userUrl).toBe('https://app.us.getport.io/_userEntity?identifier=');
    expect(many.client.access[action.id]).toEqual([
      { text: `${INLINE_PEOPLE + 1} people lose the right to run this`, tone: 'loses', count: INLINE_PEOPLE + 1, entry: 0 },
      { text: '2 people gain the right to run this', tone: 'gains', count: 2, entry: 0 },
    ]);
    expect(many.client.access[approve.id]?.[0]).toMatchObject({ tone: 'undecidable', count: 0, entry: 1 });
    const page = (n: number) => renderHtml(withPeople(n), meta);
    const small = page(INLINE_PEOPLE + 1);
    const ten = page(10 * INLINE_PEOPLE);
    expect(small).not.toContain('person-000000+a@example.com');
    expect(ten.length - small.length).toBeLessThan(100);
  });
});
