import { describe, expect, it } from 'vitest';
import { createConcurrencyController } from '../../src/api/adaptive-concurrency.js';

const answer = (controller: ReturnType<typeof createConcurrencyController>, times: number, latencyMs: number, status: number | undefined = 200) => {
  for (let i = 0; i < times; i++) controller.onAnswer(latencyMs, status);
};

describe('adaptive concurrency', () => {
  it('starts at the cap: the start measured best (issue 41)', () => {
    expect(createConcurrencyController(32).current()).toBe(32);
    expect(createConcurrencyController(12).current()).toBe(12);
  });

  it('from a lower start, doubles each round while latency holds, stops at the cap', () => {
    const controller = createConcurrencyController(32, 4);
    expect(controller.current()).toBe(4);
    answer(controller, 4, 50);
    expect(controller.current()).toBe(8);
    answer(controller, 8, 52);
    expect(controller.current()).toBe(16);
    answer(controller, 100, 50);
    expect(controller.current()).toBe(32);
  });

  it('a cap below the start is the start', () => {
    expect(createConcurrencyController(3, 4).current()).toBe(3);
  });

  it('does not grow while latency is more than twice the best seen', () => {
    const controller = createConcurrencyController(32, 4);
    answer(controller, 4, 50);
    answer(controller, 50, 400);
    expect(controller.current()).toBe(8);
  });

  it('holds on a 429: the rate limit is waited out per request class, and the retries may then all go (issue 23 item 7)', () => {
    const controller = createConcurrencyController(32, 4);
    answer(controller, 4 + 8 + 16, 50);
    expect(controller.current()).toBe(32);
    answer(controller, 3, 50, 429);
    expect(controller.current()).toBe(32);
  });

  it('after a cut, grows by one per round', () => {
    const controller = createConcurrencyController(32, 4);
    answer(controller, 4 + 8 + 16, 50);
    answer(controller, 8, 50, 503);
    expect(controller.current()).toBe(16);
    answer(controller, 16 * 2, 50);
    expect(controller.current()).toBe(17);
  });

  it('halves on a burst of 5xx, not on a single one or a few scattered', () => {
    const controller = createConcurrencyController(32, 4);
    answer(controller, 4 + 8, 50);
    expect(controller.current()).toBe(16);
    answer(controller, 1, 50, 503);
    answer(controller, 5, 50);
    expect(controller.current()).toBe(16);
    answer(controller, 2, 50, 503);
    expect(controller.current()).toBe(16); // 3 in 20: what 5 % of failures at random often gives
    answer(controller, 3, 50, 503);
    expect(controller.current()).toBe(16); // 6 in 20: what 5 % at random gives about once in a 10x fetch
    answer(controller, 2, 50, 503);
    expect(controller.current()).toBe(8);
  });

  it('keeps its slots through a 10x fetch with 5 % of answers failing at random, and cuts where half fail (issue 41)', () => {
    // A seeded generator (mulberry32): the same 9,000 answers every run.
    let seed = 41;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const scattered = createConcurrencyController(32);
    let failures = 0;
    for (let i = 0; i < 9_000; i++) {
      const failed = random() < 0.05;
      failures += failed ? 1 : 0;
      scattered.onAnswer(50, failed ? 503 : 200);
      expect(scattered.current()).toBe(32);
    }
    expect(failures).toBeGreaterThan(400); // the 5 % did come
    const overloaded = createConcurrencyController(32);
    for (let i = 0; i < 20; i++) overloaded.onAnswer(50, i % 2 === 0 ? 503 : 200);
    expect(overloaded.current()).toBe(16);
  });
});
