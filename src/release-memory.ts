import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, asked for where a step has just let go of most of what it held (the
 * org as read and its catalog, before the reports are written). V8 sets the next full collection
 * by the heap's size at the last one, so without it the reports of the 100x org were written on
 * top of 500 MB of the analysis's dead data, and the peak RSS passed 1 GB (issue 41). The
 * collector is taken from a context of its own: `gc` is not made a global of the run.
 */
export function releaseMemory(): void {
  collector ??= collectorOfOwnContext();
  collector();
}

let collector: (() => void) | undefined;

function collectorOfOwnContext(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
