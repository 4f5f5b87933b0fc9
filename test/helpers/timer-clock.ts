import type { FakeClock } from './fake-clock.js';

/**
 * A fake clock whose sleepers overlap as real timers do: time stands still while anything else
 * can run, then jumps to the earliest wake and wakes everyone due by then. (createFakeClock moves
 * time at each sleep call, so concurrent sleeps add up instead of overlapping.)
 */
export function createTimerClock(start = Date.UTC(2025, 0, 1)): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  const pending: Array<{ at: number; wake: () => void }> = [];
  let scheduled = false;
  const advance = () => {
    scheduled = false;
    if (pending.length === 0) return;
    pending.sort((a, b) => a.at - b.at);
    time = Math.max(time, pending[0]!.at);
    while (pending.length > 0 && pending[0]!.at <= time) pending.shift()!.wake();
    schedule();
  };
  // A macrotask later: every microtask (answers, bookkeeping) has run before time moves.
  const schedule = () => {
    if (scheduled || pending.length === 0) return;
    scheduled = true;
    setTimeout(advance, 0);
  };
  return {
    now: () => time,
    date: () => new Date(time),
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise<void>((wake) => {
        pending.push({ at: time + Math.max(0, ms), wake });
        schedule();
      });
    },
    sleeps,
  };
}
