import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../../src/jq/jq-worker.js';
import { JqPool, jqPoolSize, POOL_MEMORY_BYTES, WORKER_BYTES, type PoolJob } from '../../src/jq/worker-pool.js';

const require = createRequire(import.meta.url);
let seed: { jqWasmPath: string; wasmModule: WebAssembly.Module };
beforeAll(async () => {
  seed = { jqWasmPath: require.resolve('jq-wasm'), wasmModule: await WebAssembly.compile(await readFile(require.resolve('jq-wasm/jq.wasm'))) };
});
const pools: JqPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
const pool = (size: number, timeoutMs = 20_000) => {
  const created = new JqPool(seed, size, timeoutMs);
  pools.push(created);
  return created;
};

/** Loops for ever on any input. */
const HANG = 'last(range(1e10))';
/** Recurses until the wasm runtime aborts. */
const ABORT = 'def f: [f]; f';
const job = (query: string, input: unknown = null): PoolJob & { name: string } => ({ op: 'json', input: input as null, query, name: query });

function run(target: JqPool, jobs: (PoolJob & { name: string })[]) {
  const answers = new Map<string, Answer>();
  const slots = new Set<number>();
  target.askAll(jobs, (done, answer, slot) => {
    answers.set(done.name, answer);
    slots.add(slot);
  });
  return { answers, slots };
}

describe('jqPoolSize', () => {
  const plenty = 16 * 1024 ** 3;
  it('is one worker per core, bounded by --concurrency', () => {
    expect(jqPoolSize({ cores: 2, freeBytes: plenty })).toBe(2);
    expect(jqPoolSize({ cores: 2, concurrency: 1, freeBytes: plenty })).toBe(1);
    expect(jqPoolSize({ cores: 3, concurrency: 32, freeBytes: plenty })).toBe(3);
  });

  it('is bounded by memory: the pool budget on big machines, a share of what is free on small ones, never below one', () => {
    expect(jqPoolSize({ cores: 64, freeBytes: plenty })).toBe(Math.floor(POOL_MEMORY_BYTES / WORKER_BYTES));
    expect(jqPoolSize({ cores: 8, freeBytes: 8 * WORKER_BYTES })).toBe(2);
    expect(jqPoolSize({ cores: 8, freeBytes: 0 })).toBe(1);
  });
});

describe('a pool of jq workers', () => {
  it('posts waiting jobs to every worker, and answers each', () => {
    const jobs = Array.from({ length: 12 }, (_, i) => job(`. + ${i}`, 1));
    const target = pool(3);
    target.warm();
    const { answers, slots } = run(target, jobs);
    jobs.forEach((j, i) => expect(answers.get(j.name)).toMatchObject({ kind: 'json', values: [1 + i] }));
    expect([...slots].sort()).toEqual([0, 1, 2]);
  });

  it('runs follow-up jobs an answer asks for', () => {
    const target = pool(2);
    const seen: string[] = [];
    target.askAll([job('1'), job('2')], (done, answer) => {
      seen.push(JSON.stringify(answer.kind === 'json' ? answer.values : answer.kind));
      return done.query === '1' ? [job('3')] : [];
    });
    expect(seen.sort()).toEqual(['[1]', '[2]', '[3]']);
  });

  it('a job that loops times out on its own worker; the other workers answer the rest, and the pool keeps working', () => {
    const target = pool(2, 300);
    target.warm();
    const jobs = [job(HANG), ...Array.from({ length: 6 }, (_, i) => job(`${i} * 2`))];
    const { answers } = run(target, jobs);
    expect(answers.get(HANG)).toEqual({ kind: 'timeout' });
    for (let i = 0; i < 6; i++) expect(answers.get(`${i} * 2`)).toMatchObject({ kind: 'json', values: [i * 2] });
    // The stopped worker's slot is started afresh when needed.
    expect(run(target, [job('"a"'), job('"b"'), job('"c"')]).slots).toEqual(new Set([0, 1]));
    expect(target.ask('json', 2, '. + 1')).toMatchObject({ kind: 'json', values: [3] });
  });

  it('a job that crashes the wasm runtime is a crash of its own, not of the others', () => {
    const target = pool(3);
    const jobs = [job('"before"'), job(ABORT), ...Array.from({ length: 5 }, (_, i) => job(`"after ${i}"`))];
    const { answers } = run(target, jobs);
    expect(answers.get(ABORT)).toMatchObject({ kind: 'crash', message: expect.stringMatching(/^Aborted\(\)/) });
    expect(answers.get('"before"')).toMatchObject({ kind: 'json', values: ['before'] });
    for (let i = 0; i < 5; i++) expect(answers.get(`"after ${i}"`)).toMatchObject({ kind: 'json', values: [`after ${i}`] });
  });

  it('starts the other workers only for a set of jobs, which the first works on while they load', () => {
    const target = pool(3);
    // A lone request, or a set of one job, never starts another worker.
    target.ask('json', null, '1');
    expect(run(target, [job('"only"')]).slots).toEqual(new Set([0]));
    expect(target.running).toBe(1);
    const jobs = Array.from({ length: 40 }, (_, i) => job(`[range(${2_000 + i})] | length`));
    const { answers } = run(target, jobs);
    jobs.forEach((j, i) => expect(answers.get(j.name)).toMatchObject({ kind: 'json', values: [2_000 + i] }));
    expect(target.running).toBe(3);
    // Once loaded, the next set is spread over all of them.
    target.warm();
    expect(run(target, jobs.slice(0, 12)).slots).toEqual(new Set([0, 1, 2]));
  });

  it('waits for its first worker without blocking the thread (the CLI loads jq while it reads the org, maybe live)', async () => {
    const starved = new JqPool({ ...seed, jqWasmPath: resolve('test/fixtures/never-loading-jq.cjs') }, 1, 1000);
    let settled: string | undefined;
    const loaded = starved.loaded().then(
      () => (settled = 'loaded'),
      (error: Error) => (settled = error.message),
    );
    // The event loop turns while the worker has not loaded (a blocking wait would hold it until the startup limit).
    for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
    expect(settled).toBeUndefined();
    await starved.close();
    await loaded;
    expect(settled).toMatch(/^could not start jq/);
  });

  it('counts every request, lone or pooled', () => {
    const target = pool(2);
    target.ask('json', null, '1');
    run(target, [job('1'), job('2'), job('3')]);
    expect(target.requests).toBe(4);
  });
});
