import { afterAll, beforeAll } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';

/**
 * Two jq engines for the file's tests: one the batching is tried on, one asked one call at a time,
 * so their answers can be compared. Loaded before the tests, closed after them.
 */
export function useEnginePair(): { batched: () => JqEngine; alone: () => JqEngine } {
  let batched: JqEngine | undefined;
  let alone: JqEngine | undefined;
  beforeAll(async () => {
    [batched, alone] = await Promise.all([loadJqEngine(), loadJqEngine()]);
  });
  afterAll(async () => {
    await batched?.close?.();
    await alone?.close?.();
  });
  return { batched: () => batched!, alone: () => alone! };
}
