import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured, type CliRun } from '../cli/run-cli.js';

/** A scratch folder an unprivileged user may also write in (the unreadable-file cases run as one). */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tma-hostile-${name}-`));
  chmodSync(dir, 0o777);
  return dir;
}

/**
 * The CPU time `run` took (this process, every thread: the jq worker too), with its result. A
 * bound on work, not on time: a busy machine stretches the wall clock, not the work done, so a
 * linear pass stays far under a bound that a quadratic one would blow by minutes.
 */
export async function timed<T>(run: () => Promise<T> | T): Promise<{ result: T; cpuMs: number }> {
  const started = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(started);
  return { result, cpuMs: (used.user + used.system) / 1_000 };
}

/** What a run gets before it counts as blocked: far beyond any run of these cases, on any machine. */
const BLOCKED_AFTER_MS = 90_000;

/**
 * The CLI in-process, failing the test (not hanging it) when it blocks: a run that waits for ever
 * (on a named pipe, a device) is the bug several of these cases guard against. What it cost is its
 * CPU time (see timed).
 */
export async function runWithin(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun & { cpuMs: number }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run did not finish: blocked for ${BLOCKED_AFTER_MS / 1_000} s`)), BLOCKED_AFTER_MS);
  });
  try {
    const { result, cpuMs } = await timed(() => Promise.race([runCliCaptured(argv, env), deadline]));
    return { ...result, cpuMs };
  } finally {
    clearTimeout(timer);
  }
}

export function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}

/** stderr as its lines, the last newline dropped. */
export const stderrLines = (run: CliRun): string[] => run.stderr.replace(/\n$/, '').split('\n');

/**
 * Run `body` with the effective user of `nobody`, so file permissions hold even when the tests
 * run as root (containers); as any other user they hold anyway. The test pool runs each file in
 * its own process (vitest.config.ts: forks), so no other test shares the switch.
 */
export async function asUnprivileged<T>(body: () => Promise<T>): Promise<T> {
  const root = process.geteuid?.() === 0;
  if (root) process.seteuid!(65534);
  try {
    return await body();
  } finally {
    if (root) process.seteuid!(0);
  }
}
