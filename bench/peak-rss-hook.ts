/**
 * Loaded with `node --import` into a measured process (bench/whole-process.ts): when the process
 * exits it writes its own peak RSS and CPU time, as the kernel counted them, to file descriptor 3.
 * The process under measurement is the CLI itself, unchanged.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  } catch {
    // Not run by the bench (no descriptor 3): nothing to report to.
  }
});
