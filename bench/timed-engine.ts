import type { JqEngine } from '../src/jq/engine.js';

/** The engine, timing the calls that block the main thread on jq. */
export function timed(jq: JqEngine): { engine: JqEngine; waitedMs: () => number } {
  let waited = 0n;
  const time = <A extends unknown[], R>(call: (...args: A) => R) => (...args: A): R => {
    const started = process.hrtime.bigint();
    try {
      return call(...args);
    } finally {
      waited += process.hrtime.bigint() - started;
    }
  };
  const engine: JqEngine = {
    ...jq,
    validate: time(jq.validate),
    evaluate: time(jq.evaluate),
    ...(jq.prefetch && { prefetch: time(jq.prefetch) }),
    ...(jq.evaluateAll && { evaluateAll: time(jq.evaluateAll) }),
    ...(jq.evaluateEach && { evaluateEach: time(jq.evaluateEach) }),
  };
  return { engine, waitedMs: () => Number(waited) / 1e6 };
}
