import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, asked for where a step has just let go of most of what it held (the
 * org as read and its catalog, before the reports are written). V8 sets the next full collection
 * by the heap's size at the last one, so without it the reports of the 100x org were written on
 * top of 500 MB of the analysis's dead data, and the peak RSS passed 1 GB (issue 41). The
 * collector is taken from a context of its own: `gc` is not made a global of the run.
 */
export function releaseMemory(floor = FLOOR): boolean {
  // Below the floor what V8 keeps is far from the 1 GB budget, and a forced collection only costs time (0.3 s of the 10x org's run).
  if (process.memoryUsage().heapUsed < floor) return false;
  collector ??= collectorOfOwnContext();
  collector();
  settledHeap = process.memoryUsage().heapUsed;
  return true;
}

/**
 * releaseMemory where the heap has grown by more than a fifth since it last held little but live
 * data (the last collection, or `noteSettledHeap`): a step that made much garbage (the 100x org's
 * kit) is collected before the next adds to it, and one that made little is not. A full collection
 * costs in proportion to what is live: with a million entities held for the kit it took a second
 * and freed 2 % of the heap (issue 41). Returns whether it collected.
 */
export function releaseGrowth(floor = FLOOR): boolean {
  if (settledHeap !== undefined && process.memoryUsage().heapUsed <= settledHeap * GROWTH) return false;
  return releaseMemory(floor);
}

/** The heap now holds little but live data (the org just read): releaseGrowth measures from here. */
export function noteSettledHeap(): void {
  settledHeap = process.memoryUsage().heapUsed;
}

/** How much the heap may grow past its settled size before releaseGrowth collects. */
const GROWTH = 1.2;

/** The heap below which no collection is asked for: the 100x org's was 500 MB there, the 10x org's 130 MB. */
const FLOOR = 256 * 1024 * 1024;

let settledHeap: number | undefined;
let collector: (() => void) | undefined;

function collectorOfOwnContext(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
