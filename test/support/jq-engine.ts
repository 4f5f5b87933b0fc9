import { afterAll, beforeAll } from 'vitest';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';

/**
 * The file's jq engine, loaded before its tests and closed after them: call it once at the top
 * level of a test file. What it returns forwards to the engine, so it can be passed to the code
 * under test as it is, before the engine has loaded.
 */
export function useJqEngine(): JqEngine {
  let engine: JqEngine | undefined;
  beforeAll(async () => {
    engine = await loadJqEngine();
  });
  afterAll(async () => {
    await engine?.close?.();
  });
  const loaded = () => {
    if (!engine) throw new Error('the jq engine is used outside a test (it loads in beforeAll)');
    return engine;
  };
  return {
    validate: (expression) => loaded().validate(expression),
    evaluate: (input, expression) => loaded().evaluate(input, expression),
    prefetch: (work) => loaded().prefetch?.(work),
    requests: () => loaded().requests?.() ?? 0,
  };
}
