import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acceptedByFrom,
  applyBaseline,
  BASELINE_FORMAT,
  createBaseline,
  DEFAULT_ACCEPT_REASON,
  renderBaseline,
  validateBaseline,
  type Baseline,
} from '../../src/baseline/baseline.js';
import { readBaselineFile } from '../../src/baseline/baseline-file.js';
import { InputError } from '../../src/errors.js';
import { gateReport } from '../../src/gate-run.js';
import { demoReport } from './helpers.js';

const baselineOf = (...accepted: Baseline['accepted']): Baseline => ({ format: BASELINE_FORMAT, accepted });

describe('validateBaseline', () => {
  const bad: [string, unknown, RegExp][] = [
    ['not an object', [], /expected a JSON object/],
    ['wrong format', { format: 'eslint-suppressions', accepted: [] }, /"format" must be "teams-migration-audit-baseline\/1"/],
    ['accepted not an array', { format: BASELINE_FORMAT, accepted: {} }, /"accepted" must be an array/],
    ['entry without reason', { format: BASELINE_FORMAT, accepted: [{ id: 'a', by: 'me' }] }, /accepted\[0\]\.reason must be a non-empty string/],
    ['blank author', { format: BASELINE_FORMAT, accepted: [{ id: 'a', reason: 'r', by: '  ' }] }, /accepted\[0\]\.by must be a non-empty string/],
    ['non-string location', { format: BASELINE_FORMAT, accepted: [{ id: 'a', reason: 'r', by: 'b', location: 3 }] }, /accepted\[0\]\.location must be a string/],
    [
      'duplicate id',
      { format: BASELINE_FORMAT, accepted: [{ id: 'a', reason: 'r', by: 'b' }, { id: 'a', reason: 'r2', by: 'b' }] },
      /accepted\[1\]\.id "a" is listed twice/,
    ],
  ];
  it.each(bad)('rejects %s with one InputError line naming the file', (_name, document, message) => {
    let error: unknown;
    try {
      validateBaseline(document, 'ci/baseline.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/^ci\/baseline\.json: not a valid baseline: /);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('keeps the optional human-readable fields and ignores unknown ones', () => {
    const baseline = validateBaseline(
      { format: BASELINE_FORMAT, accepted: [{ id: 'a', reason: 'r', by: 'b', category: 'page-widget', resource: 'page x', note: 'x' }] },
      'f',
    );
    expect(baseline.accepted).toEqual([{ id: 'a', reason: 'r', by: 'b', category: 'page-widget', resource: 'page x' }]);
  });

  it('reports invalid JSON in the file on one line, with the cause chained', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-baseline-'));
    const path = join(dir, 'baseline.json');
    writeFileSync(path, '{\n  "format": "teams-migration-audit-baseline/1",\n  "accepted": [\n');
    const error = await readBaselineFile(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain('the baseline is not valid JSON');
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });
});

describe('applyBaseline: accepted, stale and new findings', () => {
  it('marks accepted findings, keeps every finding, reports entries that match nothing as stale', () => {
    const report = demoReport();
    const manual = report.findings.filter((f) => f.kind === 'manual');
    const [first, second] = manual;
    if (!first || !second) throw new Error('the demo org has manual findings');
    const { report: applied, stale } = applyBaseline(
      report,
      baselineOf(
        { id: first.id, reason: 'fixed in the migration PR', by: 'alice' },
        { id: 'ffffffffffffffff', reason: 'an old finding', by: 'bob' },
      ),
    );
    expect(applied.findings).toHaveLength(report.findings.length);
    expect(applied.findings.find((f) => f.id === first.id)?.accepted).toEqual({ reason: 'fixed in the migration PR', by: 'alice' });
    // new: a finding no entry mentions stays unaccepted and still fails the gate.
    expect(applied.findings.find((f) => f.id === second.id)?.accepted).toBeUndefined();
    expect(stale.map((entry) => entry.id)).toEqual(['ffffffffffffffff']);
    // the input report is not mutated
    expect(report.findings.some((f) => f.accepted)).toBe(false);
  });

  it('through gateReport: accepting every manual finding passes the gate; one new finding fails it again', async () => {
    const report = demoReport();
    const all = createBaseline(report, { failOn: 'manual' }, 'ci');
    const passed = await gateReport(report, { failOn: 'manual' }, all, {});
    const unaffected = report.findings.filter((f) => f.kind === 'manual' && f.verdict === 'unaffected').length;
    expect(all.accepted).toHaveLength(report.summary.manual - unaffected); // unaffected ones never fail, so need no entry
    expect(passed.report.gate).toMatchObject({ result: 'passed', failing: 0, accepted: all.accepted.length });

    const [dropped, ...rest] = all.accepted;
    if (!dropped) throw new Error('the baseline has entries');
    const failed = await gateReport(report, { failOn: 'manual' }, baselineOf(...rest), {});
    expect(failed.report.gate).toMatchObject({ result: 'failed', failing: 1 });
    expect(failed.report.findings.find((f) => f.id === dropped.id)?.accepted).toBeUndefined();
  });

  it('through gateReport: stale entries land in gate.staleBaselineIds and in a note', async () => {
    const stale = baselineOf({ id: '0123456789abcdef', reason: 'r', by: 'b' });
    const run = await gateReport(demoReport(), { failOn: 'none', baseline: 'audit-baseline.json' }, stale, {});
    expect(run.report.gate.staleBaselineIds).toEqual(['0123456789abcdef']);
    expect(run.notes.join('\n')).toMatch(/audit-baseline\.json: 1 stale baseline entry matches no finding .*0123456789abcdef/);
  });
});

describe('createBaseline', () => {
  it('lists the manual findings the gate counts, in report order, with the default reason and the author', () => {
    const report = demoReport();
    const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
    const expected = report.findings.filter((f) => f.kind === 'manual' && f.verdict !== 'unaffected');
    expect(baseline.accepted.map((e) => e.id)).toEqual(expected.map((f) => f.id));
    const [entry] = baseline.accepted;
    const [finding] = expected;
    expect(entry).toEqual({
      id: finding?.id,
      reason: DEFAULT_ACCEPT_REASON,
      by: 'alice',
      category: finding?.category,
      resource: `${finding?.resource.type} ${finding?.resource.identifier}`,
      location: finding?.location,
    });
  });

  it('keeps the reason and author of entries already accepted, and drops stale ones', () => {
    const report = demoReport();
    const first = report.findings.find((f) => f.kind === 'manual');
    if (!first) throw new Error('manual finding expected');
    const previous = baselineOf({ id: first.id, reason: 'owned by payments, tracked in PAY-12', by: 'bob' }, { id: 'gone', reason: 'r', by: 'b' });
    const next = createBaseline(report, { failOn: 'manual' }, 'alice', previous);
    expect(next.accepted.find((e) => e.id === first.id)).toMatchObject({ reason: 'owned by payments, tracked in PAY-12', by: 'bob' });
    expect(next.accepted.some((e) => e.id === 'gone')).toBe(false);
    expect(next.accepted.filter((e) => e.id !== first.id).every((e) => e.by === 'alice')).toBe(true);
  });

  it('renders byte-identically whatever order the entries were built in', () => {
    const report = demoReport();
    const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
    const text = renderBaseline(baseline);
    expect(renderBaseline(validateBaseline(JSON.parse(text), 'f'))).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('"id"')).toBeLessThan(text.indexOf('"reason"'));
  });
});

describe('acceptedByFrom', () => {
  it('prefers the flag, then the CI actor, then the login', () => {
    expect(acceptedByFrom('carol', { GITHUB_ACTOR: 'octocat', USER: 'runner' })).toBe('carol');
    expect(acceptedByFrom(undefined, { GITHUB_ACTOR: 'octocat', USER: 'runner' })).toBe('octocat');
    expect(acceptedByFrom(undefined, { GITLAB_USER_LOGIN: 'gl-user', USER: 'runner' })).toBe('gl-user');
    expect(acceptedByFrom(undefined, { USER: 'runner' })).toBe('runner');
    expect(acceptedByFrom(undefined, {})).toBe('unknown');
  });
});
