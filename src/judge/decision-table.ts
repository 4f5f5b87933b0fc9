/**
 * The one decision table (docs/decision-table.md prints it): what the migration does to a team
 * reference, from what running it showed (its class), where its value goes (the sink), whether the
 * org has migrated, and what its literals showed when run. Rows are data, read top to bottom; the
 * first that matches decides the verdict and the sentence that says why.
 */
import type { FindingDraft, Verdict } from '../model/finding.js';
import type { SiteCase, Sink } from '../model/sites.js';
import type { ReferenceClass } from './classify.js';
import type { Catalog } from '../catalog/catalog.js';
import { migratedEntities } from '../catalog/entity-world.js';

/** Where the value goes (src/model/sites.ts). */
export type { Sink };

/**
 * The org's migration state: team values are titles (`before`) or already identifiers (`after`), or
 * nothing tells (`unknown`: repository files alone, none saying; `stateUnknown` says why in words).
 */
export type MigrationState = 'before' | 'after' | 'unknown';

/** The state of an org or repository, from what its catalog or the judge's context holds. */
export const stateOf = (of: { migrated?: boolean; stateUnknown?: string | undefined }): MigrationState => (of.migrated ? 'after' : of.stateUnknown !== undefined ? 'unknown' : 'before');

/**
 * Where a site reads a blueprint's entities: migrated where the org is, or where those entities
 * mostly hold team identifiers already (a half-way org, entity-world.ts); else the org's state.
 */
export const stateAt = (catalog: Pick<Catalog, 'entities' | 'teams' | 'migrated' | 'stateUnknown'>, blueprint: string | undefined): { migrated: boolean; stateUnknown: string | undefined } =>
  // Always a new object of one shape: handing back the catalog (the real one or a dry run's copy) or
  // another shape had this and its callers compiled again for each shape met.
  !catalog.migrated && migratedEntities(catalog, blueprint) !== undefined ? { migrated: true, stateUnknown: undefined } : { migrated: catalog.migrated, stateUnknown: catalog.stateUnknown };

/**
 * What running the literals showed, beyond the class:
 * - `written-for-identifiers`: with its identifier literals read back as titles, it gives before
 *   the migration what it gives as written after it;
 * - `stand-in-only`: only stand-in teams (literals tried as titles, placeholders) show the change;
 * - `identifier-unknown`: with a team whose identifier is not known yet, jq keeps the result with some
 *   identifiers it could be given and changes it with others (stand-ins no string of the expression
 *   meets, the strings it computes from its literals alone);
 * - `unfilled`: it also reads values no context can know;
 * - `dead`: a gate that lets nobody through on any context (nor any of the org's people), in either
 *   world (dead-gate.ts);
 * - `classes-unrun`: more classes of the org's teams than are run for one expression remain unrun;
 * - `identifier-was-title`: after the migration, a literal one team holds as its identifier that
 *   another team held as its title before it;
 * - `meets-more-teams`: after the migration, a literal that is one team's identifier meets other teams'
 *   identifiers too by what the expression does with it (a prefix, a part), or one naming no team is a part of some;
 * - `entity-text`: after the migration, each title it names is met in the org's own entities outside
 *   their team values (a description): it reads their text, not a team;
 * - `plain`: none of these.
 */
export type LiteralEvidence = 'plain' | 'written-for-identifiers' | 'identifier-was-title' | 'meets-more-teams' | 'entity-text' | 'stand-in-only' | 'identifier-unknown' | 'unfilled' | 'dead' | 'classes-unrun';

export interface DecisionInput {
  class: ReferenceClass | 'failed';
  sink: Sink;
  state: MigrationState;
  literals: LiteralEvidence;
  /** Why the state is unknown, in words (the row's `{unknown}`). */
  stateUnknown?: string | undefined;
}

export interface DecisionRow {
  class: DecisionInput['class'] | '*';
  sink: Sink | '*';
  state: MigrationState | '*';
  literals: LiteralEvidence | '*';
  verdict: Verdict;
  /** The sentence, with `{before}`, `{after}` and `{context}` filled from the first difference found. */
  why: string;
  /** What to do, where the row alone decides it (the finding's suggestion). */
  advice?: string;
  /** A sentence said after the whole reason, with `{unknown}` filled. */
  postscript?: string;
}

/** Said wherever a reference is written for identifiers in an org that has not migrated (issue 29). */
export const APPLY_WITH_THE_MIGRATION =
  'It is written for team identifiers: it breaks until the migration runs and is right afterwards, so apply it with the migration (keep it as it is and run the migration, or, for a change prepared ahead, deploy it together with the migration).';

/** Said of a dead gate: nothing to do for the migration, something to do for the gate. */
export const DEAD_GATE_ADVICE =
  'Not a migration change: this gate has never let anyone through. Make it match the people it is meant for: `.user.teams` holds {name, provider} objects (compare names with [.user.teams[].name]), `.user.team` the team values themselves.';

const WRITTEN_FOR_IDENTIFIERS = 'it is written for team identifiers, which the org does not hold yet: for {context} it gives {before} today and starts giving {after} once teams are identifiers; apply it with the migration';

export const DECISION_TABLE: readonly DecisionRow[] = [
  { class: 'failed', sink: '*', state: '*', literals: '*', verdict: 'review', why: 'jq gave no answer on the org\'s contexts (it timed out or crashed), so what the migration does to it is unknown' },
  { class: 'same', sink: '*', state: '*', literals: 'unfilled', verdict: 'review', why: 'it gives the same result with team titles and with team identifiers, but it also reads values no context of the org can know' },
  { class: 'same', sink: 'gate', state: '*', literals: 'dead', verdict: 'review', why: 'it lets nobody through, before the migration and after it (for {context} it gives {before}): a gate that has never worked, not a migration change', advice: DEAD_GATE_ADVICE },
  { class: 'same', sink: '*', state: '*', literals: 'classes-unrun', verdict: 'review', why: 'it gives the same result before the migration and after it for every team run, but its strings set more kinds of the org\'s teams apart than are run for one expression' },
  { class: 'same', sink: '*', state: '*', literals: '*', verdict: 'unaffected', why: 'it gives the same result before the migration and after it' },
  { class: 'substituted', sink: 'team-value', state: '*', literals: '*', verdict: 'unaffected', why: 'it passes team values through: titles before the migration, the same teams\' identifiers after it, which is what a team value must hold' },
  { class: 'substituted', sink: 'team-comparison', state: '*', literals: '*', verdict: 'unaffected', why: 'it compares team values with team values, and both turn into the same teams\' identifiers' },
  { class: 'substituted', sink: 'outside', state: '*', literals: '*', verdict: 'review', why: 'it hands team values to a receiver outside the service, which gets identifiers where it got titles (for {context}: {before} before, {after} after); it stays for review before and after the migration until the baseline accepts it' },
  { class: 'substituted', sink: 'shown', state: '*', literals: '*', verdict: 'review', why: 'people will read team identifiers where they read titles (for {context}: {before} before, {after} after)' },
  { class: 'substituted', sink: 'gate', state: '*', literals: '*', verdict: 'breaks', why: 'what it decides with turns from titles into identifiers (for {context}: {before} before, {after} after)' },
  { class: 'changed', sink: '*', state: 'before', literals: 'written-for-identifiers', verdict: 'breaks', why: WRITTEN_FOR_IDENTIFIERS, advice: APPLY_WITH_THE_MIGRATION },
  // Issue 39: repository files alone that do not tell the org's state: right if it has migrated, broken if not.
  { class: 'changed', sink: '*', state: 'unknown', literals: 'written-for-identifiers', verdict: 'review', why: WRITTEN_FOR_IDENTIFIERS, advice: APPLY_WITH_THE_MIGRATION, postscript: '{unknown}: if it has, it is right as it is (give --snapshot or a live org to decide).' },
  { class: 'changed', sink: '*', state: 'after', literals: 'written-for-identifiers', verdict: 'unaffected', why: 'it is written for team identifiers: it gives now what the same expression with titles gave before the migration' },
  { class: 'changed', sink: '*', state: 'after', literals: 'meets-more-teams', verdict: 'review', why: "it names a team by its identifier, or no team but a part of team identifiers, and by what it does with it (a prefix, a part) meets more teams today than it names, and nothing tells whether it is meant for them", advice: "Check which teams it is meant for: for one team alone, compare whole values (`. == \"<identifier>\"`); if the others are meant too, accept it in the baseline." },
  { class: 'changed', sink: '*', state: 'after', literals: 'entity-text', verdict: 'unaffected', why: "the org's own entities hold the team title it names outside their team values today: it meets their text, not a team, and keeps meeting it" },
  { class: 'changed', sink: '*', state: 'after', literals: 'identifier-was-title', verdict: 'review', why: "it names a team by a value that is one team's identifier today and was another team's title before the migration: it matched the one team then and matches the other now", advice: "Check which team it is meant for: as written it now matches the team whose identifier it is; for the team that held it as its title, write that team's identifier." },
  { class: 'changed', sink: '*', state: '*', literals: 'identifier-unknown', verdict: 'review', why: 'what it gives depends on the identifier the migration assigns a team known only by title (for {context}: {before} with titles, {after} with one identifier it could be given), since jq keeps its result with some identifiers the team could be given and changes it with others; pass --teams-map or re-run once the _team entities exist' },
  { class: 'changed', sink: '*', state: '*', literals: 'stand-in-only', verdict: 'review', why: 'its result changes only for a team the org does not name (for {context}: {before} with titles, {after} with identifiers); check whether such a team exists' },
  { class: 'changed', sink: '*', state: '*', literals: '*', verdict: 'breaks', why: 'its result changes with the migration: for {context} it gives {before} with team titles but {after} with team identifiers' },
];

export interface Decision {
  verdict: Verdict;
  why: string;
  row: number;
  advice?: string;
  /** Said after the whole reason (the row's `postscript`, filled). */
  postscript?: string;
}

const matches = <T extends string>(cell: T | '*', value: T) => cell === '*' || cell === value;

/**
 * A team value that kept its text while the teams turned into identifiers: "X before, X after"
 * would show no change at all, so the sentence says it stays as it is and what it must hold.
 */
function unchangedWhy(row: DecisionRow, difference: { context: string; before: string; expected?: string }): string {
  const must = difference.expected !== undefined && difference.expected !== difference.before ? difference.expected : "the teams' identifiers";
  const stays = `it writes team values that do not follow the teams: for ${difference.context} it gives ${difference.before} whether teams are titles or identifiers, where it must hold ${must} after the migration`;
  return row.literals === 'stand-in-only' ? `${stays}; only a team the org does not name shows it, so check whether such a team exists` : stays;
}

/** The first row that matches; the table ends with a row for every class, so one always does. */
export function decide(input: DecisionInput, difference?: { context: string; before: string; after: string; expected?: string }): Decision {
  const row = DECISION_TABLE.findIndex((r) => matches(r.class, input.class) && matches(r.sink, input.sink) && matches(r.state, input.state) && matches(r.literals, input.literals));
  const found = DECISION_TABLE[row]!;
  // Only a change the row explains by "before … after" needs other words when both are the same text;
  // a dead gate or a value written for identifiers says why in its own sentence.
  const unknown = input.stateUnknown ?? 'nothing says whether the org has migrated';
  const advice = { ...(found.advice !== undefined && { advice: found.advice }), ...(found.postscript !== undefined && { postscript: found.postscript.replace('{unknown}', unknown.charAt(0).toUpperCase() + unknown.slice(1)) }) };
  if (difference !== undefined && difference.before === difference.after && found.class === 'changed' && found.literals !== 'written-for-identifiers') {
    return { verdict: found.verdict, why: unchangedWhy(found, difference), row, ...advice };
  }
  const why = found.why
    .replaceAll('{context}', difference?.context ?? 'some context')
    .replaceAll('{before}', difference?.before ?? 'one result')
    .replaceAll('{after}', difference?.after ?? 'another');
  return { verdict: found.verdict, why, row, ...advice };
}

/**
 * What a site showed where nothing is left to run: the cases rules and file readers once settled by
 * hand (issue 39). A reader names the case; this table alone gives the verdict (docs/decision-table.md,
 * "Sites judged without running").
 */
export const SITE_TABLE = {
  'removed-relation': { verdict: 'breaks', why: 'it reads, writes, filters, sorts or mirrors a relation to _team that the migration removes' },
  'not-run': { verdict: 'review', why: 'this tool could not run it (invalid jq, an operator or a value of a kind it cannot evaluate, jq gave no answer), so what the migration does to it is unknown' },
  'through-team': { verdict: 'review', why: 'a path goes on through $team to something of the team, which turns from a title into a _team entity' },
  'finds-no-team': { verdict: 'breaks', why: 'a search by team title or identifier finds no team of the org once teams are _team entities' },
  'group-holds': { verdict: 'unaffected', why: 'a search rule in a group of $team rules that, as a whole, matches the same entities before and after the migration' },
  'policy-holds': { verdict: 'unaffected', why: "a rule of a policy query whose policy, run whole (its queries over the org's entities, its conditions over what they find), gives every user the same answer before the migration and after it" },
  'condition-holds': { verdict: 'unaffected', why: 'an expression of a condition whose expressions, combined as the service combines them, give the same result before the migration and after it' },
  'rule-matches-nobody': { verdict: 'review', why: 'a $team rule that matches no entity before the migration nor after it: no team holds what it names, so it keeps nobody in, whatever the migration does' },
  'group-matches-nobody': { verdict: 'review', why: 'a group of $team rules that, as a whole, matches no entity before the migration nor after it: it keeps nobody in, whatever the migration does' },
  'no-team-holds': { verdict: 'breaks', why: 'after the migration, a team value no team of the org holds today (neither identifier nor title, or a title where the data holds identifiers) matches nothing now, whatever it matched before' },
  'finds-each-team': { verdict: 'unaffected', why: "a search by team title or identifier, run after the migration, finds each user's teams, or the team its literal names" },
  'title-literals': { verdict: 'breaks', why: 'it writes team titles where team identifiers are needed after the migration' },
  'unknown-literals': { verdict: 'review', why: 'it writes values nothing tells as a team title or identifier (no org, no teams map)' },
  'team-search-result': { verdict: 'review', why: 'a team set from a search over _team entities, whose results become team identifiers' },
  'mapping-elsewhere': { verdict: 'review', why: 'the mapping lives in a repository file the service does not show' },
  'mirror-after-migration': { verdict: 'unaffected', why: 'a mirror over $team on an org that has migrated already holds what it will hold' },
  'mirror-of-team-values': { verdict: 'review', why: 'a mirror copies team values, titles today and identifiers afterwards, for its readers to expect' },
  'unclaimed-team-relation': { verdict: 'review', why: 'a relation to _team the migration keeps, which nothing says holds the owning teams' },
  'kept-team-inheritance': { verdict: 'breaks', why: 'a file keeps the team inheritance the migration replaces, so its next apply sets the old fields again' },
  'missing-ownership': { verdict: 'breaks', why: 'a file manages a blueprint without the ownership the service gives it, so its next apply removes it' },
  'system-blueprint-shape': { verdict: 'breaks', why: 'a file manages _user or _team as a blueprint of its own, or declares what the system blueprint rejects' },
  'ambiguous-title': { verdict: 'breaks', why: 'teams share the title a file finds its team by' },
  'access-flips': { verdict: 'breaks', why: "run for the org's people, the permission it decides changes hands with the migration" },
  'script-team-inheritance': { verdict: 'review', why: 'a script reads or writes teamInheritance and never ownership' },
  'state-unknown': { verdict: 'review', why: "what a file needs depends on whether the org has migrated, and neither an org nor the repository's files say" },
  'untyped-workflow-input': { verdict: 'review', why: 'a workflow passes on an input that no action dispatching it fills with a team, so it may hold a title, an identifier or free text' },
  // A note, never a finding (FindingDraft.noteOnly): nothing to migrate, yet the report says what it could not judge.
  'does-not-compile': { verdict: 'unaffected', why: 'it does not compile as jq, so it fails alike before the migration and after it: the migration changes nothing in it' },
} as const satisfies Readonly<Record<SiteCase, { verdict: Verdict; why: string }>>;

export type { SiteCase };

export function judgeSite(site: SiteCase): Verdict {
  return SITE_TABLE[site].verdict;
}

/** A finding judged again as part of the whole it sits in (a group, a condition, a policy): its place and evidence stay, the whole's row decides. */
export function partOfWhole(finding: FindingDraft, row: SiteCase, reason: string, suggestion: string): FindingDraft {
  const { category, resource, location, evidence } = finding;
  return { category, resource, location, evidence, reason, suggestion, verdict: judgeSite(row) };
}

/** Team literals written into a team value: titles break, values nothing tells apart are reviewed. */
export const judgeLiterals = (namesTitles: boolean): Verdict => judgeSite(namesTitles ? 'title-literals' : 'unknown-literals');

const SEVERITY: Readonly<Record<Verdict, number>> = { breaks: 2, review: 1, unaffected: 0 };
const severity = (verdict: Verdict | undefined) => SEVERITY[verdict ?? 'review'];

/** The gravest verdict of the items one finding stands for (an item without a verdict counts as one to review). */
export function worstVerdict(verdicts: readonly (Verdict | undefined)[]): Verdict {
  return verdicts.reduce<Verdict>((worst, verdict) => (severity(verdict) > SEVERITY[worst] ? (verdict ?? 'review') : worst), 'unaffected');
}

/** The first item with the gravest verdict. */
export function gravest<T>(items: readonly [T, ...T[]], verdictOf: (item: T) => Verdict | undefined): T {
  return items.reduce((a, b) => (severity(verdictOf(b)) > severity(verdictOf(a)) ? b : a));
}
