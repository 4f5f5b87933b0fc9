import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { loadJqEngine, type JqEngineOptions } from '../../src/jq/engine.js';
import { jqPoolSize } from '../../src/jq/worker-pool.js';

/**
 * Through the CLI's jq seam, not a module mock: the suite's files share their modules
 * (`isolate: false`), so a mock of the engine module would not reach a cli.js another file loaded.
 */
async function workersAsked(argv: string[]): Promise<JqEngineOptions[]> {
  const asked: JqEngineOptions[] = [];
  const code = await runCli(argv, {
    stdout: () => {},
    stderr: () => {},
    env: {},
    now: () => new Date('2026-01-02T03:04:05Z'),
    loadJq: (options = {}) => {
      asked.push(options);
      return loadJqEngine(options);
    },
  });
  expect(code).toBe(0);
  return asked;
}

describe('analyze runs jq on one worker per core, bounded by --concurrency', () => {
  it('starts no more workers than --concurrency allows', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tma-workers-'));
    expect(await workersAsked(['analyze', '--demo', '--out', out, '--concurrency', '1'])).toEqual([{ workers: 1 }]);
    expect(await workersAsked(['analyze', '--demo', '--out', out])).toEqual([{ workers: jqPoolSize({ concurrency: 32 }) }]);
  });
});
