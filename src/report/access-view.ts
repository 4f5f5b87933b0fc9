import type { AccessChange, AccessPermission } from '../model/access.js';
import type { Report } from '../model/finding.js';
import { agreeing, plural } from '../plural.js';

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
  /** `entry`: the line's entry in report.access (the page loads its people from there when they are many). */
  byFinding: Record<string, (AccessLine & { entry: number })[]>;
}

/** "1 person loses", "3 people lose": the count with the verb that agrees with it. */
const people = (n: number, [one, many]: Verb) => `${plural(n, 'person', 'people')} ${agreeing(n, one, many)}`;

/** A verb phrase for one person and for several. */
type Verb = readonly [one: string, many: string];

/** What losing or gaining each permission means, as the end of "3 people …". */
const PHRASES: Record<AccessPermission, (input: string) => { loses: Verb; gains: Verb; what: string }> = {
  execute: () => ({ loses: ['loses the right to run this', 'lose the right to run this'], gains: ['gains the right to run this', 'gain the right to run this'], what: 'who can run this' }),
  approve: () => ({ loses: ['loses the right to approve this', 'lose the right to approve this'], gains: ['gains the right to approve this', 'gain the right to approve this'], what: 'who can approve this' }),
  read: () => ({ loses: ['loses the right to see this page', 'lose the right to see this page'], gains: ['gains the right to see this page', 'gain the right to see this page'], what: 'who can see this page' }),
  see: () => ({ loses: ['stops seeing this action', 'stop seeing this action'], gains: ['starts seeing this action', 'start seeing this action'], what: 'who sees this action' }),
  visible: (input) => ({ loses: [`stops seeing input "${input}"`, `stop seeing input "${input}"`], gains: [`starts seeing input "${input}"`, `start seeing input "${input}"`], what: `who sees input "${input}"` }),
  required: (input) => ({ loses: [`no longer has to fill input "${input}"`, `no longer have to fill input "${input}"`], gains: [`newly has to fill input "${input}"`, `newly have to fill input "${input}"`], what: `who must fill input "${input}"` }),
  // `disabled` holds when the input is disabled: gaining it means losing the right to change the input.
  disabled: (input) => ({ loses: [`may newly change input "${input}"`, `may newly change input "${input}"`], gains: [`can no longer change input "${input}"`, `can no longer change input "${input}"`], what: `who may change input "${input}"` }),
};

/** The sentences of one access entry: who loses, who gains, or why it cannot be said. */
export function accessLines(entry: AccessChange): AccessLine[] {
  const phrase = PHRASES[entry.permission](entry.input ?? '');
  if (entry.undecidable !== undefined) {
    return [{ text: `After the migration, ${phrase.what} cannot be computed: ${entry.undecidable}.`, emails: [], tone: 'undecidable' }];
  }
  const lines: AccessLine[] = [];
  if (entry.loses?.length) lines.push({ text: people(entry.loses.length, phrase.loses), emails: entry.loses, tone: 'loses' });
  if (entry.gains?.length) lines.push({ text: people(entry.gains.length, phrase.gains), emails: entry.gains, tone: 'gains' });
  return lines;
}

/** Counts over a report's access: "17 people lose access to 5 actions", then the rest. */
export function accessSummary(access: readonly AccessChange[]): { headline: string; details: string[] } {
  const count = (entries: readonly AccessChange[], side: 'loses' | 'gains') => ({
    people: distinctPeople(entries, [side]),
    actions: new Set(entries.filter((e) => e[side]?.length && e.resource.type !== 'page').map((e) => `${e.resource.type}\u0000${e.resource.identifier}`)).size,
    pages: new Set(entries.filter((e) => e[side]?.length && e.resource.type === 'page').map((e) => e.resource.identifier)).size,
    inputs: new Set(entries.filter((e) => e[side]?.length).map((e) => `${e.resource.identifier}\u0000${e.input}`)).size,
  });
  const where = (c: { actions: number; pages: number }) => [c.actions > 0 ? plural(c.actions, 'action') : '', c.pages > 0 ? plural(c.pages, 'page') : ''].filter(Boolean).join(' and ');
  const rights = access.filter((e) => e.permission === 'execute' || e.permission === 'approve' || e.permission === 'read' || e.permission === 'see');
  const inputs = access.filter((e) => e.input !== undefined);
  const lost = count(rights, 'loses');
  const gained = count(rights, 'gains');
  const headline = lost.people > 0 ? `${people(lost.people, ['loses', 'lose'])} access to ${where(lost)}` : 'Nobody loses access to an action or a page';
  const details: string[] = [];
  if (gained.people > 0) details.push(`${people(gained.people, ['gains', 'gain'])} access to ${where(gained)}`);
  const hidden = count(inputs.filter((e) => e.permission === 'visible'), 'loses');
  if (hidden.people > 0) details.push(`${people(hidden.people, ['stops', 'stop'])} seeing ${plural(hidden.inputs, 'input')}`);
  const shown = count(inputs.filter((e) => e.permission === 'visible'), 'gains');
  if (shown.people > 0) details.push(`${people(shown.people, ['starts', 'start'])} seeing ${plural(shown.inputs, 'input')}`);
  const other = inputs.filter((e) => e.permission !== 'visible' && (e.loses?.length || e.gains?.length));
  if (other.length > 0) {
    const changing = new Set(other.map((e) => `${e.resource.identifier}\u0000${e.input}`)).size;
    details.push(`${plural(changing, 'input')} ${agreeing(changing, 'changes whether it is', 'change whether they are')} required or editable for ${plural(distinctPeople(other, ['loses', 'gains']), 'person', 'people')}`);
  }
  const undecidable = access.filter((e) => e.undecidable !== undefined).length;
  if (undecidable > 0) details.push(`${plural(undecidable, 'permission')} could not be decided: ${undecidable === 1 ? 'it depends' : 'they depend'} on data this tool does not have`);
  return { headline, details };
}

/** How many different people the entries name on these sides, without one array of every name (millions, at scale). */
function distinctPeople(entries: readonly AccessChange[], sides: readonly ('loses' | 'gains')[]): number {
  const people = new Set<string>();
  for (const entry of entries) for (const side of sides) for (const email of entry[side] ?? []) people.add(email);
  return people.size;
}

/** Everything the HTML needs about access; `shown` is false when the snapshot listed no users. */
export function accessView(report: Report): AccessView {
  const access = report.access;
  if (access === undefined) return { shown: false, headline: '', details: [], byFinding: {} };
  const byFinding: Record<string, (AccessLine & { entry: number })[]> = {};
  access.forEach((entry, index) => {
    if (entry.finding === undefined) return;
    (byFinding[entry.finding] ??= []).push(...accessLines(entry).map((line) => ({ ...line, entry: index })));
  });
  return { shown: true, ...accessSummary(access), byFinding };
}

/** One line for summaries (Markdown, SARIF): the headline and the details, joined. */
export function accessSummaryLine(access: readonly AccessChange[]): string {
  const { headline, details } = accessSummary(access);
  return [headline, ...details].join('; ');
}
