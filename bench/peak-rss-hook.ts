/**
 * Loaded with `node --import` into a measured process (bench/whole-process.ts): when the process
 * exits it writes its own peak RSS and CPU time, as the kernel counted them, to file descriptor 3,
 * and (issue 41: where a run's wall time goes on a busy machine) how long its main thread ran on a
 * core and waited for one, and how long all its threads still alive waited for a core, from the
 * scheduler's own count (/proc/self/task/<id>/schedstat: time on a core, time waiting in the run
 * queue, in ns; absent off Linux). The process under measurement is the CLI itself, unchanged.
 */
import { readdirSync, readFileSync, writeSync } from 'node:fs';

/** [ns on a core, ns waiting in the run queue] of one thread, or undefined where the kernel does not say. */
function schedstat(task: string): [number, number] | undefined {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${task}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return onCpu !== undefined && waiting !== undefined && Number.isFinite(onCpu) && Number.isFinite(waiting) ? [onCpu, waiting] : undefined;
  } catch {
    return undefined;
  }
}

function schedule(): { mainOnCpuMs: number; mainWaitMs: number; threadsWaitMs: number } | undefined {
  const main = schedstat(String(process.pid));
  if (main === undefined) return undefined;
  let threadsWait = 0;
  for (const task of readdirSync('/proc/self/task')) threadsWait += schedstat(task)?.[1] ?? 0;
  return { mainOnCpuMs: main[0] / 1e6, mainWaitMs: main[1] / 1e6, threadsWaitMs: threadsWait / 1e6 };
}

process.on('exit', () => {
  const usage = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime, schedule: schedule() }));
  } catch {
    // Not run by the bench (no descriptor 3): nothing to report to.
  }
});
