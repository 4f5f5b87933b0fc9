/**
 * The two worlds a team reference is judged in: before the migration (team values are titles)
 * and after it (the same teams' identifiers). Both are built from the org's own teams, so a
 * result that depends on which teams the org really has (`sort | .[:1]`, a slug normaliser that
 * fits only some identifiers) shows, plus synthetic edge cases: every team at once, no team, two
 * teams whose title order differs from their identifier order.
 */
import { extractReferences } from '../jq/references.js';
import { slugOf, type TeamDirectory } from '../catalog/teams.js';
import { isObject, keyedFromEntries, keyedRecord, type JsonObject, type JsonValue } from '../model/json.js';
import type { FieldPath } from '../jq/references.js';
import type { SampleKind } from '../model/sites.js';
import { teamInputValue, type TeamInput } from './team-typed.js';
import { RUN_TRIGGER, userInWorld, type World } from './user-model.js';

export type { World, SampleKind };

export interface JudgeTeam {
  title: string;
  identifier: string;
  /**
   * Not a team of the org with a known identifier: `placeholder` when the org names too few,
   * `literal` when a string the expression compares with is tried as a team title. Reasons say
   * so; nothing built from it is offered to copy.
   */
  standIn?: 'placeholder' | 'literal';
  /**
   * Issue 39: the one team tried of a class of the org's teams the expression cannot tell apart,
   * that no team picked before stands for. Tried alone, after every other case.
   */
  ofClass?: true;
}

/** One way to fill the team-bearing places of a context; `slot` is the i-th such place. */
export interface TeamCase {
  label: string;
  teams: (slot: number) => readonly JudgeTeam[];
  /**
   * A string the expression compares with, written into the entities' identifier, title and
   * blueprint, so a branch that only runs for one entity (`if .entity.identifier == "svc"`) runs.
   */
  seed?: string;
  /** A change with a team on one side only: no case of a user's teams. */
  sided?: true;
}

/** Ours: teams of the org tried one at a time per expression; more cost time, not insight. */
const MAX_SINGLE_TEAMS = 3;
/** Ours: strings of the expression tried as an entity's identifier; few expressions have more. */
const MAX_SEEDS = 3;
/** Ours: the "every team at once" context holds at most this many (a big org has hundreds). */
const MAX_ALL_TEAMS = 40;

/**
 * Whether a difference this team shows is one the org may never see. A literal tried as a title
 * may be no team at all. A placeholder is a team the org does not have when the org names its
 * teams; when it names none (a repository read without its org), placeholders stand for the org's
 * unknown teams, and what they show, any team whose identifier is not its title shows.
 */
export function unsureTeam(team: JudgeTeam, directory: TeamDirectory): boolean {
  return team.standIn === 'literal' || (team.standIn === 'placeholder' && directory.orgKnowsTeams);
}

/** What an identifier may hold (the service's pattern for identifiers). */
const IDENTIFIER_ALPHABET = /^[A-Za-z0-9@_.+:/=-]+$/;

/**
 * Identifiers the migration could give a team known by title only, beside its pending stand-in: each
 * of `strings` (what the expression or rule spells or computes, as jq gives it) and the title written
 * in an identifier's characters (`titleSpellings`), where it could be an identifier. Another team's
 * title or identifier is no identifier the migration can give this one. Never a piece of a string: a
 * literal cut to an identifier's characters gave words of it ("^Search( |$)" → "Search" for
 * "Search & Discovery"), identifiers no source derives from the title.
 */
export function identifiersItCouldBe(directory: TeamDirectory, title: string, strings: readonly string[]): string[] {
  const possible = (text: string) => text.length > 1 && IDENTIFIER_ALPHABET.test(text) && (text === title || !directory.byTitle.has(text)) && !directory.identifiers.has(text);
  return [...new Set([...titleSpellings(title), ...strings].filter(possible))];
}

/**
 * The title in an identifier's characters, as an org may have written it (nothing public says how
 * the migration derives identifiers, so each is a possibility, none the answer): as it is, and with
 * each run of other characters as "_", "-" or nothing, in its case and lower case.
 */
function titleSpellings(title: string): string[] {
  const spelled = ['_', '-', ''].map((joint) => title.split(/[^A-Za-z0-9]+/).filter(Boolean).join(joint));
  return [title, ...spelled.flatMap((text) => [text, text.toLowerCase()])];
}

/** Identifiers given to teams known by title only, in words: `identifier "ops" for "Ops"`, `identifiers "a" for "A" and "b" for "B"`. */
export function assignedIdentifiers(assigned: ReadonlyMap<string, string>): string {
  const named = [...assigned].map(([title, identifier]) => `${JSON.stringify(identifier)} for "${title}"`).join(' and ');
  return `${assigned.size > 1 ? 'identifiers' : 'identifier'} ${named}`;
}

/** The identifier a literal tried as a team title stands with: its slug, or itself with `_id` where that is its slug already; never the literal. */
export function literalStandIn(literal: string): string {
  const slug = slugOf(literal);
  return slug !== '' && slug !== literal ? slug : `${literal}_id`;
}

/** A stand-in whose identifier is its title in lower case: where the org's own teams are unknown. */
const CASE_PLACEHOLDER: JudgeTeam = { title: 'Sampleteam', identifier: 'sampleteam', standIn: 'placeholder' };

const PLACEHOLDERS: readonly JudgeTeam[] = [
  { title: 'Sample Team', identifier: 'sample_team', standIn: 'placeholder' },
  { title: 'Other Sample Team', identifier: 'other_sample_team', standIn: 'placeholder' },
];

/**
 * What stands for the identifier the migration will assign to a team we know only by title. It
 * must not contain the title in any case: a substring test of the title (`contains`, `test`)
 * would still match it, and a break would be judged unaffected. A number from the title keeps it
 * one per team and the same on every run.
 */
export function pendingIdentifier(title: string): string {
  let n = 0;
  for (const char of title) n = (Math.imul(n, 31) + char.codePointAt(0)!) >>> 0;
  const lower = title.toLowerCase();
  // A title that is a piece of the words ("den") or of the number gets another number, then the number alone; tries are bounded.
  const numbers = [0, 1, 2, 3].map((i) => String((n + i * 7_919) % 1_000_000));
  const candidates = [...numbers.map((k) => `<identifier ${k}>`), ...numbers];
  return candidates.find((standIn) => !standIn.includes(lower)) ?? candidates[0]!;
}


interface OrgTeams {
  teams: JudgeTeam[];
  crossed?: [JudgeTeam, JudgeTeam];
  /** Per team, its title and identifier lowercased, and squashed to letters and digits. */
  spellings: { lower: string[]; squashed: string[] }[];
  /** Every team whose class `otherClasses` asks: those, then the teams named by title only as their pending identifiers. */
  classed: JudgeTeam[];
}

const known = new WeakMap<TeamDirectory, OrgTeams>();

/** The org's teams whose identifier is known, and a pair whose title and identifier orders differ. */
function orgTeams(directory: TeamDirectory): OrgTeams {
  let found = known.get(directory);
  if (found) return found;
  const teams: JudgeTeam[] = [];
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined) teams.push({ title: team.title, identifier: team.identifier });
  let crossed: [JudgeTeam, JudgeTeam] | undefined;
  const head = teams.slice(0, 60);
  search: for (const a of head) {
    for (const b of head) {
      if (a.title < b.title && a.identifier > b.identifier) {
        crossed = [a, b];
        break search;
      }
    }
  }
  const spellings = teams.map((team) => {
    const lower = [team.title.toLowerCase(), team.identifier.toLowerCase()];
    return { lower, squashed: lower.map((l) => l.replace(/[^a-z0-9]+/g, '')).filter((l) => l.length > 2) };
  });
  // Teams named by title only stand as their pending identifiers.
  const pending = [...directory.byTitle.values()].flatMap((team) => (team.identifier === undefined ? [{ title: team.title, identifier: pendingIdentifier(team.title) }] : []));
  const classed = pending.length === 0 ? teams : [...teams, ...pending];
  found = crossed ? { teams, crossed, spellings, classed } : { teams, spellings, classed };
  known.set(directory, found);
  return found;
}

/**
 * The teams one expression is judged with: those its text names (by title, identifier or a
 * spelling of either), then teams of every shape the org has (an identifier that is its title's
 * slug and one that is not, a title with spaces, with capitals), then stand-ins while fewer than
 * two teams differ from their identifiers. `literals` the expression compares with that name no
 * team of the org are tried as team titles only when the org names no teams of its own.
 */
export function teamsFor(directory: TeamDirectory, expression: string, literals: readonly string[], strings: readonly string[] = literalTexts(expression)): JudgeTeam[] {
  return teamsToRun(directory, expression, literals, strings).teams;
}

/** Ours: teams of classes beyond those picked run per expression; the rest are said, not run. */
export const MAX_TEAM_CLASSES = 16;

/**
 * The teams one expression is judged with (`teamsFor`), and how many classes of the org's teams
 * the bound left unrun: a result alike for every team run proves nothing about those. `strings`
 * are the texts the judgement compares with (an expression's string literals, a rule's values).
 */
export function teamsToRun(directory: TeamDirectory, expression: string, literals: readonly string[], strings: readonly string[]): { teams: JudgeTeam[]; unrunClasses: number } {
  // The rules' dry run and their real run ask the same: worked out once (the classes cost most).
  let memo = runMemo.get(directory);
  if (!memo) runMemo.set(directory, (memo = new Map()));
  const key = JSON.stringify([expression, literals, strings]);
  const known = memo.get(key);
  if (known) return { teams: [...known.teams], unrunClasses: known.unrunClasses };
  if (memo.size >= MAX_RUN_MEMO) memo.clear();
  const found = pickTeams(directory, expression, literals, strings);
  memo.set(key, found);
  return { teams: [...found.teams], unrunClasses: found.unrunClasses };
}

const runMemo = new WeakMap<TeamDirectory, Map<string, { teams: readonly JudgeTeam[]; unrunClasses: number }>>();
/** Ours: expressions whose teams are kept per org; a 10x org judges about 20,000. */
const MAX_RUN_MEMO = 50_000;

function pickTeams(directory: TeamDirectory, expression: string, literals: readonly string[], strings: readonly string[]): { teams: JudgeTeam[]; unrunClasses: number } {
  const { teams, crossed, spellings, classed } = orgTeams(directory);
  const picked: JudgeTeam[] = [];
  const add = (team: JudgeTeam | undefined) => {
    if (team && picked.length < MAX_SINGLE_TEAMS && !picked.some((p) => p.title === team.title)) picked.push(team);
  };
  const text = expression.toLowerCase();
  const squashed = text.replace(/[^a-z0-9]+/g, '');
  teams.forEach((team, i) => {
    const { lower, squashed: squashedSpellings } = spellings[i]!;
    if (lower.some((s) => text.includes(s)) || squashedSpellings.some((s) => squashed.includes(s))) add(team);
  });
  // A title the org names without a known identifier: the migration assigns one, and it is not the title.
  for (const team of directory.byTitle.values()) {
    if (team.identifier === undefined && text.includes(team.title.toLowerCase())) add({ title: team.title, identifier: pendingIdentifier(team.title) });
  }
  // A piece of a team's title or identifier (`startswith("Q")`, `test("plat")`) shows only on that
  // team. One such team: a piece may be any word (`"port"`), and the shapes below need their places.
  const pieces = stringPieces(strings);
  const pieceTeam = pieces.length === 0 ? -1 : spellings.findIndex(({ lower }) => lower.some((s) => pieces.some((piece) => (piece.length >= 3 ? s.includes(piece) : s.startsWith(piece)))));
  if (pieceTeam >= 0) add(teams[pieceTeam]);
  const { differing, caseFolded, shapes } = orgShapes(directory);
  // Folded to one case, a title meets an identifier that differs from it only in case ("QA", "qa").
  if (FOLDS_CASE.test(expression)) add(caseFolded);
  if (crossed && picked.length === 0) crossed.forEach(add);
  shapes.forEach(add);
  if (crossed) crossed.forEach(add);
  for (const team of differing) {
    if (picked.length >= MAX_SINGLE_TEAMS) break;
    add(team);
  }
  if (!directory.orgKnowsTeams) {
    // Nothing says whether a literal is a title or an identifier: tried as a title, it shows both.
    for (const literal of literals) {
      if (literal.length === 0) continue;
      // Identifiers hold no whitespace: such a literal can only be a title, whose identifier the migration assigns.
      if (/\s/.test(literal)) add({ title: literal, identifier: pendingIdentifier(literal) });
      else add({ title: literal, identifier: literalStandIn(literal), standIn: 'literal' });
    }
  }
  // With no team of its own known, after the literals (they may be the org's teams): a stand-in of
  // that shape, since many real identifiers are their title lower-cased.
  if (!caseFolded && !directory.orgKnowsTeams && FOLDS_CASE.test(expression)) add(CASE_PLACEHOLDER);
  for (const team of PLACEHOLDERS) if (picked.filter((t) => t.title !== t.identifier).length < 2) add(team);
  // A class of the teams named by title only the expression tells apart (a literal in another
  // encoding meeting one's title) is run too (issue 39).
  const { more, unrun } = otherClasses(classed, strings, picked);
  return { teams: [...picked, ...more], unrunClasses: unrun };
}

/** An expression's string literals (object keys too: a lookup keyed by titles meets its teams), as jq reads them. */
export function literalTexts(expression: string): string[] {
  const result = extractReferences(expression);
  return result.ok ? result.references.strings.filter((literal) => !literal.interpolated).map((literal) => literal.value) : [];
}

/**
 * Issue 39: every team of the org stands in the judgement, through one team of each class the
 * expression cannot tell apart. Two teams are alike when their titles and identifiers have the same
 * shape and stand in the same relation (equal, inside, holding, starting, ending, in any case) to
 * every string the expression holds, read also as jq decodes it (`@base64d`, URL encoding). A team
 * unlike every team picked so far is tried too: a title written in another encoding meets its team.
 */
function otherClasses(teams: readonly JudgeTeam[], literals: readonly string[], picked: readonly JudgeTeam[]): { more: JudgeTeam[]; unrun: number } {
  const strings = decodedToo(literals).map((text) => [text, text.toLowerCase()] as const);
  const classOf = (team: JudgeTeam) => {
    const spelled = spelledOf(team);
    let key = spelled.shape;
    for (const [text, lower] of strings) key += relation(team.title, spelled.title, text, lower) + relation(team.identifier, spelled.identifier, text, lower);
    return key;
  };
  const covered = new Set(picked.map(classOf));
  const more: JudgeTeam[] = [];
  let unrun = 0;
  for (const team of teams) {
    const key = classOf(team);
    if (covered.has(key)) continue;
    covered.add(key);
    if (more.length < MAX_TEAM_CLASSES) more.push({ ...team, ofClass: true });
    else unrun++;
  }
  return { more, unrun };
}

/** A team's shape and its title and identifier in lower case, once per team object: every expression classes the org's teams. */
const spelled = new WeakMap<JudgeTeam, { shape: string; title: string; identifier: string }>();
function spelledOf(team: JudgeTeam): { shape: string; title: string; identifier: string } {
  let found = spelled.get(team);
  if (!found) spelled.set(team, (found = { shape: shapeOf(team), title: team.title.toLowerCase(), identifier: team.identifier.toLowerCase() }));
  return found;
}

// Lengths too: jq sees a value's length (`map(length)`), and a title as long as its identifier keeps it.
const shapeOf = (team: JudgeTeam) =>
  [/\s/.test(team.title), team.title !== team.title.toLowerCase(), team.identifier === slugOf(team.title), team.title === team.identifier, team.title.toLowerCase() === team.identifier.toLowerCase(), team.title.length === team.identifier.length].map(Number).join('');

/** How `value` (and `v`, it in lower case) stands to `text` (`t`, in lower case). */
function relation(value: string, v: string, text: string, t: string): string {
  if (value === text) return 'E';
  if (v === t) return 'e';
  if (t.includes(v)) return 'i';
  if (v.startsWith(t)) return 'p';
  if (v.endsWith(t)) return 's';
  return v.includes(t) ? 'h' : '-';
}

/** Each string, and also as base64 and URL decoding read it (when that gives text). */
function decodedToo(strings: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of strings) {
    if (text.length === 0) continue;
    found.add(text);
    if (/^[A-Za-z0-9+/]{4,}={0,2}$/.test(text) && text.length % 4 === 0) {
      const decoded = Buffer.from(text, 'base64').toString('utf8');
      if (!/[\u0000-\u001f\ufffd]/.test(decoded)) found.add(decoded);
    }
    if (/%[0-9A-Fa-f]{2}/.test(text)) {
      try {
        found.add(decodeURIComponent(text));
      } catch {
        // not URL encoding after all
      }
    }
  }
  return [...found];
}

interface OrgShapes {
  /** The org's teams whose identifier is not their title. */
  differing: JudgeTeam[];
  /** The first whose identifier is its title in another case. */
  caseFolded?: JudgeTeam;
  /** The first of each shape: identifier not its title's slug, identifier its slug, a title with a space, with capitals. */
  shapes: (JudgeTeam | undefined)[];
}

const shapesByDirectory = new WeakMap<TeamDirectory, OrgShapes>();

/** The teams of each shape, once per org: every expression asks for them. */
function orgShapes(directory: TeamDirectory): OrgShapes {
  let found = shapesByDirectory.get(directory);
  if (found) return found;
  const differing = orgTeams(directory).teams.filter((t) => t.title !== t.identifier);
  const shapes = [
    differing.find((t) => slugOf(t.title) !== t.identifier),
    differing.find((t) => slugOf(t.title) === t.identifier),
    differing.find((t) => /\s/.test(t.title)),
    differing.find((t) => t.title !== t.title.toLowerCase()),
  ];
  const caseFolded = differing.find((t) => t.title.toLowerCase() === t.identifier.toLowerCase());
  found = caseFolded ? { differing, caseFolded, shapes } : { differing, shapes };
  shapesByDirectory.set(directory, found);
  return found;
}

/** jq that compares without case: `ascii_downcase`/`ascii_upcase`, or a regex with the "i" flag. */
const FOLDS_CASE = /ascii_(?:down|up)case|\b(?:test|match|capture|scan|splits|sub|gsub)\s*\([^)]*;\s*"[gixnslp]*i[gixnslp]*"\s*\)/;

/** The expression's string literals (lower-cased) that hold a letter or digit: pieces a team name may start with or contain. */
function stringPieces(strings: readonly string[]): string[] {
  const pieces = new Set<string>();
  for (const text of strings) {
    const piece = text.replace(/^\^/, '').toLowerCase();
    if (/^[a-z0-9][a-z0-9 _-]*$/.test(piece)) pieces.add(piece);
  }
  return [...pieces];
}

/** Ours: combinations of teams the org holds, tried together per expression. */
const MAX_COMBINATIONS = 3;

/**
 * The cases: each team alone, teams together, no team, different teams in different places (a
 * diff's before and after, a user and an entity). Teams together are the combinations the org's
 * entities and people hold, when the org's data says (issue 29: `$team` is a set, and a change
 * that shows only for teams nobody holds together is one the org never sees); otherwise a pair
 * and every team at once.
 */
export function teamCases(directory: TeamDirectory, picked: readonly JudgeTeam[], seeds: readonly string[] = [], kind?: SampleKind): TeamCase[] {
  // An entity alone has one place for teams: cases that vary by place repeat the others there.
  const places = kind !== 'entity';
  const alike: JudgeTeam[] = [];
  const own: JudgeTeam[] = [];
  for (const team of picked) (team.ofClass ? alike : own).push(team);
  // Every case of one shape, in one list built here: cases of many shapes, in lists of many kinds,
  // had this and every function reading them compiled again and again.
  const cases: TeamCase[] = [];
  const add = (label: string, teams: TeamCase['teams'], seed?: string, sided?: true) => cases.push({ label, teams, seed, sided });
  for (const team of own) add(`a team "${team.title}"`, () => [team]);
  const [a, b] = own;
  const held = heldTogether(directory, own);
  if (a && b) {
    // One order is enough: reversing a list changes nothing between the worlds, and when the
    // org has a pair whose title and identifier orders differ, `a` and `b` are that pair's.
    if (!held) add(`teams "${a.title}" and "${b.title}"`, () => [a, b]);
    if (places) add(`"${a.title}" in one place and "${b.title}" in another`, (slot) => (slot % 2 === 0 ? [a] : [b]));
  }
  if (held) {
    for (const together of held) add(`teams ${together.map((t) => `"${t.title}"`).join(', ')} together, as the org holds them`, () => together);
  } else {
    const all = [...orgTeams(directory).teams.slice(0, MAX_ALL_TEAMS)];
    for (const team of own) if (!all.some((t) => t.title === team.title)) all.push(team);
    if (all.length > 2) add('every team of the org at once', () => all);
  }
  add('no team', () => []);
  for (const seed of seeds.slice(0, MAX_SEEDS)) if (a) add(`an entity "${seed}" of team "${a.title}"`, () => [a], seed);
  // Issue 39: a change (a diff's before, then its after) with a team on one side only: given, or taken away.
  // A team known by title only is tried so too, whatever the expression spells: its identifier is
  // unknown, so no string of the expression tells whether a piece of its title meets it.
  const sided = kind === 'action-run' ? [...(a ? [a] : []), ...[...own, ...alike].filter((team) => team !== a && team.standIn === undefined && team.identifier === pendingIdentifier(team.title))] : [];
  for (const team of sided) {
    add(`no team before the change and "${team.title}" after it`, (slot) => (slot === 1 ? [team] : []), undefined, true);
    add(`"${team.title}" before the change and no team after it`, (slot) => (slot === 0 ? [team] : []), undefined, true);
  }
  for (const team of alike) add(`a team "${team.title}"`, () => [team]);
  return cases;
}

/**
 * The org's own combinations to try, as judge teams (undefined when the org's data does not say
 * which exist): those with a team the expression names first, then those whose title order and
 * identifier order differ, then the rest.
 */
function heldTogether(directory: TeamDirectory, picked: readonly JudgeTeam[]): JudgeTeam[][] | undefined {
  const held = heldCombinations(directory);
  if (held === undefined) return undefined;
  // Most expressions pick the same few teams: their ranking is worked out once.
  const key = JSON.stringify(picked.map((team) => [team.title, team.identifier, team.standIn ?? '']));
  let ranked = held.ranked.get(key);
  if (!ranked) {
    if (held.ranked.size >= MAX_RANKINGS) held.ranked.clear();
    held.ranked.set(key, (ranked = rankHeld(held, picked)));
  }
  return ranked;
}

/** Ours: rankings kept per org (each a few combinations); an org's expressions pick far fewer team sets. */
const MAX_RANKINGS = 2_000;

function rankHeld(held: Held, picked: readonly JudgeTeam[]): JudgeTeam[][] {
  // A picked team that is not what the org's own list says for its title (a literal tried as a
  // title) stands in for it in the combinations that hold it; rare, so those are rebuilt here.
  const overrides = picked.filter((team) => {
    const base = held.byTitle.get(team.title);
    return base === undefined ? team.identifier !== pendingIdentifier(team.title) || team.standIn !== undefined : base !== team;
  });
  const names = new Set(picked.map((team) => team.title));
  // The first MAX_COMBINATIONS by rank, then by the order the org holds them: four buckets in one pass.
  const buckets: JudgeTeam[][][] = [[], [], [], []];
  for (const entry of held.entries) {
    let { teams, crossed } = entry;
    if (overrides.length > 0 && overrides.some((team) => entry.titles.has(team.title))) {
      teams = teams.map((team) => overrides.find((o) => o.title === team.title) ?? team);
      crossed = isCrossed(teams);
    }
    const named = teams.some((t) => names.has(t.title));
    const bucket = buckets[(named ? 0 : 2) + (crossed ? 0 : 1)]!;
    if (bucket.length < MAX_COMBINATIONS) bucket.push(teams);
    if (buckets[0]!.length >= MAX_COMBINATIONS) break;
  }
  return buckets.flat().slice(0, MAX_COMBINATIONS);
}

/** Some two teams whose title order and identifier order differ. */
const isCrossed = (teams: readonly JudgeTeam[]) => teams.some((x, i) => teams.some((y, j) => i < j && (x.title < y.title) !== (x.identifier < y.identifier)));

interface HeldCombination {
  teams: JudgeTeam[];
  titles: ReadonlySet<string>;
  crossed: boolean;
}

interface Held {
  entries: HeldCombination[];
  byTitle: ReadonlyMap<string, JudgeTeam>;
  /** The first few combinations per picked team set (heldTogether). */
  ranked: Map<string, JudgeTeam[][]>;
}

const heldByDirectory = new WeakMap<TeamDirectory, Held | null>();

/** The org's combinations as judge teams, once per org: every expression of a big org asks for them. */
function heldCombinations(directory: TeamDirectory): Held | undefined {
  const cached = heldByDirectory.get(directory);
  if (cached !== undefined) return cached ?? undefined;
  const combinations = directory.combinations;
  if (combinations === undefined) {
    heldByDirectory.set(directory, null);
    return undefined;
  }
  const byTitle = new Map(orgTeams(directory).teams.map((team) => [team.title, team]));
  const entries = combinations.map((titles) => {
    const teams = titles.map((title) => byTitle.get(title) ?? { title, identifier: pendingIdentifier(title) });
    return { teams, titles: new Set(titles), crossed: isCrossed(teams) };
  });
  const held: Held = { entries, byTitle, ranked: new Map() };
  heldByDirectory.set(directory, held);
  return held;
}

const valuesIn = (teams: readonly JudgeTeam[], world: World) => teams.map((team) => (world === 'before' ? team.title : team.identifier));

/**
 * Parts of a context built whole as the service's docs show them: a read there that finds nothing
 * finds what the service gives, not a value the org holds that the judge could not know. A run's
 * `trigger` (who ran it, where and when); a CREATE action's run, its empty entity.
 */
export const WHOLE_PARTS: Record<SampleKind, readonly string[]> = { entity: [], 'user-input': [], 'create-input': ['entity'], policy: [], 'action-run': ['trigger'], 'create-run': ['trigger', 'entity'] };

/**
 * What the service evaluates the expression on, in one world. Team values are titles before and
 * identifiers after; the user is the one user model of each world (user-model.ts).
 * `removedRelations` hold the entity's teams before the migration and are gone after it.
 */
export function contextFor(
  kind: SampleKind,
  teamCase: TeamCase,
  world: World,
  queryIds: readonly string[],
  teamProperties: readonly string[],
  removedRelations: readonly string[] = [],
  teamInputs: readonly (readonly [string, TeamInput])[] = [],
  readBack = false,
  teamRelations: readonly string[] = [],
  identifierProperties: readonly string[] = [],
  titleProperties: readonly string[] = [],
  seedFields: readonly string[] = [],
): JsonValue {
  let slot = 0;
  const next = () => teamCase.teams(slot++);
  const entity = (identifier: string): JsonValue => {
    const teams = next();
    const team = valuesIn(teams, world);
    const properties = keyedRecord();
    for (const name of teamProperties) properties[name] = team;
    // A relation to `_team` and a mirror of its identifiers hold the same identifiers in both worlds; read
    // back (is it written for identifiers?), the titles `$team` holds before, as the team's identifier holds after.
    const identifiers = teams.map((t) => (readBack && world === 'before' ? t.title : t.identifier));
    for (const name of identifierProperties) properties[name] ??= identifiers;
    // A mirror of `_team` titles holds the same titles in both worlds (one relation: the first team's, or null).
    for (const name of titleProperties) properties[name] ??= teams[0]?.title ?? null;
    // A relation the migration removes points at the _team entities (their identifiers) before
    // it, and is gone after it: its teams are the entity's `team` then.
    const relations = keyedRecord();
    if (world === 'before') for (const name of removedRelations) relations[name] = teams.map((t) => t.identifier);
    for (const name of teamRelations) relations[name] ??= identifiers;
    const named = teamCase.seed ?? identifier;
    return { identifier: named, title: named, blueprint: teamCase.seed ?? 'sample', team, properties, relations };
  };
  const user = (): JsonValue => userInWorld(next(), world);
  // Team-typed inputs (team-typed.ts) hold team values, each in a place of its own.
  const filled = (): Record<string, JsonValue> => {
    const form = keyedFromEntries(teamInputs.map(([name, input]): [string, JsonValue] => [name, teamInputValue(input, next(), world, readBack)]));
    // A string the expression compares with that names no team, as what the user picked in each other
    // input it reads, so a branch on an input's value (`.inputs.tier == "gold"`) runs, as one on an entity's identifier does.
    if (teamCase.seed !== undefined) for (const name of seedFields) form[name] ??= teamCase.seed;
    return form;
  };
  switch (kind) {
    case 'entity':
      return entity('sample-entity');
    case 'user-input': {
      const runner = user();
      const target = entity('sample-entity');
      return { user: runner, entity: target, form: filled() };
    }
    case 'create-input':
      // The form of an action that creates its entity is filled before the entity exists.
      return { user: user(), entity: {}, form: filled() };
    case 'policy': {
      const results = keyedRecord();
      for (const id of queryIds) results[id] = { entities: [entity('first'), entity('second')] };
      const runner = user();
      // The policy sees the user twice (dynamic permissions docs): as `user` and as the run's `trigger.user`.
      return { user: runner, results, trigger: { user: runner } };
    }
    case 'action-run': {
      const before = entity('sample-entity');
      const after = entity('sample-entity');
      const runner = user();
      // A run's `inputs` hold what the user picked in the form: team-typed ones hold team values.
      return { diff: { before, after }, event: { diff: { before, after } }, entity: after, inputs: filled(), trigger: RUN_TRIGGER, user: runner };
    }
    case 'create-run':
      // The entity is yet to be made: the service gives the run an empty one, and no change.
      return { entity: {}, inputs: filled(), trigger: RUN_TRIGGER, user: user() };
  }
}

/**
 * The probes' samples (differential.ts): two teams whose title and identifier differ, from the org
 * when it has them, else stand-ins (only a probe's input ever holds those; rewrites never do).
 */
export function sampleTeams(directory: TeamDirectory): [JudgeTeam, JudgeTeam] {
  const differing = orgShapes(directory).differing;
  const [a, b] = [...differing.slice(0, 2), ...PLACEHOLDERS];
  return [a!, b!];
}

/**
 * Ways a probe fills the team slots of one context: all the same team, two teams, different teams
 * per slot (a diff's before and after, a user and an entity), and empty against non-empty.
 */
const VARIANTS: readonly ((slot: number, a: JudgeTeam, b: JudgeTeam) => JudgeTeam[])[] = [
  (_slot, a) => [a],
  (_slot, a, b) => [a, b],
  (slot, a, b) => (slot % 2 === 0 ? [a] : [b]),
  (slot, a) => (slot % 2 === 0 ? [] : [a]),
];

export const VARIANT_COUNT = VARIANTS.length;

/**
 * How a probe writes team values: as titles (the world before), identifiers (after), or markers:
 * strings nothing else in a sample or an expression holds, so an output carrying one came from a team value.
 */
export type TeamForm = 'title' | 'identifier' | 'marker';

export const TEAM_MARKERS: readonly [string, string] = ['__team_value_marker_a__', '__team_value_marker_b__'];
const MARKER_TEAMS = TEAM_MARKERS.map((marker) => ({ title: marker, identifier: marker })) as [JudgeTeam, JudgeTeam];

/**
 * A probe's sample: the context of `kind` for one variant with every team value written in one
 * form, `teamProperties` holding the entity's teams and every entity's relations holding `relations`.
 * The same object for the same arguments: jq's engine keys its answers by the sample's JSON text,
 * written once per object, and thousands of expressions share a few dozen samples.
 */
export function sampleInput(kind: SampleKind, variant: number, teams: readonly [JudgeTeam, JudgeTeam], form: TeamForm, queryIds: readonly string[], teamProperties: readonly string[] = [], relations: JsonObject = {}): JsonValue {
  const key = JSON.stringify([kind, variant, teams, form, queryIds, teamProperties, relations]);
  let sample = samples.get(key);
  if (sample === undefined) {
    if (samples.size >= MAX_SAMPLES) samples.clear();
    const [a, b] = form === 'marker' ? MARKER_TEAMS : teams;
    const pick = VARIANTS[variant % VARIANTS.length]!;
    const context = contextFor(kind, { label: '', teams: (slot) => pick(slot, a, b) }, form === 'identifier' ? 'after' : 'before', queryIds, teamProperties);
    samples.set(key, (sample = Object.keys(relations).length === 0 ? context : withRelations(context, relations)));
  }
  return sample;
}

const samples = new Map<string, JsonValue>();
const MAX_SAMPLES = 10_000;

/** The context with every entity's relations holding `relations` too. */
function withRelations(value: JsonValue, relations: JsonObject): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withRelations(item, relations));
  if (!isObject(value)) return value;
  const out = keyedRecord();
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = key === 'relations' && isObject(item) ? { ...item, ...relations } : withRelations(item, relations);
  return out;
}

/** Query ids a policy condition reads (`.results.<id>…`), so the sample holds exactly those. */
export function policyQueryIds(paths: readonly FieldPath[]): string[] {
  return [...new Set(paths.filter((p) => p.variable === undefined && p.segments[0] === 'results' && p.segments[1] !== undefined).map((p) => p.segments[1]!))];
}
