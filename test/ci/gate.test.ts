import { describe, expect, it } from 'vitest';
import { EXIT, evaluateGate, exitCodeFor, failsGate, overThreshold, type GatePolicy } from '../../src/gate.js';
import type { Finding, Verdict } from '../../src/model/finding.js';
import { demoReport } from './helpers.js';

const finding = (kind: Finding['kind'], verdict?: Verdict): Pick<Finding, 'kind' | 'verdict'> => (verdict ? { kind, verdict } : { kind });

describe('overThreshold', () => {
  const cases: [string, GatePolicy, Pick<Finding, 'kind' | 'verdict'>, boolean][] = [
    ['none gates nothing', { failOn: 'none' }, finding('manual', 'breaks'), false],
    ['manual: a manual finding without verdict counts', { failOn: 'manual' }, finding('manual'), true],
    ['manual: automatic changes need no person', { failOn: 'manual' }, finding('automatic'), false],
    ['manual: breaks counts', { failOn: 'manual' }, finding('manual', 'breaks'), true],
    ['manual: review counts by default', { failOn: 'manual' }, finding('manual', 'review'), true],
    ['manual: unaffected never counts (nothing to change)', { failOn: 'manual' }, finding('manual', 'unaffected'), false],
    ['any: automatic counts', { failOn: 'any' }, finding('automatic'), true],
    ['any: unaffected still does not count', { failOn: 'any' }, finding('manual', 'unaffected'), false],
    ['verdict breaks: review no longer counts', { failOn: 'manual', failOnVerdict: 'breaks' }, finding('manual', 'review'), false],
    ['verdict breaks: breaks counts', { failOn: 'manual', failOnVerdict: 'breaks' }, finding('manual', 'breaks'), true],
    ['verdict breaks: no verdict counts under the kind threshold', { failOn: 'manual', failOnVerdict: 'breaks' }, finding('manual'), true],
    ['verdict review: review counts', { failOn: 'manual', failOnVerdict: 'review' }, finding('manual', 'review'), true],
  ];
  it.each(cases)('%s', (_name, policy, subject, expected) => {
    expect(overThreshold(subject, policy)).toBe(expected);
  });

  it('an accepted finding over the threshold does not fail the gate', () => {
    expect(failsGate({ kind: 'manual', verdict: 'breaks', accepted: { reason: 'r', by: 'b' } }, { failOn: 'manual' })).toBe(false);
    expect(failsGate({ kind: 'manual', verdict: 'breaks' }, { failOn: 'manual' })).toBe(true);
  });
});

describe('evaluateGate', () => {
  it('fails the demo org on its manual findings, and passes it with --fail-on none', () => {
    const report = demoReport();
    const failed = evaluateGate(report, { failOn: 'manual' });
    // The demo's unaffected references are verified, not findings: every manual finding counts.
    expect(report.verified?.length).toBeGreaterThan(0);
    expect(report.findings.some((f) => f.verdict === 'unaffected')).toBe(false);
    expect(failed).toEqual({ failOn: 'manual', result: 'failed', failing: report.summary.manual, accepted: 0 });
    expect(exitCodeFor(failed)).toBe(EXIT.gateFailed);
    const passed = evaluateGate(report, { failOn: 'none' });
    expect(passed.result).toBe('passed');
    expect(exitCodeFor(passed)).toBe(EXIT.pass);
  });

  it('--fail-on-verdict breaks counts fewer findings than the default, and records itself', () => {
    const report = demoReport();
    const breaks = evaluateGate(report, { failOn: 'manual', failOnVerdict: 'breaks' });
    const breaking = report.findings.filter((f) => f.kind === 'manual' && (f.verdict === 'breaks' || f.verdict === undefined)).length;
    expect(breaking).toBeLessThan(evaluateGate(report, { failOn: 'manual' }).failing);
    expect(breaks.failing).toBe(breaking);
    expect(breaks.failOnVerdict).toBe('breaks');
  });

  it('is incomplete (exit 3) when anything could not be read, even with no findings at all', () => {
    const report = { ...demoReport(), findings: [], incomplete: [{ resource: 'page sre_dashboard permissions', reason: '403' }] };
    const gate = evaluateGate(report, { failOn: 'none' });
    expect(gate.result).toBe('incomplete');
    expect(exitCodeFor(gate)).toBe(EXIT.incomplete);
  });

  it('lists stale baseline ids sorted', () => {
    expect(evaluateGate(demoReport(), { failOn: 'none' }, ['b', 'a']).staleBaselineIds).toEqual(['a', 'b']);
  });
});
