import { describe, expect, it } from 'vitest';
import { createProgress, renderBar } from '../../src/sources/progress.js';
import { loadFixture, run, tempDir, withSandbox } from './harness.js';

describe('progress on stderr', () => {
  it('renders resources, requests and the seconds left of a rate-limit wait', () => {
    expect(renderBar({ done: 5, total: 10, requests: 12, waitSeconds: 0 })).toBe('[############------------] 5/10 resources · 12 requests');
    expect(renderBar({ done: 3, total: 9, settled: false, requests: 3, waitSeconds: 0 })).toBe('[########----------------] 3/9+ resources · 3 requests');
    expect(renderBar({ done: 0, total: 0, requests: 0, waitSeconds: 42 })).toBe('[------------------------] 0/0 resources · 0 requests · rate limit: 42 s left');
  });

  it('draws a bar on a terminal, at most every 100 ms plus the last frame', () => {
    let time = 0;
    let text = '';
    const progress = createProgress({ write: (t) => (text += t), isTTY: true, quiet: false, now: () => time });
    progress.onFetch({ type: 'phase', phase: 'lists' });
    progress.onFetch({ type: 'progress', done: 1, total: 4, settled: true });
    progress.onFetch({ type: 'progress', done: 2, total: 4, settled: true }); // same instant: not drawn
    time = 150;
    progress.onClient({ type: 'rate-limit-wait', waitMs: 30_000, reason: '429' });
    progress.onFetch({ type: 'progress', done: 4, total: 4, settled: true });
    progress.finish('done');
    const frames = text.split('\r\x1b[2K').filter(Boolean);
    expect(frames).toEqual([
      '[######------------------] 1/4 resources · 0 requests',
      '[############------------] 2/4 resources · 0 requests · rate limit: 30 s left',
      '[########################] 4/4 resources · 0 requests · rate limit: 30 s left\ndone\n',
    ]);
  });

  it('reaches its total when no blueprint needs a $team sample (the samples\' search is not sent, so it is not counted)', async () => {
    const fixture = await loadFixture();
    // Every blueprint already has ownership: nothing to sample.
    const snapshot = { ...fixture, blueprints: fixture.blueprints.map((b) => (String(b.identifier).startsWith('_') || b.teamInheritance ? b : { ...b, ownership: { type: 'Direct' } })) };
    await withSandbox({ snapshot }, async (sandbox, clock) => {
      const tty = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock, { isTTY: true });
      const frames = tty.stderr.split('\r\x1b[2K').map((frame) => /(\d+)\/(\d+)(\+?) resources/.exec(frame)).filter((m) => m !== null);
      const [, done, total, plus] = frames.at(-1)!;
      expect(plus).toBe('');
      expect(Number(done)).toBe(Number(total));
    });
  });

  it('on a live read, a total shown without "+" is the final one: the bar never reads 8/8 and then 10/31', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const events: { done: number; total: number; settled: boolean }[] = [];
      const tty = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock, { isTTY: true });
      const frames = tty.stderr.split('\r\x1b[2K').map((frame) => /(\d+)\/(\d+)(\+?) resources/.exec(frame)).filter((m) => m !== null);
      for (const [, done, total, plus] of frames) events.push({ done: Number(done), total: Number(total), settled: plus === '' });
      expect(events.length).toBeGreaterThan(1);
      const final = events.at(-1)!;
      expect(final.settled).toBe(true);
      expect(final.done).toBe(final.total);
      for (const event of events) {
        if (event.settled) expect(event.total).toBe(final.total);
        expect(event.done).toBeLessThanOrEqual(event.total);
      }
      expect(events.some((event) => !event.settled)).toBe(true);
    });
  });

  it('prints one line per phase without a terminal, and nothing with --quiet', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token };
      const plain = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], env, clock);
      const lines = plain.stderr.trim().split('\n');
      expect(lines[0]).toBe('fetching organization, blueprints, actions, pages, integrations, webhooks, teams, scorecards');
      expect(lines[1]).toBe('fetching permissions of 8 blueprints, 1 action, 2 pages; entities of 6 blueprints');
      expect(lines[2]).toMatch(new RegExp(`^fetched ${sandbox.url} in 0\\.0 s: \\d+ requests, 0 retries$`));
      expect(plain.stderr).not.toContain('\r');

      const tty = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none'], env, clock, { isTTY: true });
      expect(tty.stderr).toContain('\r\x1b[2K[');
      expect(tty.stderr).not.toContain('fetching ');

      const quiet = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--fail-on', 'none', '--quiet'], env, clock, { isTTY: true });
      expect(quiet.stderr).toBe('');
    });
  });
});
