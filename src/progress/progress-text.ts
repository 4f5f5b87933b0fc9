import type { Progress } from '../model/finding.js';

/** "2026-01-02T03:04:05.000Z" → "2026-01-02"; the day is what an admin remembers a run by. */
export function sinceDay(progress: Progress): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T/.exec(progress.since.date ?? '');
  return match?.[1];
}

/** One sentence for stderr, the Markdown summary and the HTML header: "12 of 40 fixed since 2026-01-02; 28 open, 3 new." */
export function progressSentence(progress: Progress): string {
  const day = sinceDay(progress);
  const since = day === undefined ? 'since the previous report' : `since ${day}`;
  const sentence = `${progress.fixed.length} of ${progress.since.findings} fixed ${since}; ${progress.open} still open, ${progress.new} new.`;
  return progress.provisional ? `${sentence} Provisional: this run could not read everything, so some counted fixed may only have gone unread.` : sentence;
}
