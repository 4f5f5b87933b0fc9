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

/** How long `run` took, with its result. */
export async function timed<T>(run: () => Promise<T> | T): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/**
 * The CLI in-process, failing the test (not hanging it) when it is not done within `ms`: a
 * blocked run is the bug several of these cases guard against.
 */
export async function runWithin(ms: number, argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun & { ms: number }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run did not finish within ${ms} ms`)), ms);
  });
  try {
    const { result, ms: took } = await timed(() => Promise.race([runCliCaptured(argv, env), deadline]));
    return { ...result, ms: took };
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
