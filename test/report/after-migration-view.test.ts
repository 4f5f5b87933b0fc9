import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/model/finding.js';
import { computeProgress } from '../../src/progress/compute-progress.js';
import { buildAfterMigrationView } from '../../src/report/after-migration-view.js';
import { renderHtml } from '../../src/report/html.js';

const finding = (id: string, extra: Partial<Finding> = {}): Finding => ({
  id,
  kind: 'manual',
  category: 'page-widget',
  resource: { type: 'page', identifier: 'p', title: '<img src=x onerror=alert(1)>' },
  location: `widgets[${id}]`,
  evidence: 'e',
  reason: 'fine: <b>already identifiers</b>',
  suggestion: 's',
  ...extra,
});
const report = (findings: Finding[], verified: Finding[] = []): Report => ({
  format: 'impact-report/1',
  organization: { id: 'o', name: 'O' },
  summary: { automatic: 0, manual: findings.length, byCategory: {} },
  incomplete: [],
  findings,
  ...(verified.length > 0 && { verified }),
});
const meta = { generatedAt: '2026-01-02T03:04:05.000Z', source: 'test' };

describe('buildAfterMigrationView', () => {
  it('shows nothing without --since or verified references, and the page has neither section', () => {
    const view = buildAfterMigrationView(report([finding('1')]));
    expect(view.progress.shown).toBe(false);
    expect(view.verified).toEqual({ rows: [] });
    const html = renderHtml(report([finding('1')]), meta);
    expect(html).not.toContain('class="since"');
    expect(html).not.toContain('Fixed since the previous report');
    expect(html).not.toContain('Checked, nothing to do');
  });

  it('sizes the stacked bar by share, never below 2 px, and leaves out empty counts', () => {
    const previous = report(Array.from({ length: 200 }, (_, i) => finding(String(i))));
    const current = report([finding('0'), ...Array.from({ length: 0 }, () => finding('x'))]);
    const view = buildAfterMigrationView({ ...current, progress: computeProgress(previous, current, '2026-01-01T00:00:00.000Z') });
    expect(view.progress.headline).toBe('199 of 200 fixed since 2026-01-01');
    expect(view.progress.chart.bars.map((b) => [b.tone, b.count, b.x, b.width])).toEqual([
      ['fixed', 199, 0, 418],
      ['open', 1, 418, 2],
    ]);
    expect(view.progress.chart.label).toBe('199 fixed, 1 still open, 0 new');
    expect(view.progress.fixed).toHaveLength(199);
  });

  it('escapes every org value in the progress and verified sections', () => {
    const previous = report([finding('1'), finding('2')]);
    const current = report([], [finding('2', { verdict: 'unaffected' })]);
    const html = renderHtml({ ...current, progress: computeProgress(previous, current) }, meta);
    expect(html).toContain('page p (&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;)');
    expect(html).toContain('fine: &lt;b&gt;already identifiers&lt;/b&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('2 of 2 fixed since the previous report');
    expect(html).toContain('Checked, nothing to do <span class="count">(1)</span>');
  });
});

describe('still locked out', () => {
  it('names each person with a link to their user page in the service, escaped, and without an app address names them only', () => {
    const previous = report([finding('1')]);
    const current = report([finding('1')]);
    const progress = {
      ...computeProgress(previous, current, '2026-01-01T00:00:00.000Z'),
      stillLockedOut: [{ resource: { type: 'action' as const, identifier: 'deploy' }, permission: 'execute' as const, loses: ['ann+ops@x.io', '<b>@x.io'] }],
    };
    const view = buildAfterMigrationView({ ...current, progress }, 'https://app.getport.io');
    expect(view.progress.lockedOut).toEqual([
      {
        label: 'action deploy: execute',
        people: [
          { email: 'ann+ops@x.io', url: 'https://app.getport.io/_userEntity?identifier=ann%2Bops%40x.io' },
          { email: '<b>@x.io', url: 'https://app.getport.io/_userEntity?identifier=%3Cb%3E%40x.io' },
        ],
      },
    ]);
    const html = renderHtml({ ...current, progress }, { ...meta, appUrl: 'https://app.getport.io' });
    expect(html).toContain('<a class="entity-link" href="https://app.getport.io/_userEntity?identifier&#x3D;ann%2Bops%40x.io"');
    expect(html).toContain('&lt;b&gt;@x.io</a>');
    const plain = renderHtml({ ...current, progress }, meta);
    expect(plain).toContain('<li>action deploy: execute: ann+ops@x.io, &lt;b&gt;@x.io</li>');
  });
});
