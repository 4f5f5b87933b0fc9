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
  const notCompared = progress.notCompared ? ` ${progress.notCompared} not compared: their repositories were not scanned this run (pass the same --repo).` : '';
  const unchanged = progress.fixed.filter((item) => item.unchanged).length;
  const unchangedText = unchanged > 0 ? ` ${unchanged} of the fixed ${unchanged === 1 ? 'is' : 'are'} unchanged and now pass${unchanged === 1 ? 'es' : ''} team identifiers on: check that what receives them expects identifiers.` : '';
  const sentence = `${progress.fixed.length} of ${progress.since.findings} fixed ${since}; ${progress.open} still open, ${progress.new} new.${unchangedText}${notCompared}${lockedOutSentence(progress)}`;
  return progress.provisional ? `${sentence} Provisional: this run could not read everything, so some counted fixed may only have gone unread.` : sentence;
}

/** " 4 people are still locked out of 3 permissions." (with `--since` and users on both sides), else "". */
function lockedOutSentence(progress: Progress): string {
  const locked = progress.stillLockedOut;
  if (!locked) return '';
  const people = new Set(locked.flatMap((entry) => entry.loses ?? [])).size;
  const places = locked.filter((entry) => (entry.loses ?? []).length > 0).length;
  const undecidable = locked.filter((entry) => entry.undecidable !== undefined).length;
  const known = people === 0 ? ' Nobody who was to lose access is still locked out.' : ` ${people} ${people === 1 ? 'person is' : 'people are'} still locked out of ${places} permission${places === 1 ? '' : 's'}.`;
  return undecidable === 0 ? known : `${known} ${undecidable} more depend${undecidable === 1 ? 's' : ''} on data this run does not have.`;
}
