/** The signals the CLI ends a run on (src/main.ts): its handler exits the process at once. */
const HELD = ['SIGINT', 'SIGTERM'] as const;
type HeldSignal = (typeof HELD)[number];

/**
 * Run `work` with SIGINT and SIGTERM held: one that arrives meanwhile is handed to the listeners
 * that were there (or, with none, raised again for the default action) only once `work` has
 * settled. `--fix` replaces several files as one change; the CLI's handler exiting between two
 * renames would leave a repository half-fixed with temporary files beside its targets. A kill that
 * cannot be caught (SIGKILL) can still cut it.
 */
export async function withSignalsHeld<T>(work: () => Promise<T>): Promise<T> {
  const saved = new Map<HeldSignal, Array<(...args: unknown[]) => void>>();
  const arrived = new Set<HeldSignal>();
  const hold = (signal: NodeJS.Signals) => void arrived.add(signal as HeldSignal);
  for (const signal of HELD) {
    saved.set(signal, process.rawListeners(signal) as Array<(...args: unknown[]) => void>);
    process.removeAllListeners(signal);
    process.on(signal, hold);
  }
  try {
    return await work();
  } finally {
    for (const signal of HELD) {
      process.removeListener(signal, hold);
      // Raw listeners keep a `once` listener's wrapper, which removes itself when called.
      for (const listener of saved.get(signal)!) process.on(signal, listener);
    }
    for (const signal of arrived) {
      if (process.listenerCount(signal) > 0) process.emit(signal, signal);
      else process.kill(process.pid, signal);
    }
  }
}
