import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { JqBudget } from '../../src/jq/budget.js';
import { crashWords, loadJqEngine } from '../../src/jq/engine.js';
import type { Report } from '../../src/model/finding.js';

/*
 * Issue 38 item 9: one jq time budget per run, spent on an injected clock here so nothing waits;
 * what it leaves unjudged is named and the run is incomplete (exit 3), never a pass. Crashes and
 * limits are said in words, not jq-wasm's "Aborted(). Build with -sASSERTIONS".
 */

/** A clock that moves one second each time it is read: every jq request then takes a second. */
const secondPerRead = () => {
  let now = 0;
  return () => (now += 1_000);
};

describe('the run\'s jq budget', () => {
  it('spent, no request is sent: the calls say why, and the expressions left are named in order', async () => {
    const jq = await loadJqEngine({ workers: 1, budget: { totalMs: 5_000, now: secondPerRead() } });
    try {
      const expressions = Array.from({ length: 8 }, (_, i) => `.a + ${i}`);
      const results = expressions.map((expression) => jq.evaluate({ a: 1 }, expression));
      expect(results.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((value) => ({ ok: true, values: [value] })));
      for (const result of results.slice(5)) expect(result).toEqual({ ok: false, error: 'not run: jq ran for 5 s, the 5 s this tool gives it in one run', failure: 'timeout' });
      const requests = jq.requests!();
      expect(jq.validate('.b')).toMatchObject({ ok: false, error: expect.stringMatching(/^not run: /) });
      expect(jq.evaluateEach!([{ input: 1, expression: '. * 2' }])).toEqual([{ ok: false, error: expect.stringMatching(/^not run: /), failure: 'timeout' }]);
      jq.prefetch!({ validate: ['.c', '.d'], evaluate: [{ expression: '.a', inputs: [{ a: 1 }, { a: 2 }] }] });
      expect(jq.requests!()).toBe(requests);
      expect(jq.unjudged!()).toEqual({ reason: 'jq ran for 5 s, the 5 s this tool gives it in one run', expressions: [...expressions.slice(5), '.b', '. * 2'] });
    } finally {
      await jq.close?.();
    }
  });

  it('within the budget nothing is unjudged', async () => {
    const jq = await loadJqEngine({ workers: 1, budget: { totalMs: 60_000, now: secondPerRead() } });
    try {
      expect(jq.evaluate({ a: 1 }, '.a')).toEqual({ ok: true, values: [1] });
      expect(jq.unjudged!()).toBeUndefined();
    } finally {
      await jq.close?.();
    }
  });

  it('expressions that never end spend their own budget: after it, the next is not run (one time limit each, not one per expression)', async () => {
    // The budget's clock moves a second per read, so each timeout costs exactly a second of it, however loaded the machine.
    const jq = await loadJqEngine({ workers: 1, timeoutMs: 50, budget: { failedMs: 2_000, now: secondPerRead() } });
    try {
      const endless = ['last(range(1e15))', 'last(range(1e15)) + 1', 'last(range(1e15)) + 2', 'last(range(1e15)) + 3'];
      const results = endless.map((expression) => jq.evaluate(null, expression));
      expect(results.slice(0, 2).map((result) => result.ok === false && result.error)).toEqual(['no result within 50 ms', 'no result within 50 ms']);
      for (const result of results.slice(2)) {
        expect(result.ok === false && result.error).toMatch(/^not run: expressions that timed out or crashed took 2 s, the 2 s this tool gives them in one run$/);
      }
      expect(jq.unjudged!()?.expressions).toEqual(endless.slice(2));
    } finally {
      await jq.close?.();
    }
  });

  it('a batch that timed out costs none of the failure budget until one of its expressions times out alone (a slow machine times out large batches whose every expression answers alone)', () => {
    const budget = new JqBudget({ failedMs: 3_000, now: () => 0 });
    // A slow CI runner: twenty batches time out, each of their expressions then answers alone.
    for (let batch = 0; batch < 20; batch++) budget.batchTimedOut([`.a + ${batch}`, `.b + ${batch}`], 1_000);
    expect(budget.spentReason()).toBeUndefined();
    // One expression of a batch never ends: its lone time limit, and the batch timeout it caused, are lost once.
    budget.spend(1_000, 1_000, '.a + 3');
    expect(budget.spentReason()).toBeUndefined();
    budget.spend(1_000, 1_000, '.b + 3');
    expect(budget.spentReason()).toMatch(/^expressions that timed out or crashed took 3 s/);
  });

  it('an expression that never ends, asked on many inputs at once, is run once: the rest give its failure (one entity each cost a time limit, and twenty entities spent the budget for the whole org)', async () => {
    // 1 s, not 50 ms: the ordinary call asked after the endless ones must answer within it on a busy runner.
    const jq = await loadJqEngine({ workers: 1, timeoutMs: 1_000 });
    try {
      const endless = '.n | last(range(1e15)) + .';
      const calls = [...Array.from({ length: 10 }, (_, n) => ({ input: { n }, expression: endless })), { input: { n: 4 }, expression: '.n * 2' }];
      const requests = jq.requests!();
      const results = jq.evaluateEach!(calls);
      expect(results.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => ({ ok: false, error: 'no result within 1000 ms', failure: 'timeout' })));
      expect(results[10]).toEqual({ ok: true, values: [8] });
      expect(jq.requests!() - requests).toBe(2);
      expect(jq.unjudged!()).toBeUndefined();
    } finally {
      await jq.close?.();
    }
  });

  it('through the CLI: the report names what was left, the run is incomplete (exit 3), never passed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tma-jq-budget-'));
    let stderr = '';
    const code = await runCli(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--format', 'json', '--fail-on', 'none'], {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      env: {},
      now: () => new Date('2026-01-02T03:04:05Z'),
      loadJq: (options = {}) => loadJqEngine({ ...options, budget: { totalMs: 3_000, now: secondPerRead() } }),
    });
    expect(code).toBe(3);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const item = report.incomplete.find((entry) => entry.resource === 'jq');
    expect(item?.reason).toMatch(/^jq's time budget for this run is spent \(jq ran for 3 s, the 3 s this tool gives it in one run\): \d+ expressions were left unjudged: "[^"]+"/);
    expect(report.gate?.result).toBe('incomplete');
    expect(stderr).toMatch(/INCOMPLETE/);
    expect(stderr).not.toMatch(/gate passed/);
  });
});

describe('crashes and limits in words', () => {
  it('"x" * 1e9 runs jq out of memory while compiling: said so, not as a syntax error or jq-wasm\'s abort', async () => {
    const jq = await loadJqEngine({ workers: 1, timeoutMs: 20_000 });
    try {
      const result = jq.validate('"x" * 1e9');
      expect(result).toEqual({ ok: false, error: 'jq ran out of memory or stack while compiling it (jq computes constant parts such as "x" * 1e9 when it compiles; the expression is not invalid)', failure: 'crash' });
      expect(JSON.stringify(result)).not.toMatch(/Aborted|ASSERTIONS/);
      // jq keeps working after it.
      expect(jq.evaluate({ a: 2 }, '.a * 2')).toEqual({ ok: true, values: [4] });
    } finally {
      await jq.close?.();
    }
  });
  it('other crash messages lose the build hint', () => {
    expect(crashWords('Aborted(). Build with -sASSERTIONS for more info.', false)).toBe('jq ran out of memory or stack while running it');
    expect(crashWords('unreachable executed. Build with -sASSERTIONS for more info.', false)).toBe('jq stopped while running it: unreachable executed.');
    expect(crashWords('the jq worker exited', true)).toMatch(/^the jq worker stopped while compiling it/);
  });
});
