import { afterAll, describe, expect, test } from 'vitest';
import { rm } from 'node:fs/promises';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine, type JqWork } from '../../src/jq/engine.js';
import { prefetchPlanned, recordingEngine } from '../../src/jq/prefetch-rules.js';
import { repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { temporaryRepository } from './helpers.js';

describe('the plan of what jq will be asked (issue 41)', () => {
  test('each expression to compile once, each run with its inputs in the order asked; every answer the one that lets the judge go furthest', () => {
    const plan = recordingEngine();
    expect(plan.engine.validate('.team')).toEqual({ ok: true });
    // Met again, it was planned in full the first time.
    expect(plan.engine.validate('.team')).toEqual({ ok: false, error: 'planned already' });
    expect(plan.engine.evaluate({ team: ['a'] }, '.team')).toEqual({ ok: true, values: [] });
    plan.engine.evaluate({ team: ['b'] }, '.team');
    plan.engine.evaluate(null, '.x');
    // Run but never compiled by the judge (a constant piece on null): compiled in the plan too.
    expect(plan.work()).toEqual({ validate: ['.team', '.x'], evaluate: [{ expression: '.team', inputs: [{ team: ['a'] }, { team: ['b'] }] }, { expression: '.x', inputs: [null] }] });
  });

  test('an expression the plan only runs is answered by the batch: jq runs in batches only what it compiled, the rest one call at a time', async () => {
    const plan = recordingEngine();
    plan.engine.evaluate(null, '"QA" | ascii_downcase');
    plan.engine.evaluate(null, '"Data" + " Science"');
    const real = await loadJqEngine({ workers: 1 });
    try {
      real.prefetch!(plan.work());
      const batched = real.requests!();
      expect(batched).toBeGreaterThan(0);
      expect(real.evaluate(null, '"QA" | ascii_downcase')).toEqual({ ok: true, values: ['qa'] });
      expect(real.evaluate(null, '"Data" + " Science"')).toEqual({ ok: true, values: ['Data Science'] });
      expect(real.requests!()).toBe(batched);
    } finally {
      await real.close!();
    }
  });

  test('given an earlier plan, what it held is answered by the engine that answered it; anything else is written down', () => {
    const asked: string[] = [];
    const engine: JqEngine = {
      validate: (expression) => (asked.push(`validate ${expression}`), { ok: false, error: 'syntax error' }),
      evaluate: (input, expression) => (asked.push(`evaluate ${expression} ${JSON.stringify(input)}`), { ok: true, values: ['answered'] }),
    };
    const plan = recordingEngine({ engine, work: { validate: ['.team'], evaluate: [{ expression: '.team', inputs: [{ team: ['a'] }] }] } });
    expect(plan.engine.validate('.team')).toEqual({ ok: false, error: 'syntax error' });
    expect(plan.engine.evaluate({ team: ['a'] }, '.team')).toEqual({ ok: true, values: ['answered'] });
    // An input or expression the earlier plan did not hold: written down, never asked.
    expect(plan.engine.evaluate({ team: ['b'] }, '.team')).toEqual({ ok: true, values: [] });
    expect(plan.engine.validate('.rewritten')).toEqual({ ok: true });
    expect(asked).toEqual(['validate .team', 'evaluate .team {"team":["a"]}']);
    expect(plan.work()).toEqual({ validate: ['.rewritten'], evaluate: [{ expression: '.team', inputs: [{ team: ['b'] }] }] });
  });
});

/** Terraform stacks whose calculations are each their own text, as a platform repository's are. */
const stack = (i: number) =>
  [
    `resource "port_blueprint" "svc${i}" {`,
    `  identifier = "svc${i}"`,
    `  calculation_properties = {`,
    `    mine   = { title = "Mine", type = "boolean", calculation = ".team | index(\\"Team ${i}\\") != null" }`,
    `    owners = { title = "Owners", type = "string", calculation = "[.team[] | ascii_downcase] | join(\\", \\") + \\" for svc${i}\\"" }`,
    `  }`,
    `}`,
    `resource "port_entity" "svc${i}_main" {`,
    `  identifier = "svc${i}-main"`,
    `  blueprint  = port_blueprint.svc${i}.identifier`,
    `  teams      = ["Team ${i}"]`,
    `}`,
  ].join('\n');

describe('the two plans of a scan', () => {
  /** Items that ask jq (`?` validates, `!` runs) or nothing; a fresh judge per pass, recording what it judged. */
  function planned(items: string[], plans: 1 | 2 = 2): { passes: string[][]; prefetched: JqWork[]; asked: string[] } {
    const passes: string[][] = [];
    const prefetched: JqWork[] = [];
    const asked: string[] = [];
    const jq: JqEngine = {
      validate: (expression) => (asked.push(expression), { ok: true }),
      evaluate: (input, expression) => (asked.push(expression), { ok: true, values: [input] }),
      prefetch: (work) => void prefetched.push(work),
    };
    prefetchPlanned(jq, items, () => {
      const pass: string[] = [];
      passes.push(pass);
      return (item, engine) => {
        pass.push(item);
        if (item.startsWith('?')) engine.validate(item.slice(1));
        if (item.startsWith('!') && engine.evaluate(1, item.slice(1)).ok) engine.validate(`${item.slice(1)} rewritten`);
      };
    }, plans);
    return { passes, prefetched, asked };
  }

  test('every item in the first, only those that asked jq in the second, each plan\'s work prefetched after it', () => {
    const { passes, prefetched, asked } = planned(['?.a', 'plain', '!.b']);
    expect(passes).toEqual([['?.a', 'plain', '!.b'], ['?.a', '!.b']]);
    expect(prefetched).toEqual([
      { validate: ['.a', '.b rewritten', '.b'], evaluate: [{ expression: '.b', inputs: [1] }] },
      // What the first plan held is answered by jq itself in the second (from its caches): nothing new here.
      { validate: [], evaluate: [] },
    ]);
    expect(asked).toEqual(['.a', '.b', '.b rewritten']);
  });

  test('one plan where asked for one: its work prefetched, no second pass', () => {
    const { passes, prefetched } = planned(['?.a', '!.b'], 1);
    expect(passes).toEqual([['?.a', '!.b']]);
    expect(prefetched).toEqual([{ validate: ['.a', '.b rewritten', '.b'], evaluate: [{ expression: '.b', inputs: [1] }] }]);
  });

  test('items that ask nothing: one pass, and nothing asked of jq', () => {
    const { passes, prefetched, asked } = planned(['plain', 'other']);
    expect(passes).toEqual([['plain', 'other'], []]);
    expect(prefetched).toEqual([{ validate: [], evaluate: [] }, { validate: [], evaluate: [] }]);
    expect(asked).toEqual([]);
  });

  test('an engine that cannot batch: no plan at all', () => {
    let judged = 0;
    prefetchPlanned({ validate: () => ({ ok: true }), evaluate: () => ({ ok: true, values: [] }) }, ['?.a'], () => () => void judged++);
    expect(judged).toBe(0);
  });
});

describe('a repository scan asks jq its planned work in a few requests', () => {
  const engines: JqEngine[] = [];
  let dir: string | undefined;
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.close?.()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A fresh engine (nothing in its caches); without `prefetch`, as an engine that plans nothing. */
  async function scanWith(prefetching: boolean): Promise<{ findings: string; requests: number; planned: JqWork[] }> {
    const real = await loadJqEngine({ workers: 1 });
    engines.push(real);
    const planned: JqWork[] = [];
    const jq: JqEngine = { validate: real.validate, evaluate: real.evaluate, ...(prefetching && { prefetch: (work: JqWork) => (planned.push(work), real.prefetch!(work)) }) };
    const scan = await scanRepositories([dir!], { catalog: buildCatalog(repositoryOnlySnapshot([dir!]), { jq }) });
    return { findings: JSON.stringify([scan.findings, scan.notes, scan.incomplete]), requests: real.requests!(), planned };
  }

  test('the same findings, notes and gaps as asking one call at a time, in fewer requests', async () => {
    dir = await temporaryRepository(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`infra/stack${i}/main.tf`, stack(i)])));
    const alone = await scanWith(false);
    const planned = await scanWith(true);
    expect(planned.findings).toBe(alone.findings);
    expect(alone.findings).toContain('calculation-property');
    // The whole scan planned before any file is judged (every calculation text to compile in the
    // first plan, which finds what the calculations do with team values), then again where the
    // first plans' answers lead (each rewrite to prove, in a later request); the judge's own
    // prefetches come after.
    for (let i = 0; i < 12; i++) expect(planned.planned[0]!.validate).toContain(`.team | index("Team ${i}") != null`);
    const rewrite = planned.planned.findIndex((work) => work.validate?.includes('.team | index("team_0") != null'));
    expect(rewrite).toBeGreaterThan(0);
    expect(planned.requests).toBeLessThan(alone.requests / 2);
  });

  test('a calculation reading one derived from team values is judged as without a plan: the plans\' own answers never reach the real judging', async () => {
    const reader = (i: number) =>
      [
        `resource "port_blueprint" "svc${i}" {`,
        `  identifier = "svc${i}"`,
        `  calculation_properties = {`,
        `    owners_text = { title = "Owners", type = "string", calculation = "[.team[] | ascii_downcase] | join(\\", \\")" }`,
        `    platform    = { title = "Platform", type = "boolean", calculation = ".properties.owners_text | ascii_upcase" }`,
        `  }`,
        `}`,
      ].join('\n');
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = await temporaryRepository({ 'infra/a/main.tf': reader(1), 'infra/b/main.tf': reader(2), 'teams.tf': 'resource "port_team" "p" {\n  name = "Platform Team"\n}\n' });
    const alone = await scanWith(false);
    const planned = await scanWith(true);
    // The reader changes with the migration because what it reads does: judged on contexts whose
    // derived value the plan filled with its own answers (none), it would give the same both ways.
    const readers = (findings: string) => (JSON.parse(findings)[0] as { location: string; verdict: string; reason: string }[]).filter((f) => f.reason.includes('reads .properties.owners_text'));
    expect(readers(alone.findings).map((f) => f.verdict)).toEqual(['breaks', 'breaks']);
    expect(planned.findings).toBe(alone.findings);
  });
});
