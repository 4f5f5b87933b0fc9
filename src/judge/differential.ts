import type { JsonValue } from '../model/json.js';
import type { EvaluateResult, EvaluationFailure, JqEngine } from '../jq/engine.js';
import { sampleInput, TEAM_MARKERS, VARIANT_COUNT, type JudgeTeam, type SampleKind, type TeamForm } from './worlds.js';

export interface DifferentialOptions {
  kind: SampleKind;
  teams: readonly [JudgeTeam, JudgeTeam];
  queryIds: readonly string[];
  /** Entity properties whose values are team values (mirrors of `$team`). */
  teamProperties?: readonly string[];
}

/**
 * Every sample a probe may run on, in the order it runs them (variant by variant, form by form):
 * built once, and handed to jq ahead in one request, since a probe usually runs them all.
 */
function samplesOf(options: DifferentialOptions, forms: readonly TeamForm[]): JsonValue[] {
  const inputs: JsonValue[] = [];
  for (let variant = 0; variant < VARIANT_COUNT; variant++) {
    for (const form of forms) inputs.push(sampleInput(options.kind, variant, options.teams, form, options.queryIds, options.teamProperties));
  }
  return inputs;
}

export type DependenceOutcome =
  /** `how` says what showed it, as a clause: which output carried a team value or changed with them. */
  | { kind: 'depends'; how: string }
  | { kind: 'independent'; samples: number }
  | { kind: 'failed'; failure: EvaluationFailure; error: string };

const FORMS: readonly TeamForm[] = ['title', 'identifier', 'marker'];
const FORM_LABEL: Record<TeamForm, string> = { title: 'with team titles', identifier: 'with team identifiers', marker: 'with other team values' };

/**
 * Does the expression's result depend on team values at all? The samples differ in nothing but
 * their team values (which teams, how many, and written as titles, identifiers or markers), so a
 * result that carries a marker, or differs between any two samples, came from team values. This
 * is what tells `getpath(["team"])` or `. as {team: $t} | $t` (team reads the tokens miss) from
 * `.inputs.team` or `"x" as $team | $team` (names that only look like one).
 */
export function probeTeamDependence(engine: JqEngine, expression: string, options: DifferentialOptions): DependenceOutcome {
  const key = JSON.stringify([options.kind, options.teams, options.queryIds, options.teamProperties ?? [], expression]);
  return decidedOnce(dependenceCache, engine, key, () => runDependenceProbe(engine, expression, options));
}

const dependenceCache = new WeakMap<JqEngine, Map<string, DependenceOutcome>>();

/**
 * Big orgs repeat the same expression thousands of times (one mapping copied into every action):
 * the engine caches each run, but building and keying a dozen samples still adds up, so each
 * probe is decided once per engine and key.
 */
function decidedOnce<T>(caches: WeakMap<JqEngine, Map<string, T>>, engine: JqEngine, key: string, decide: () => T): T {
  let cache = caches.get(engine);
  if (!cache) caches.set(engine, (cache = new Map()));
  let outcome = cache.get(key);
  if (outcome !== undefined) return outcome;
  outcome = decide();
  // A planning engine's answers are not jq's: never kept (it is the real run's engine once the plan is done).
  if (!engine.plansOnly) cache.set(key, outcome);
  return outcome;
}

function runDependenceProbe(engine: JqEngine, expression: string, options: DifferentialOptions): DependenceOutcome {
  let first: { result: EvaluateResult; form: TeamForm } | undefined;
  const inputs = samplesOf(options, FORMS);
  engine.prefetch?.({ evaluate: [{ expression, inputs }] });
  for (let variant = 0; variant < VARIANT_COUNT; variant++) {
    for (const [f, form] of FORMS.entries()) {
      const result = engine.evaluate(inputs[variant * FORMS.length + f]!, expression);
      const failed = failedRun(result);
      if (failed?.kind === 'failed') return failed;
      if (form === 'marker' && carriesMarker(result)) {
        return { kind: 'depends', how: `its result carries the team values (${shown(result)})` };
      }
      if (first === undefined) first = { result, form };
      else if (!sameResult(first.result, result)) {
        const other = form === first.form ? 'with other teams' : FORM_LABEL[form];
        return { kind: 'depends', how: `it gives ${shown(first.result)} ${FORM_LABEL[first.form]} but ${shown(result)} ${other}` };
      }
    }
  }
  return { kind: 'independent', samples: VARIANT_COUNT * FORMS.length };
}

/** Stands for the entities a relation points to: nothing else in a sample or an expression holds it. */
const RELATION_MARKERS: readonly [string, string] = ['__relation_value_marker_a__', '__relation_value_marker_b__'];

/** The relation absent, holding one entity, holding two: every shape a relation value takes. */
const RELATION_VALUES: readonly (JsonValue | undefined)[] = [undefined, RELATION_MARKERS[0], [...RELATION_MARKERS]];

/**
 * Does the result depend on one relation of the entities? The samples differ only in what that
 * relation holds, so a result that changes with it, or carries its value, read it: this finds
 * `getpath(["relations", "owning_team"])`, `.relations as {owning_team: $t}` or
 * `.relations | has("owning_team")`, which name the relation in no path the tokens show.
 * `literals` are strings the expression compares with, tried as the relation's value too.
 */
export function probeRelationDependence(
  engine: JqEngine,
  expression: string,
  options: DifferentialOptions & { relation: string; literals?: readonly string[] },
): DependenceOutcome {
  const key = JSON.stringify([options.kind, options.teams, options.queryIds, options.teamProperties ?? [], options.relation, options.literals ?? [], expression]);
  return decidedOnce(relationCache, engine, key, () => runRelationProbe(engine, expression, options));
}

const relationCache = new WeakMap<JqEngine, Map<string, DependenceOutcome>>();

function runRelationProbe(engine: JqEngine, expression: string, options: DifferentialOptions & { relation: string; literals?: readonly string[] }): DependenceOutcome {
  let absent: EvaluateResult | undefined;
  // `index("Payments")` gives the same for every other value: a literal it compares with shows the read.
  const values = [...RELATION_VALUES, ...(options.literals ?? []).flatMap((literal) => [literal, [literal]])];
  const inputs = values.map((value) => sampleInput(options.kind, 0, options.teams, 'title', options.queryIds, options.teamProperties, value === undefined ? {} : { [options.relation]: value }));
  engine.prefetch?.({ evaluate: [{ expression, inputs }] });
  for (let i = 0; i < values.length; i++) {
    const result = engine.evaluate(inputs[i]!, expression);
    const failed = failedRun(result);
    if (failed?.kind === 'failed') return failed;
    if (RELATION_MARKERS.some((marker) => (result.ok ? JSON.stringify(result.values) : result.error).includes(marker))) {
      return { kind: 'depends', how: 'its result carries the relation\'s value' };
    }
    if (absent === undefined) absent = result;
    else if (!sameResult(absent, result)) {
      return { kind: 'depends', how: `it gives ${describeResult(absent)} without the relation but ${describeResult(result)} with it` };
    }
  }
  return { kind: 'independent', samples: values.length };
}

function carriesMarker(result: EvaluateResult): boolean {
  const text = result.ok ? JSON.stringify(result.values) : result.error;
  return TEAM_MARKERS.some((marker) => text.includes(marker));
}

/** A result for a reason: markers mean nothing to a reader, so they are shown as what they stand for. */
function shown(result: EvaluateResult): string {
  return describeResult(result).replaceAll(TEAM_MARKERS[0], '<a team>').replaceAll(TEAM_MARKERS[1], '<another team>');
}

function failedRun(result: EvaluateResult): DependenceOutcome | undefined {
  return !result.ok && result.failure !== undefined ? { kind: 'failed', failure: result.failure, error: result.error } : undefined;
}

/** Two runs gave the same output values, or failed with the same error. */
export function sameResult(a: EvaluateResult, b: EvaluateResult): boolean {
  // Value by value, as the whole list's JSON text compares (each value's text is delimited): most are equal strings.
  if (a.ok && b.ok) return a.values.length === b.values.length && a.values.every((value, i) => value === b.values[i] || JSON.stringify(value) === JSON.stringify(b.values[i]));
  if (!a.ok && !b.ok) return a.error === b.error;
  return false;
}

const MAX_SHOWN = 80;

/** A result as a reader sees it: the output values, `no output`, or jq's error. */
export function describeResult(result: EvaluateResult): string {
  if (!result.ok) return `an error (${result.error})`;
  if (result.values.length === 0) return 'no output';
  const text = result.values.map((value) => JSON.stringify(value)).join(', ');
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
