import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { Finding, Report } from '../../src/model/finding.js';
import { computeProgress, withProgress } from '../../src/progress/compute-progress.js';
import { progressSentence } from '../../src/progress/progress-text.js';
import { validatePreviousReport } from '../../src/progress/read-previous-report.js';

const ORG = { id: 'org_1', name: 'One' };
const finding = (id: string, extra: Partial<Finding> = {}): Finding => ({
  id,
  kind: 'manual',
  category: 'calculation-property',
  resource: { type: 'blueprint', identifier: 'service' },
  location: `calculationProperties.${id}.calculation`,
  evidence: '.team',
  reason: 'r',
  suggestion: 's',
  ...extra,
});
const report = (findings: Finding[], verified: Finding[] = [], organization = ORG): Report => ({
  format: 'impact-report/1',
  organization,
  summary: { automatic: 0, manual: findings.length, byCategory: {} },
  incomplete: [],
  findings,
  ...(verified.length > 0 && { verified }),
});

describe('computeProgress', () => {
  it('does not count as fixed a breaking finding now verified with the same text: nobody fixed it (issue 21)', () => {
    const previous = report([finding('a', { verdict: 'breaks', evidence: '.team | join(",")' }), finding('b', { verdict: 'breaks', evidence: '.team | index("Platform")' })]);
    // a: same text, now only passing identifiers on; b: rewritten by the admin.
    const current = report([], [finding('a', { verdict: 'unaffected', evidence: '.team | join(",")' }), finding('b', { verdict: 'unaffected', evidence: '.team | index("platform")' })]);
    const progress = computeProgress(previous, current);
    expect(progress.fixed.map((f) => f.id)).toEqual(['b']);
    expect(progress.open).toBe(0);
    expect(progressSentence(progress)).toContain('1 of 2 fixed');
  });

  it('does not count file findings of repositories this run did not scan as fixed', () => {
    const file = (id: string, path: string) => finding(id, { category: 'external-ownership', resource: { type: 'file', identifier: path }, location: `${path}:3` });
    const previous = report([finding('a'), file('f1', 'infra/main.tf'), file('f2', 'gitops/svc/port.yml'), file('f3', 'infra/old.tf')]);
    const current = report([file('f1', 'infra/main.tf')]);
    // Only infra was scanned again: f3 is fixed, f1 open, f2 was not looked for.
    const progress = computeProgress(previous, current, undefined, { repoRoots: ['infra'] });
    expect(progress.fixed.map((f) => f.id)).toEqual(['a', 'f3']);
    expect(progress).toMatchObject({ open: 1, notCompared: 1 });
    expect(progressSentence(progress)).toContain('1 not compared: their repositories were not scanned this run');
    // No repository scanned at all: none of the file findings is compared.
    expect(computeProgress(previous, report([]), undefined, {})).toMatchObject({ notCompared: 3, open: 0 });
    expect(computeProgress(previous, report([]), undefined, {}).fixed.map((f) => f.id)).toEqual(['a']);
    // A repository given as "." holds every path.
    expect(computeProgress(previous, current, undefined, { repoRoots: [''] }).notCompared).toBeUndefined();
  });

  it('counts fixed (absent or verified), open and new exactly, by finding id', () => {
    const previous = report([finding('a'), finding('b'), finding('c'), finding('d')]);
    const current = report([finding('c'), finding('e')], [finding('b', { verdict: 'unaffected' })]);
    const progress = computeProgress(previous, current, '2026-01-01T10:00:00.000Z');
    expect(progress.fixed.map((f) => [f.id, f.now])).toEqual([
      ['a', 'absent'],
      ['b', 'verified'],
      ['d', 'absent'],
    ]);
    expect(progress.fixed[0]).toEqual({ id: 'a', category: 'calculation-property', resource: { type: 'blueprint', identifier: 'service' }, location: 'calculationProperties.a.calculation', now: 'absent' });
    expect(progress).toMatchObject({ since: { findings: 4, organization: ORG, date: '2026-01-01T10:00:00.000Z' }, open: 1, new: 1 });
    expect(progressSentence(progress)).toBe('3 of 4 fixed since 2026-01-01; 1 still open, 1 new.');
  });

  it('a previous verified reference that now breaks is new, not open', () => {
    const previous = report([], [finding('x', { verdict: 'unaffected' })]);
    const progress = computeProgress(previous, report([finding('x', { verdict: 'breaks' })]));
    expect(progress).toMatchObject({ fixed: [], open: 0, new: 1, since: { findings: 0 } });
    expect(progress.since.date).toBeUndefined();
    expect(progressSentence(progress)).toBe('0 of 0 fixed since the previous report; 0 still open, 1 new.');
  });

  it('is provisional when this run could not read everything: what is unread looks fixed', () => {
    const progress = computeProgress(report([finding('a')]), { ...report([]), incomplete: [{ resource: 'page p', reason: '403' }] });
    expect(progress).toMatchObject({ fixed: [{ id: 'a', now: 'absent' }], provisional: true });
    expect(progressSentence(progress)).toBe('1 of 1 fixed since the previous report; 0 still open, 0 new. Provisional: this run could not read everything, so some counted fixed may only have gone unread.');
    expect(computeProgress(report([finding('a')]), report([])).provisional).toBeUndefined();
  });

  it('refuses a report of another organization with one line', () => {
    const other = report([finding('a')], [], { id: 'org_2', name: 'Two' });
    expect(() => computeProgress(other, report([]))).toThrow(InputError);
    expect(() => computeProgress(other, report([]))).toThrow(/^--since: the previous report is of organization "org_2" \("Two"\), not "org_1" \("One"\)/);
    const forged = report([], [], { id: 'org_2', name: 'Two\n\u001b[31mok' });
    expect(() => computeProgress(forged, report([]))).toThrow('("Two\\n\\u001b[31mok")');
  });

  it('withProgress leaves a report without --since untouched', () => {
    const current = report([finding('a')]);
    expect(withProgress(current, undefined)).toBe(current);
    expect(withProgress(current, { report: report([finding('a')]) }).progress).toMatchObject({ open: 1, new: 0, fixed: [] });
  });
});

describe('validatePreviousReport', () => {
  const valid = () => JSON.parse(JSON.stringify(report([finding('a')]))) as Record<string, unknown>;
  it('accepts a report, ignoring fields it does not need', () => {
    expect(validatePreviousReport({ ...valid(), somethingNew: 1 }, 'r.json').findings.map((f) => f.id)).toEqual(['a']);
  });
  it.each([
    ['not an object', [], /expected a JSON object/],
    ['another format', { ...valid(), format: 'org-snapshot/1' }, /"format" is "org-snapshot\/1"/],
    ['no organization id', { ...valid(), organization: { name: 'x' } }, /"organization" must be an object/],
    ['findings not a list', { ...valid(), findings: {} }, /"findings" must be an array/],
    ['a finding without id', { ...valid(), findings: [{ ...finding('a'), id: 3 }] }, /findings\[0\]\.id must be a non-empty string/],
    ['an unknown category', { ...valid(), findings: [{ ...finding('a'), category: 'nope' }] }, /findings\[0\]\.category is not a known category/],
  ])('refuses %s with one line naming the file', (_, document, message) => {
    expect(() => validatePreviousReport(document, 'r.json')).toThrow(InputError);
    expect(() => validatePreviousReport(document, 'r.json')).toThrow(message);
    try {
      validatePreviousReport(document, 'r.json');
    } catch (error) {
      expect((error as Error).message).toMatch(/^r\.json: not a teams-migration-audit report/);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
