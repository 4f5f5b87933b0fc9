/**
 * Evaluate a team reference in both worlds and say what the migration does to its result:
 * `same` (equal on every context), `substituted` (after = before with every title replaced by its
 * identifier) or `changed` (anything else). This is the only place that decides it: how the
 * expression is spelled (which literals it holds) never does.
 */
import type { TeamDirectory } from '../catalog/teams.js';
import { describeResult, sameResult } from './differential.js';
import type { EvaluateResult, EvaluationFailure, JqEngine } from '../jq/engine.js';
import type { SampleKind } from '../model/sites.js';
import { isObject, keyedRecord, type JsonObject, type JsonValue } from '../model/json.js';
import type { TeamInput } from './team-typed.js';
import { assignedIdentifiers, contextFor, identifiersItCouldBe, pendingIdentifier, teamCases, unsureTeam, type JudgeTeam, type TeamCase, type World } from './worlds.js';
import { constantStrings } from './constant-strings.js';
import { readingOrder } from './reading-order.js';

export type ReferenceClass = 'same' | 'substituted' | 'changed';

export interface ContextSpec {
  kind: SampleKind;
  directory: TeamDirectory;
  teams: readonly JudgeTeam[];
  queryIds: readonly string[];
  teamProperties: readonly string[];
  /** Relations the migration removes that the expression reads. */
  removedRelations?: readonly string[];
  /** Relations to `_team` the migration keeps: the entity's teams' identifiers in both worlds. */
  teamRelations?: readonly string[];
  /** Mirror properties of `_team` identifiers: the entity's teams' identifiers in both worlds. */
  identifierProperties?: readonly string[];
  /** Mirror properties of `_team` titles: the entity's teams' titles in both worlds. */
  titleProperties?: readonly string[];
  /** Calculations derived from team values (name, jq): each entity of a context holds what its calculation gives in that world. */
  derived?: { jq: JqEngine; properties: readonly (readonly [string, string])[] };
  /** Strings the expression compares with that name no team: tried as an entity's identifier and as the value of `seedFields`. */
  seeds?: readonly string[];
  /** Inputs of the form or run the expression reads that hold no teams (`.inputs.tier`): each seed is tried as their value. */
  seedFields?: readonly string[];
  /** The action's team-typed inputs (`.form.<name>`, `.inputs.<name>` hold team values). */
  teamInputs?: readonly (readonly [string, TeamInput])[];
  /** Before the migration, `_team` entities' identifiers stand as their titles: the read-back of "written for identifiers". */
  readBack?: true;
  /** Classes of the org's teams the bound left unrun (worlds.ts `teamsToRun`): a same result proves nothing for them. */
  unrunClasses?: number;
}

export interface Difference {
  /** Which context showed it, in words: `a team "Data Science"`. */
  context: string;
  before: string;
  after: string;
  /** Only stand-in teams show it (literals tried as titles, placeholders). */
  standIn?: true;
  /**
   * What it gives depends on the identifier the migration assigns a team known only by title: one
   * it could be given keeps the result and another changes it (`the same with identifier "aml_kyc"
   * for "AML & KYC"`), in words.
   */
  identifierUnknown?: string;
  /**
   * A team value whose text stayed the same (`before` equals `after`) while the teams turned into
   * identifiers: what it must hold instead, so the why says that rather than "X before, X after".
   */
  expected?: string;
}

export type Classification =
  | { class: ReferenceClass; contexts: number; difference?: Difference }
  | { class: 'failed'; failure: EvaluationFailure; error: string };

/**
 * Run `before` in the world of titles and `after` in the world of identifiers on every context
 * and compare. Usually `before` and `after` are the same expression; a rewrite is proven by
 * running the original before and the rewrite after.
 */
export function classifyPair(jq: JqEngine, before: string, after: string, spec: ContextSpec, options: { teamValue?: boolean } = {}): Classification {
  const { cases } = casesOf(spec);
  const beforeInputs = inputsOf(spec, cases, 'before');
  const afterInputs = inputsOf(spec, cases, 'after');
  // Every context is asked for at once (one jq request with the prefetching engine); a dry run
  // that records the work sees the whole of it.
  jq.prefetch?.({ evaluate: before === after ? [{ expression: before, inputs: [...beforeInputs, ...afterInputs] }] : [{ expression: before, inputs: beforeInputs }, { expression: after, inputs: afterInputs }] });
  const toIdentifier = translation(spec.directory, spec.teams);
  let substituted = false;
  let firstSubstitution: Difference | undefined;
  let changed: Difference | undefined;
  for (let i = 0; i < cases.length; i++) {
    const rawWas = jq.evaluate(beforeInputs[i]!, before);
    const failedBefore = failureOf(rawWas);
    if (failedBefore) return failedBefore;
    const rawNow = jq.evaluate(afterInputs[i]!, after);
    const failedAfter = failureOf(rawNow);
    if (failedAfter) return failedAfter;
    // A team value is a set of teams (`$team`): the order of a list of teams means nothing there.
    const was = options.teamValue ? asTeamSet(rawWas) : rawWas;
    const now = options.teamValue ? asTeamSet(rawNow) : rawNow;
    // A team value must follow the teams: one that stays a title while `$team` turns into
    // identifiers has changed, even though its text did not; one that holds identifiers while
    // `$team` still holds titles sets teams that do not exist yet (issue 29).
    const early = options.teamValue && holdsIdentifier(was, toIdentifier);
    const unchanged = sameResult(was, now);
    let substitute: EvaluateResult | undefined;
    const substituteOf = () => (substitute ??= options.teamValue ? asTeamSet(translated(was, toIdentifier)) : translated(was, toIdentifier));
    const unsure = (t: JudgeTeam) => unsureTeam(t, spec.directory);
    let standIn = cases[i]!.teams(0).some(unsure) || cases[i]!.teams(1).some(unsure);
    if (unchanged && (!options.teamValue || (!early && sameResult(substituteOf(), now)))) {
      // Kept with the stand-in for an identifier not known yet: changed with another the team could be given is a review.
      const other = standIn || !holdsPending(spec.directory) ? undefined : otherIdentifiers(jq, before, after, spec, cases[i]!, rawWas, toIdentifier, options.teamValue === true, 'changed')?.changed;
      if (other !== undefined && !changed) changed = { context: cases[i]!.label, before: describeResult(other.was), after: describeResult(other.now), standIn: true, identifierUnknown: `with ${other.candidate}; the same with an identifier no string of it meets` };
      continue;
    }
    const difference: Difference = { context: cases[i]!.label, before: describeResult(rawWas), after: describeResult(rawNow) };
    if (unchanged) difference.expected = describeResult(substituteOf());
    if (!standIn) {
      const kept = otherIdentifiers(jq, before, after, spec, cases[i]!, rawWas, toIdentifier, options.teamValue === true, 'kept')?.kept;
      if (kept !== undefined) {
        difference.identifierUnknown = `the same with ${kept}`;
        standIn = true;
      }
    }
    if (standIn) difference.standIn = true;
    if (!early && (sameResult(substituteOf(), now) || (!options.teamValue && partlyTranslated(rawWas, rawNow, toIdentifier)))) {
      substituted = true;
      firstSubstitution ??= difference;
      continue;
    }
    // A difference on real teams outweighs one that only stand-ins show.
    if (!changed || (changed.standIn && !standIn)) changed = difference;
  }
  if (changed) return { class: 'changed', contexts: cases.length, difference: changed };
  if (substituted) return { class: 'substituted', contexts: cases.length, difference: firstSubstitution! };
  return { class: 'same', contexts: cases.length };
}

/** Ours: a case holds a handful of teams; its slots are read up to this bound. */
const MAX_SLOTS = 8;

/**
 * Issue 39: where the case holds a team the org names by title only (its identifier stands
 * pending), what the expression gives with the other identifiers the migration could assign it
 * (`identifierCandidates`). `kept`: the first that gives what the titles gave (as is, or with the
 * teams' identifiers in place of titles); `changed`: the first that does not, with its result.
 * Undefined when the case holds no such team.
 */
function otherIdentifiers(jq: JqEngine, before: string, after: string, spec: ContextSpec, teamCase: TeamCase, titlesGave: EvaluateResult, base: Translation, teamValue: boolean, wanted: 'kept' | 'changed'): { kept?: string; changed?: { candidate: string; was: EvaluateResult; now: EvaluateResult } } | undefined {
  const pending = new Set<string>();
  for (let slot = 0; slot < MAX_SLOTS; slot++) for (const team of teamCase.teams(slot)) if (spec.directory.byTitle.get(team.title)?.identifier === undefined && team.identifier === pendingIdentifier(team.title)) pending.add(team.title);
  if (pending.size === 0) return undefined;
  const found: { kept?: string; changed?: { candidate: string; was: EvaluateResult; now: EvaluateResult } } = {};
  // The title as its own identifier gives the titles' context again: with one expression in both
  // worlds and nothing read back, it cannot show a change, so looking for one it is not run.
  const sameInput = before === after && !spec.readBack && !spec.teamRelations?.length && !spec.identifierProperties?.length;
  const candidatesOf = (title: string) => identifierCandidates(jq, after, spec.directory, title).filter((candidate) => wanted === 'kept' || !sameInput || candidate !== title);
  /** Runs the case with these teams given these identifiers; true once what is wanted is found. */
  const tryAssignment = (assigned: ReadonlyMap<string, string>): boolean => {
    const identifierOf = (team: JudgeTeam): JudgeTeam => {
      const candidate = assigned.get(team.title);
      return candidate === undefined ? team : { ...team, identifier: candidate };
    };
    const altered: TeamCase = { ...teamCase, teams: (slot) => teamCase.teams(slot).map(identifierOf) };
    // The identifier is the team's in both worlds: places that hold identifiers before the migration
    // (mirrors of `$identifier`, relations to `_team`, the read-back) hold it too; without them the titles' result stands.
    const run = (world: World) => {
      const input = contextFor(spec.kind, altered, world, spec.queryIds, spec.teamProperties, spec.removedRelations, spec.teamInputs, spec.readBack, spec.teamRelations, spec.identifierProperties, spec.titleProperties, spec.seedFields);
      return jq.evaluate(fillDerived(input, spec.derived), world === 'before' ? before : after);
    };
    const rawWas = spec.readBack || spec.teamRelations?.length || spec.identifierProperties?.length ? run('before') : titlesGave;
    const raw = run('after');
    if (!raw.ok || !rawWas.ok) return false;
    const was = teamValue ? asTeamSet(rawWas) : rawWas;
    const now = teamValue ? asTeamSet(raw) : raw;
    const map = new Map(base.toIdentifier);
    for (const [title, candidate] of assigned) map.set(title, candidate);
    const substitute = translated(was, withTitles(map));
    const kept = (!teamValue && sameResult(was, now)) || sameResult(teamValue ? asTeamSet(substitute) : substitute, now);
    const phrase = assignedIdentifiers(assigned);
    if (kept) found.kept ??= phrase;
    else found.changed ??= { candidate: phrase, was: rawWas, now: raw };
    return found[wanted] !== undefined;
  };
  // Ours, a bound: looking for a change, one title-only team of the case takes each candidate (a
  // case of every team at once holds dozens, each run with every candidate); looking for one that
  // keeps the result, each team does.
  for (const title of wanted === 'changed' ? [...pending].slice(0, 1) : pending) {
    const candidates = candidatesOf(title);
    // Ours, a bound: kept with the pending stand-in, the identifier-shaped one is tried only beside a
    // string of the expression (neither is met by any string of it; a repository read alone names all
    // its teams by title, and trying it on every context of every expression cost a quarter more CPU).
    for (const candidate of wanted === 'changed' && candidates.length === 1 ? [] : candidates) if (tryAssignment(new Map([[title, candidate]]))) return found;
  }
  // Teams known by title only held together: the result may depend on what the migration gives each
  // (`.team == ["Payments", "Platform"]` keeps it only with both titles as identifiers), so looking for
  // one that keeps it, they take identifiers together, up to a bound.
  if (wanted === 'kept' && pending.size > 1) {
    const titles = [...pending].slice(0, MAX_JOINT_TEAMS);
    const lists = titles.map(candidatesOf);
    let tried = 0;
    const assign = (i: number, assigned: Map<string, string>): boolean => {
      if (i === titles.length) return ++tried > MAX_JOINT_ASSIGNMENTS || tryAssignment(assigned);
      for (const candidate of lists[i]!) {
        assigned.set(titles[i]!, candidate);
        if (assign(i + 1, assigned)) return true;
      }
      assigned.delete(titles[i]!);
      return false;
    };
    assign(0, new Map());
  }
  return found;
}

/** Ours: teams known by title only given identifiers together, and the assignments tried; a case holds few such teams. */
const MAX_JOINT_TEAMS = 3;
const MAX_JOINT_ASSIGNMENTS = 200;

/** Whether the org names a team by title only: only then are other identifiers tried. */
const pendingIn = new WeakMap<TeamDirectory, boolean>();
function holdsPending(directory: TeamDirectory): boolean {
  let holds = pendingIn.get(directory);
  if (holds === undefined) pendingIn.set(directory, (holds = [...directory.byTitle.values()].some((team) => team.identifier === undefined)));
  return holds;
}


/**
 * The identifiers tried for a team known by title only, beside its pending stand-in: one shaped like
 * an identifier that no string of the expression meets, and each string the expression computes from
 * its literals alone (`constantStrings`: a literal, `"cWE=" | @base64d` as jq decodes it), in the
 * identifiers' alphabet, that is no other team's title and no identifier of the org's teams, and the
 * title itself where it is shaped like an identifier. Never the title's slug: nothing public says
 * how the migration derives identifiers.
 */
function identifierCandidates(jq: JqEngine, expression: string, directory: TeamDirectory, title: string): string[] {
  let known = candidatesIn.get(directory);
  if (!known) candidatesIn.set(directory, (known = new Map()));
  const key = `${title}\u0000${expression}`;
  const kept = known.get(key);
  if (kept) return kept;
  const strings = constantStrings(jq, expression);
  const lower = strings.map((text) => text.toLowerCase());
  const numbers = [...pendingIdentifier(title).matchAll(/\d+/g)].map(([digits]) => digits);
  const shaped = [...numbers, '7919'].map((digits) => `t${digits}`).find((standIn) => !lower.some((text) => text.includes(standIn) || standIn.includes(text)))!;
  const candidates = [...new Set([shaped, ...identifiersItCouldBe(directory, title, strings)])];
  // A planning engine's answers are not jq's: never kept.
  if (jq.plansOnly) return candidates;
  if (known.size >= 5_000) known.clear();
  known.set(key, candidates);
  return candidates;
}

const candidatesIn = new WeakMap<TeamDirectory, Map<string, string[]>>();

/** The contexts a spec's expressions are judged on, in one world (built once per org and kind). */
export function contextsOf(spec: ContextSpec, world: World): JsonValue[] {
  return inputsOf(spec, casesOf(spec).cases, world);
}

/**
 * A spec's cases and the key of its contexts, once per spec: judging one expression asks for them
 * a few times over (both worlds, each proof), and writing the key out cost most of `inputsOf`.
 */
function casesOf(spec: ContextSpec): { cases: TeamCase[]; key: string } {
  let found = casesBySpec.get(spec);
  if (found) return found;
  const cases = teamCases(spec.directory, spec.teams, spec.seeds, spec.kind);
  const key = JSON.stringify([spec.kind, spec.teams, spec.queryIds, spec.teamProperties, spec.removedRelations ?? [], spec.seeds ?? [], spec.teamInputs ?? [], spec.readBack ?? false, spec.teamRelations ?? [], spec.identifierProperties ?? [], spec.titleProperties ?? [], spec.seedFields ?? [], spec.derived?.properties ?? [], cases.length]);
  casesBySpec.set(spec, (found = { cases, key }));
  return found;
}

const casesBySpec = new WeakMap<ContextSpec, { cases: TeamCase[]; key: string }>();

export function classifyExpression(jq: JqEngine, expression: string, spec: ContextSpec, options: { teamValue?: boolean } = {}): Classification {
  return classifyPair(jq, expression, expression, spec, options);
}

/**
 * The same objects for the same contexts: the engine writes each one's JSON text once. Per team
 * directory, since the "every team at once" context is the org's own: two orgs analysed in one
 * process must never share it. Contexts that hold derived calculations filled by an engine that only
 * plans, without the real one (src/jq/prefetch-rules.ts), are never the real run's.
 */
const inputCaches = new WeakMap<TeamDirectory, Map<string, JsonValue[]>>();
/** Ours: contexts kept for reuse per org; thousands of expressions share a few hundred. */
const MAX_CACHED = 5_000;

function inputsOf(spec: ContextSpec, cases: readonly TeamCase[], world: World): JsonValue[] {
  let cache = inputCaches.get(spec.directory);
  if (!cache) inputCaches.set(spec.directory, (cache = new Map()));
  const key = `${casesOf(spec).key}\u0000${world}\u0000${(spec.derived?.jq.fillsWith ?? spec.derived?.jq)?.plansOnly === true}`;
  let inputs = cache.get(key);
  if (!inputs) {
    if (cache.size >= MAX_CACHED) cache.clear();
    inputs = fillDerived(
      cases.map((teamCase) => contextFor(spec.kind, teamCase, world, spec.queryIds, spec.teamProperties, spec.removedRelations, spec.teamInputs, spec.readBack, spec.teamRelations, spec.identifierProperties, spec.titleProperties, spec.seedFields)),
      spec.derived,
    );
    cache.set(key, inputs);
  }
  return inputs;
}

/**
 * Each entity of a context or list of contexts (an object with `team` and `properties`) given what
 * its derived calculations give on it, each after those it reads (`readingOrder`); the value.
 */
export function fillDerived<T extends JsonValue>(value: T, derived: ContextSpec['derived']): T {
  if (derived === undefined || derived.properties.length === 0) return value;
  const entities: JsonObject[] = [];
  const collect = (node: JsonValue): void => {
    if (!isObject(node) && !Array.isArray(node)) return;
    for (const child of Object.values(node)) if (child !== undefined) collect(child);
    if (isObject(node) && 'team' in node && isObject(node.properties)) entities.push(node);
  };
  collect(value);
  // A plan's contexts hold what the real run's will (src/jq/prefetch-rules.ts).
  const jq = derived.jq.fillsWith ?? derived.jq;
  for (const layer of readingOrder(derived.properties)) {
    // One copy of each entity per layer: the engine keeps the JSON text of each object it is given,
    // and the entity changes as each layer is filled. All of a layer asked at once.
    const copies = entities.map((entity) => ({ ...entity, properties: { ...(entity.properties as JsonObject) } }));
    jq.prefetch?.({ evaluate: layer.map(([, calculation]) => ({ expression: calculation, inputs: copies })) });
    entities.forEach((entity, i) => {
      for (const [name, calculation] of layer) {
        const result = jq.evaluate(copies[i]!, calculation);
        (entity.properties as JsonObject)[name] = result.ok ? (result.values[0] ?? null) : null;
      }
    });
  }
  return value;
}

export interface Translation {
  toIdentifier: ReadonlyMap<string, string>;
  /** Titles longest first, for replacing inside strings. */
  titles: readonly string[];
  /** Identifiers that are no team's title: a value holding one before the migration names no team yet. */
  onlyIdentifiers: ReadonlySet<string>;
}

const orgTranslations = new WeakMap<TeamDirectory, Translation>();

/** Title → identifier over every team the contexts hold (the org's, built once, pending ones included, plus any stand-ins). */
function translation(directory: TeamDirectory, teams: readonly JudgeTeam[]): Translation {
  let base = orgTranslations.get(directory);
  if (!base) {
    const map = new Map<string, string>();
    // A team without an identifier yet stands as its pending one (worlds.ts), as the contexts of
    // teams the org holds together write it: a value passing it on is the same team in both worlds.
    for (const team of directory.byTitle.values()) map.set(team.title, team.identifier ?? pendingIdentifier(team.title));
    base = withTitles(map);
    orgTranslations.set(directory, base);
  }
  const extra = teams.filter((team) => base.toIdentifier.get(team.title) !== team.identifier);
  if (extra.length === 0) return base;
  const map = new Map(base.toIdentifier);
  for (const team of extra) map.set(team.title, team.identifier);
  return withTitles(map);
}

const withTitles = (toIdentifier: Map<string, string>): Translation => ({
  toIdentifier,
  titles: [...toIdentifier.keys()].filter((title) => title.length > 1).sort((a, b) => b.length - a.length),
  onlyIdentifiers: new Set([...toIdentifier.values()].filter((identifier) => !toIdentifier.has(identifier))),
});

/** Whether a result holds, as a whole string, an identifier that is no team's title. */
function holdsIdentifier(result: EvaluateResult, { onlyIdentifiers }: Translation): boolean {
  if (!result.ok || onlyIdentifiers.size === 0) return false;
  const walk = (value: JsonValue): boolean =>
    typeof value === 'string' ? onlyIdentifiers.has(value) : Array.isArray(value) ? value.some(walk) : value !== null && typeof value === 'object' ? Object.values(value).some((item) => item !== undefined && walk(item)) : false;
  return result.values.some(walk);
}

/** A list of strings as a set: sorted, each once. Anything else as it is. */
function asTeamSet(result: EvaluateResult): EvaluateResult {
  if (!result.ok) return result;
  const set = (value: JsonValue): JsonValue => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...new Set(value as string[])].sort() : value);
  return { ok: true, values: result.values.map(set) };
}

/** Every title replaced by its identifier: whole strings, and titles inside strings (`"Payments, Platform"`). */
export function translated(result: EvaluateResult, { toIdentifier, titles }: Translation): EvaluateResult {
  const inString = (text: string): string => {
    const whole = toIdentifier.get(text);
    if (whole !== undefined) return whole;
    let out = text;
    for (const title of titles) if (out.includes(title)) out = out.split(title).join(toIdentifier.get(title)!);
    return out;
  };
  const walk = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return inString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      const out = keyedRecord();
      for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = walk(item);
      return out;
    }
    return value;
  };
  return result.ok ? { ok: true, values: result.values.map(walk) } : { ok: false, error: inString(result.error) };
}

/**
 * `now` is `was` with some of its strings (not all) turned from titles into identifiers: a value
 * shown or handed on that holds team values, which follow the teams, beside team names, which stay
 * titles (`{{ .trigger }}`: `.by.user.team` and `.by.user.teams[].name`). A substitution, not a change.
 */
function partlyTranslated(was: EvaluateResult, now: EvaluateResult, translation: Translation): boolean {
  if (!was.ok || !now.ok || was.values.length !== now.values.length) return false;
  const alike = (a: JsonValue, b: JsonValue): boolean => {
    if (typeof a === 'string') return a === b || (typeof b === 'string' && sameResult(translated({ ok: true, values: [a] }, translation), { ok: true, values: [b] }));
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => alike(item, b[i]!));
    if (a !== null && typeof a === 'object') {
      if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
      const keys = Object.keys(a);
      return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && alike(a[key]!, b[key]!));
    }
    return a === b;
  };
  return was.values.every((value, i) => alike(value, now.values[i]!));
}

function failureOf(result: EvaluateResult): { class: 'failed'; failure: EvaluationFailure; error: string } | undefined {
  return !result.ok && result.failure !== undefined ? { class: 'failed', failure: result.failure, error: result.error } : undefined;
}
