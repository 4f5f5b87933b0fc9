import type { JqEngine } from '../src/jq/engine.js';

/**
 * The engine, timing the calls that block the main thread on jq: the wall time they took, and the
 * CPU time the process spent meanwhile (the main thread waits without using any, so that is the
 * workers'): CPU over wall is how many workers ran at once, whatever else loads the machine.
 */
export function timed(jq: JqEngine): { engine: JqEngine; waitedMs: () => number; workersCpuMs: () => number } {
  let waited = 0n;
  let cpu = 0;
  const time = <A extends unknown[], R>(call: (...args: A) => R) => (...args: A): R => {
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    try {
      return call(...args);
    } finally {
      waited += process.hrtime.bigint() - started;
      const used = process.cpuUsage(cpuBefore);
      cpu += (used.user + used.system) / 1_000;
    }
  };
  const engine: JqEngine = {
    ...jq,
    validate: time(jq.validate),
    evaluate: time(jq.evaluate),
    ...(jq.prefetch && { prefetch: time(jq.prefetch) }),
    ...(jq.evaluateEach && { evaluateEach: time(jq.evaluateEach) }),
  };
  return { engine, waitedMs: () => Number(waited) / 1e6, workersCpuMs: () => cpu };
}
