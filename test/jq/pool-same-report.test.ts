import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateSyntheticOrg, syntheticUsers, withDistinctConditions } from '../../bench/synthetic-org.js';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import { JqPool } from '../../src/jq/worker-pool.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { renderJson } from '../../src/report/json.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

/**
 * Issue 33: jq's answers do not depend on how many workers run it, so report.json is the same
 * byte for byte with one worker and with three (more than this machine's cores: the pool is given
 * its size, not the core count). Nothing is set aside before comparing: the report holds no
 * timing, no worker count and no request count.
 */
const HANG = '.team as $t | last(range(1e9)) | $t';
const ABORT = 'def f: [f]; .team | f';

const engines: JqEngine[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(engines.splice(0).map((engine) => engine.close?.()));
});

/** The report as `analyze` writes report.json, and the worker slots pooled requests ran on. */
async function reportWith(org: OrgSnapshot, workers: number, timeoutMs?: number): Promise<{ json: string; slots: Set<number> }> {
  // Warm: every worker loaded before the work starts, so the batches spread however slow loading is here.
  const jq = await loadJqEngine({ workers, warm: true, ...(timeoutMs !== undefined && { timeoutMs }) });
  engines.push(jq);
  const slots = new Set<number>();
  const askAll = JqPool.prototype.askAll;
  vi.spyOn(JqPool.prototype, 'askAll').mockImplementation(function (this: JqPool, jobs, onAnswer) {
    askAll.call(this, jobs, (job, answer, slot) => {
      slots.add(slot);
      return onAnswer(job, answer, slot);
    });
  });
  const json = renderJson(analyze(buildCatalog(org, { jq })));
  vi.restoreAllMocks();
  return { json, slots };
}

async function expectSameReport(org: OrgSnapshot, options: { timeoutMs?: number; spread?: boolean } = {}): Promise<string> {
  const one = await reportWith(org, 1, options.timeoutMs);
  const three = await reportWith(org, 3, options.timeoutMs);
  expect(one.slots).toEqual(new Set([0]));
  // The batches were spread: the comparison is between one worker and several, not one and one.
  // (The demo org's work fits in one batch a step: nothing to spread.)
  if (options.spread !== false) expect(three.slots.size).toBeGreaterThan(1);
  expect(three.json).toBe(one.json);
  // Not compared: the request counts. Batches are cut the same whatever the pool, but on a loaded
  // machine a batch may run past the time limit in one run and not the other; its expressions are
  // then asked one call at a time, more requests for the same answers.
  return one.json;
}

/** A blueprint with many distinct calculations (several batches), some of which jq cannot finish, and users whose access a looping condition gates. */
function orgWithBadExpressions(bad: string): OrgSnapshot {
  const calculationProperties: JsonObject = {};
  for (let i = 0; i < 120; i++) {
    calculationProperties[`c${String(i).padStart(3, '0')}`] = {
      calculation: i % 60 === 7 ? bad : i % 3 === 0 ? `.team | index("Platform Team") != null and ${i} > 0` : i % 3 === 1 ? `.team | join(", ") | . + "${i}"` : `.team | length + ${i}`,
      type: 'string',
    };
  }
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_bad', name: 'Bad expressions' },
    teams: [
      { name: 'Platform Team', identifier: 'platform' },
      { name: 'Payments', identifier: 'payments' },
    ],
    blueprints: [{ identifier: 'service', title: 'Service', calculationProperties }],
    entities: { service: [{ identifier: 's1', team: ['Platform Team'] }] },
    actions: [
      { identifier: 'deploy', title: 'Deploy', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x' } },
      { identifier: 'page', title: 'Page', trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } }, invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/y' } },
    ],
    actionPermissions: {
      deploy: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [bad.replace('.team', '.user.team')] } } },
      page: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: ['.user.team | index("Platform Team") != null'] } } },
    },
    users: [
      { email: 'a@example.com', teams: [{ name: 'Platform Team' }], roles: [{ name: 'Member' }] },
      { email: 'b@example.com', teams: [{ name: 'Payments' }], roles: [{ name: 'Member' }] },
    ],
  };
}

// Two whole analyses each, some waiting out time limits or wasm aborts: more than the default 20 s on a loaded runner.
describe('report.json with one jq worker and with several', { timeout: 90_000 }, () => {
  it('is the same for the demo org', async () => {
    const json = await expectSameReport(await readSnapshotFile('fixtures/demo-org.json'), { spread: false });
    expect(JSON.parse(json).findings.length).toBeGreaterThan(10);
  });

  it('is the same for a synthetic org shaped like the 10x bench (distinct expressions, users, a distinct condition per action)', async () => {
    const base = generateSyntheticOrg({ blueprints: 120, actions: 240, pages: 40, distinctExpressions: true });
    const org = { ...withDistinctConditions(base, false), users: syntheticUsers(base, 150) };
    const report = JSON.parse(await expectSameReport(org));
    expect(report.access.length).toBeGreaterThan(10);
  });

  it('is the same for expressions that time out', async () => {
    // The limit is wall time: at 500 ms an ordinary expression starved by a loaded machine (load 17,
    // Node 24) timed out in one run and not the other. The hang needs minutes, so 1.5 s still ends it.
    const report = JSON.parse(await expectSameReport(orgWithBadExpressions(HANG), { timeoutMs: 1_500 }));
    const notes = report.findings.map((finding: { note?: string }) => finding.note ?? '');
    expect(notes.filter((note: string) => note.includes('timed out')).length).toBeGreaterThanOrEqual(2);
  });

  it('is the same for expressions that crash jq', async () => {
    // A generous limit, so the abort (a few hundred ms of recursion) is seen as the crash it is.
    const report = JSON.parse(await expectSameReport(orgWithBadExpressions(ABORT), { timeoutMs: 20_000 }));
    const notes = report.findings.map((finding: { note?: string }) => finding.note ?? '');
    expect(notes.filter((note: string) => note.startsWith('jq crashed')).length).toBeGreaterThanOrEqual(2);
  });
});
