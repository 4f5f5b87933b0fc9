import type { AccessChange, AccessPermission } from '../model/access.js';
import type { Report } from '../model/finding.js';
import { plural } from '../plural.js';

/** One sentence about one finding's effect on people, with who they are (for the expandable list). */
export interface AccessLine {
  text: string;
  emails: string[];
  tone: 'loses' | 'gains' | 'undecidable';
}

/** What the page shows about access: a summary for the top, and lines per finding id. */
export interface AccessView {
  shown: boolean;
  headline: string;
  details: string[];
  byFinding: Record<string, AccessLine[]>;
}

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);

/** What losing or gaining each permission means, as the end of "3 people …". */
const PHRASES: Record<AccessPermission, (input: string) => { loses: string; gains: string; what: string }> = {
  execute: () => ({ loses: 'lose the right to run this', gains: 'gain the right to run this', what: 'who can run this' }),
  approve: () => ({ loses: 'lose the right to approve this', gains: 'gain the right to approve this', what: 'who can approve this' }),
  read: () => ({ loses: 'lose the right to see this page', gains: 'gain the right to see this page', what: 'who can see this page' }),
  visible: (input) => ({ loses: `stop seeing input "${input}"`, gains: `start seeing input "${input}"`, what: `who sees input "${input}"` }),
  required: (input) => ({ loses: `no longer have to fill input "${input}"`, gains: `newly have to fill input "${input}"`, what: `who must fill input "${input}"` }),
  // `disabled` holds when the input is disabled: gaining it means losing the right to change the input.
  disabled: (input) => ({ loses: `may newly change input "${input}"`, gains: `can no longer change input "${input}"`, what: `who may change input "${input}"` }),
};

/** The sentences of one access entry: who loses, who gains, or why it cannot be said. */
export function accessLines(entry: AccessChange): AccessLine[] {
  const phrase = PHRASES[entry.permission](entry.input ?? '');
  if (entry.undecidable !== undefined) {
    return [{ text: `After the migration, ${phrase.what} cannot be computed: ${entry.undecidable}.`, emails: [], tone: 'undecidable' }];
  }
  const lines: AccessLine[] = [];
  if (entry.loses?.length) lines.push({ text: `${people(entry.loses.length)} ${phrase.loses}`, emails: entry.loses, tone: 'loses' });
  if (entry.gains?.length) lines.push({ text: `${people(entry.gains.length)} ${phrase.gains}`, emails: entry.gains, tone: 'gains' });
  return lines;
}

/** Counts over a report's access: "17 people lose access to 5 actions", then the rest. */
export function accessSummary(access: readonly AccessChange[]): { headline: string; details: string[] } {
  const count = (entries: readonly AccessChange[], side: 'loses' | 'gains') => ({
    people: new Set(entries.flatMap((e) => e[side] ?? [])).size,
    actions: new Set(entries.filter((e) => e[side]?.length && e.resource.type !== 'page').map((e) => `${e.resource.type}\u0000${e.resource.identifier}`)).size,
    pages: new Set(entries.filter((e) => e[side]?.length && e.resource.type === 'page').map((e) => e.resource.identifier)).size,
    inputs: new Set(entries.filter((e) => e[side]?.length).map((e) => `${e.resource.identifier}\u0000${e.input}`)).size,
  });
  const where = (c: { actions: number; pages: number }) => [c.actions > 0 ? plural(c.actions, 'action') : '', c.pages > 0 ? plural(c.pages, 'page') : ''].filter(Boolean).join(' and ');
  const rights = access.filter((e) => e.permission === 'execute' || e.permission === 'approve' || e.permission === 'read');
  const inputs = access.filter((e) => e.input !== undefined);
  const lost = count(rights, 'loses');
  const gained = count(rights, 'gains');
  const headline = lost.people > 0 ? `${people(lost.people)} lose access to ${where(lost)}` : 'Nobody loses access to an action or a page';
  const details: string[] = [];
  if (gained.people > 0) details.push(`${people(gained.people)} gain access to ${where(gained)}`);
  const hidden = count(inputs.filter((e) => e.permission === 'visible'), 'loses');
  if (hidden.people > 0) details.push(`${people(hidden.people)} stop seeing ${plural(hidden.inputs, 'input')}`);
  const shown = count(inputs.filter((e) => e.permission === 'visible'), 'gains');
  if (shown.people > 0) details.push(`${people(shown.people)} start seeing ${plural(shown.inputs, 'input')}`);
  const other = inputs.filter((e) => e.permission !== 'visible' && (e.loses?.length || e.gains?.length));
  if (other.length > 0) details.push(`${plural(new Set(other.map((e) => `${e.resource.identifier}\u0000${e.input}`)).size, 'input')} change whether they are required or editable for ${people(new Set(other.flatMap((e) => [...(e.loses ?? []), ...(e.gains ?? [])])).size)}`);
  const undecidable = access.filter((e) => e.undecidable !== undefined).length;
  if (undecidable > 0) details.push(`${plural(undecidable, 'permission')} could not be decided: ${undecidable === 1 ? 'it depends' : 'they depend'} on data this tool does not have`);
  return { headline, details };
}

/** Everything the HTML needs about access; `shown` is false when the snapshot listed no users. */
export function accessView(report: Report): AccessView {
  const access = report.access;
  if (access === undefined) return { shown: false, headline: '', details: [], byFinding: {} };
  const byFinding: Record<string, AccessLine[]> = {};
  for (const entry of access) {
    if (entry.finding === undefined) continue;
    (byFinding[entry.finding] ??= []).push(...accessLines(entry));
  }
  return { shown: true, ...accessSummary(access), byFinding };
}

/** One line for summaries (Markdown, SARIF): the headline and the details, joined. */
export function accessSummaryLine(access: readonly AccessChange[]): string {
  const { headline, details } = accessSummary(access);
  return [headline, ...details].join('; ');
}
