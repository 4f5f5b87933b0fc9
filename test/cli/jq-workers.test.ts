import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JqEngineOptions } from '../../src/jq/engine.js';
import { jqPoolSize } from '../../src/jq/worker-pool.js';
import { runCliCaptured } from './run-cli.js';

const asked: JqEngineOptions[] = [];
vi.mock('../../src/jq/engine.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/jq/engine.js')>();
  return {
    ...original,
    loadJqEngine: (options: JqEngineOptions = {}) => {
      asked.push(options);
      return original.loadJqEngine(options);
    },
  };
});

describe('analyze runs jq on one worker per core, bounded by --concurrency', () => {
  it('starts no more workers than --concurrency allows', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tma-workers-'));
    asked.length = 0;
    expect((await runCliCaptured(['analyze', '--demo', '--out', out, '--concurrency', '1'])).code).toBe(0);
    expect(asked).toEqual([{ workers: 1 }]);
    asked.length = 0;
    expect((await runCliCaptured(['analyze', '--demo', '--out', out])).code).toBe(0);
    expect(asked).toEqual([{ workers: jqPoolSize({ concurrency: 32 }) }]);
  });
});
