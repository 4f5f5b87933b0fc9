import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A process measured from outside: wall time from start to exit, and its own peak RSS and CPU time. */
export interface ProcessFigures {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
  status: number | null;
  stderr: string;
  /**
   * Where the wall time went, by the scheduler's count (Linux): the main thread's time on a core
   * and waiting in the run queue for one, and the run-queue wait of every thread alive at exit.
   * The wall time less the main thread's two is time it slept: on a read, a worker, a timer.
   */
  schedule?: { mainOnCpuMs: number; mainWaitMs: number; threadsWaitMs: number };
}

const HOOK = fileURLToPath(new URL('./peak-rss-hook.js', import.meta.url));

/**
 * Run `node SCRIPT ARGS` to its end: the wall time is read around the child, its peak RSS and CPU
 * time are the kernel's own accounting of that process (getrusage, written by bench/peak-rss-hook.ts
 * at exit to descriptor 3). Node's start-up is included, as a user's run includes it.
 */
export function runNode(script: string, args: readonly string[], nodeOptions: readonly string[] = []): ProcessFigures {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...nodeOptions, '--import', HOOK, script, ...args], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const own = String(result.output?.[3] ?? '');
  if (!own) throw new Error(`${script} ${args.join(' ')}: no figures (exit ${result.status}, signal ${result.signal}): ${String(result.stderr).split('\n')[0]}`);
  const { maxRssKb, cpuUs, schedule } = JSON.parse(own) as { maxRssKb: number; cpuUs: number; schedule?: ProcessFigures['schedule'] };
  return { wallMs, cpuMs: cpuUs / 1_000, peakMb: maxRssKb / 1_024, status: result.status, stderr: String(result.stderr), ...(schedule !== undefined && { schedule }) };
}

/** The CLI as built for the benches (`npm run tools:build`), `src/main.ts` compiled into `.tools/`. */
export const CLI = fileURLToPath(new URL('../src/main.js', import.meta.url));

/** `analyze` as a whole command: a report written (exit 0 or 1, the gate's answer), anything else is no measurement. */
export function runAnalyze(args: readonly string[]): ProcessFigures {
  const figures = runNode(CLI, ['analyze', ...args]);
  if (figures.status !== 0 && figures.status !== 1) throw new Error(`analyze ${args.join(' ')} exited ${figures.status}: ${figures.stderr.split('\n')[0]}`);
  return figures;
}

export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
