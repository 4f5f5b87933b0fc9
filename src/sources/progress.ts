import type { ClientEvent } from '../api/client.js';
import type { FetchEvent } from './live.js';
import { REDRAW_LINE } from '../terminal-text.js';

interface ProgressOptions {
  write: (text: string) => void;
  isTTY: boolean;
  quiet: boolean;
  now: () => number;
}

export interface Progress {
  onFetch: (event: FetchEvent) => void;
  onClient: (event: ClientEvent) => void;
  /** Close the bar (a final newline) and print the totals line. */
  finish: (summary: string) => void;
  /** The run stops with an error: end the bar's line so the error starts on its own. */
  abort: () => void;
}

/** Ours: redraw the bar at most ten times a second; a big org finishes thousands of reads a second. */
const REDRAW_INTERVAL_MS = 100;
/** Ours: fits an 80-column terminal with the counters beside it. */
const BAR_WIDTH = 24;

/** Progress on stderr: a bar on a terminal, one line per phase otherwise, nothing when quiet. */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { onFetch: () => {}, onClient: () => {}, finish: () => {}, abort: () => {} };
  let done = 0;
  let total = 0;
  let settled = false;
  let requests = 0;
  let waitUntil = 0;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  let capSaid = false;
  // Off a terminal, the first phase's line (the organization and the lists, a few reads) waits for
  // the next line: a run that fails there (refused connection, rejected token, not the API) says
  // its one-line error and nothing before it.
  let pendingPhase: string | undefined;
  let phases = 0;
  const sayPhase = () => {
    if (pendingPhase !== undefined) options.write(pendingPhase);
    pendingPhase = undefined;
  };

  const draw = (force: boolean) => {
    const now = options.now();
    if (!force && now - lastDraw < REDRAW_INTERVAL_MS) return;
    lastDraw = now;
    drawn = true;
    options.write(`${REDRAW_LINE}${renderBar({ done, total, settled, requests, waitSeconds: Math.ceil(Math.max(0, waitUntil - now) / 1_000) })}`);
  };

  return {
    onFetch(event) {
      if (event.type === 'phase') {
        if (!options.isTTY) {
          sayPhase();
          if (phases++ === 0) pendingPhase = `fetching ${event.phase}\n`;
          else options.write(`fetching ${event.phase}\n`);
        }
        return;
      }
      done = event.done;
      total = event.total;
      settled = event.settled;
      if (options.isTTY) draw(done === total);
    },
    onClient(event) {
      if (event.type === 'request') requests = event.count;
      if (event.type === 'rate-limit-wait') {
        const until = options.now() + event.waitMs;
        const extends_ = until > waitUntil + 1_000;
        waitUntil = Math.max(waitUntil, until);
        if (!options.isTTY && extends_) {
            sayPhase();
          options.write(`rate limit: waiting ${Math.ceil(event.waitMs / 1_000)} s (${event.reason === '429' ? 'HTTP 429' : 'budget spent'})\n`);
        }
      }
      if (event.type === 'rate-limit-cap' && !capSaid) {
        // Once: the cap is the same for every request it stops, and each is listed as incomplete.
        capSaid = true;
        sayPhase();
        options.write(`${options.isTTY && drawn ? '\n' : ''}rate limit: not waiting: ${event.reason}; what could not be read is listed as incomplete\n`);
      }
      if (options.isTTY) draw(event.type === 'rate-limit-wait');
    },
    finish(summary) {
      sayPhase();
      if (options.isTTY && drawn) options.write('\n');
      options.write(`${summary}\n`);
    },
    abort() {
      pendingPhase = undefined;
      if (options.isTTY && drawn) options.write('\n');
      drawn = false;
    },
  };
}

/** `total+` while the total can still grow: a bar must not read 8/8 and then 10/31. */
export function renderBar(state: { done: number; total: number; settled?: boolean; requests: number; waitSeconds: number }): string {
  const ratio = state.total > 0 ? Math.min(1, state.done / state.total) : 0;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const wait = state.waitSeconds > 0 ? ` · rate limit: ${state.waitSeconds} s left` : '';
  return `${bar} ${state.done}/${state.total}${state.settled === false ? '+' : ''} resources · ${state.requests} requests${wait}`;
}
