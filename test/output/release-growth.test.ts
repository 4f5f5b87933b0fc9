import { describe, expect, it } from 'vitest';
import { noteSettledHeap, releaseGrowth, releaseMemory } from '../../src/release-memory.js';

describe('releaseGrowth: a full collection only where the heap grew (issue 41)', () => {
  it('skips while the heap is near its settled size, collects once it grew by more than a fifth', () => {
    releaseMemory(0);
    noteSettledHeap();
    expect(releaseGrowth(0)).toBe(false);
    // Half the heap again, held (so no collection V8 starts on its own frees it), then let go: garbage until a collection.
    const settled = process.memoryUsage().heapUsed;
    const held: number[][] = [];
    while (process.memoryUsage().heapUsed < settled * 1.5) held.push(new Array(100_000).fill(held.length));
    held.length = 0;
    // A heap below the floor is left to V8, however much it grew: a forced collection there only costs time.
    expect(releaseGrowth(settled * 10)).toBe(false);
    expect(releaseGrowth(0)).toBe(true);
    // The collection is the new settled size: nothing grew since.
    expect(releaseGrowth(0)).toBe(false);
  });
});
