import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { DEFAULT_TIMEOUT_MS, loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

const HANG = '.team as $t | last(range(1e9)) | $t';
const ABORT = 'def f: [f]; .team | f';

/** A blueprint whose calculations mix ordinary expressions with one that never ends or crashes jq. */
const org = (bad: string): OrgSnapshot => ({
  format: 'org-snapshot/1',
  organization: { id: 'org_1', name: 'Test org' },
  teams: [
    { name: 'Platform Team', identifier: 'platform' },
    { name: 'Payments', identifier: 'payments' },
  ],
  blueprints: [
    {
      identifier: 'service',
      title: 'Service',
      calculationProperties: {
        a_title: { calculation: '.team | index("Platform Team") != null', type: 'boolean' },
        b_bad: { calculation: bad, type: 'string' },
        c_joined: { calculation: '.team | join(", ")', type: 'string' },
        d_count: { calculation: '.team | length', type: 'number' },
      },
    },
  ],
  entities: {},
});

const engines: JqEngine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close?.()));
});
/**
 * The org analysed with a fresh engine, and how many requests jq was sent. The production time
 * limit: a shorter one would also cut the ordinary neighbours on a busy machine.
 */
async function run(bad: string, timeoutMs?: number): Promise<{ report: Report; timeouts: number }> {
  const engine = await loadJqEngine(timeoutMs === undefined ? {} : { timeoutMs });
  engines.push(engine);
  // Counts the calls that sent a request and met the time limit; a remembered failure sends none.
  let timeouts = 0;
  const counted = (answer: (before: number) => { ok: boolean; failure?: string }) => {
    const before = engine.requests!();
    const result = answer(before);
    if (!result.ok && result.failure === 'timeout' && engine.requests!() > before) timeouts++;
    return result;
  };
  const jq: JqEngine = {
    ...engine,
    evaluate: (input, expression) => counted(() => engine.evaluate(input, expression)) as ReturnType<JqEngine['evaluate']>,
    validate: (expression) => counted(() => engine.validate(expression)) as ReturnType<JqEngine['validate']>,
    prefetch: (work) => engine.prefetch?.(work),
    requests: () => engine.requests!(),
  };
  const report = analyze(buildCatalog(org(bad), { jq }));
  return { report, timeouts };
}
const at = (report: Report, property: string) => report.findings.find((f) => f.location === `calculationProperties.${property}.calculation`);

/** What every other calculation of the blueprint gets, with or without a bad neighbour. */
function expectNeighboursJudged(report: Report) {
  expect(report.ruleErrors).toBeUndefined();
  expect(report.incomplete).toEqual([]);
  expect(at(report, 'a_title')).toMatchObject({ verdict: 'breaks', rewrite: '.team | index("platform") != null' });
  expect(at(report, 'c_joined')?.verdict).toBe('review');
  // Checked and fine: verified, not a finding (docs/formats.md, the report).
  expect(at(report, 'd_count')).toBeUndefined();
  expect(report.verified?.find((f) => f.location === 'calculationProperties.d_count.calculation')?.verdict).toBe('unaffected');
}

describe('a calculation that jq cannot finish is one review finding, not a hang or a rule error', () => {
  it('an endless loop times out into review with a note, once, not once per sample', async () => {
    const { report, timeouts } = await run(HANG);
    expect(at(report, 'b_bad')).toMatchObject({
      verdict: 'review',
      note: `jq evaluation timed out (no result within ${DEFAULT_TIMEOUT_MS} ms); the expression may loop or recurse without end, check it by hand`,
      reason: expect.stringContaining(`its evaluation timed out (no result within ${DEFAULT_TIMEOUT_MS} ms), so whether it changes with team identifiers is unknown`),
      suggestion: expect.stringMatching(/^Make sure the expression terminates: jq could not evaluate it\. /),
    });
    expectNeighboursJudged(report);
    // One time limit, not one per sample: the expression that timed out is not run again.
    expect(timeouts).toBe(1);
  });

  it('a wasm abort becomes review with a note, and every other calculation keeps its finding', async () => {
    // A limit far past the recursion's own end (a few hundred ms, several seconds on a busy core), so the abort is seen as the crash it is.
    const { report } = await run(ABORT, 60_000);
    expect(at(report, 'b_bad')).toMatchObject({
      verdict: 'review',
      note: expect.stringMatching(/^jq crashed \(jq ran out of memory or stack while running it\).*check it by hand$/),
    });
    expectNeighboursJudged(report);
  });

  it('the same org without the bad calculation gives the same neighbours', async () => {
    const { report } = await run('.team | length > 0');
    expectNeighboursJudged(report);
  });
});
