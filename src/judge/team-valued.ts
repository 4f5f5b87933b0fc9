/**
 * Issue 39, item 4: properties whose values are team values, for a blueprint's readers: its
 * mirrors of `$team` (catalog.teamMirrors), and its calculations that pass team values on, which
 * running them on one entity in both worlds shows (titles before the migration, the same teams'
 * identifiers after it), followed through calculations over those until none is added.
 */
import type { Catalog } from '../catalog/catalog.js';
import { TEAM_BLUEPRINT } from '../model/snapshot.js';
import { relationsOf } from '../catalog/inheritance.js';
import { mirrorPathEffect, mirrorsOf } from '../catalog/mirror-paths.js';
import { teamPropertiesFor } from '../catalog/resources.js';
import { asString, copyJson, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import { fillDerived } from './classify.js';
import { derivedSeen } from './expression-memo.js';
import type { JqEngine } from '../jq/engine.js';
import { literalTexts, sampleInput, sampleTeams, teamsFor, type JudgeTeam } from './worlds.js';

interface TeamValued {
  /** Properties that hold team values: mirrors of `$team`, calculations that pass them on. */
  teamValued: ReadonlySet<string>;
  /**
   * Calculations derived from team values that are no pass-through (`.team | join(", ")`,
   * `.team | map(ascii_downcase)`, `.team | first`): what they give differs between the worlds.
   * By name, their calculation: a reader is judged by running it in both worlds.
   */
  derived: ReadonlyMap<string, string>;
  /**
   * Both kinds, in the order found: what a reader's contexts hold is what each gives there, run on
   * the entity (`.team | first` passes one team on as a string, never the entity's list of teams).
   */
  computed: ReadonlyMap<string, string>;
}

/**
 * By the catalog's blueprints, with the engine that found them: the rules' dry run (a copy of the
 * catalog whose engine only plans, src/jq/prefetch-rules.ts) then judges with what jq really said,
 * so what it plans is what the real run asks.
 */
const found = new WeakMap<object, { jq: JqEngine; byBlueprint: Map<string, TeamValued>; all?: ReadonlyMap<string, string> }>();

function foundFor(blueprints: Catalog['blueprints'], jq: JqEngine): { byBlueprint: Map<string, TeamValued>; all?: ReadonlyMap<string, string> } {
  const known = found.get(blueprints);
  if (known && (known.jq === jq || (jq.plansOnly && !known.jq.plansOnly))) return known;
  const fresh = { jq, byBlueprint: new Map<string, TeamValued>() };
  // What a planning engine found is never kept: its answers are not jq's.
  if (!jq.plansOnly) found.set(blueprints, fresh);
  return fresh;
}

export function teamValuedProperties(catalog: Catalog, blueprint: string | undefined): ReadonlySet<string> {
  return teamValuedOf(catalog, blueprint).teamValued;
}

/** Issue 39, item 4: a blueprint's calculations derived from team values (not passing them on as they are), with their jq. */
export function derivedTeamProperties(catalog: Catalog, blueprint: string | undefined): ReadonlyMap<string, string> {
  return teamValuedOf(catalog, blueprint).derived;
}

const NO_DERIVED: ReadonlyMap<string, string> = new Map();

/**
 * Calculations computed from team values, passed on or derived, by name: the contexts of their
 * readers hold what each gives. A reader on a blueprint sees that blueprint's alone (two blueprints
 * may each name a different calculation alike); one on none named (a policy's condition), every blueprint's.
 */
export function allDerivedTeamProperties(catalog: Catalog, blueprint?: string): ReadonlyMap<string, string> {
  if (!catalog.jq) return NO_DERIVED;
  if (blueprint !== undefined) return teamValuedOf(catalog, blueprint).computed;
  const known = foundFor(catalog.blueprints, catalog.jq);
  if (known.all === undefined) {
    const merged = new Map<string, string>();
    for (const id of catalog.blueprints.keys()) for (const [name, calculation] of teamValuedOf(catalog, id).computed) merged.set(name, calculation);
    known.all = merged;
  }
  return known.all;
}

/** A blueprint's calculations, name and jq. */
function calculationsOf(definition: JsonObject | undefined): (readonly [string, string])[] {
  if (!isObject(definition?.calculationProperties)) return [];
  return Object.entries(definition.calculationProperties).flatMap(([name, calculation]) => {
    const expression = isObject(calculation) ? asString(calculation.calculation) : undefined;
    return expression === undefined ? [] : [[name, expression] as const];
  });
}

/**
 * The entity a calculation is run on to see what it does with team values: one team (variant 0) or
 * two (1), as titles or identifiers, its mirrors holding its teams and each calculation already
 * found computed from them holding what it gives there.
 */
function probeEntity(catalog: Catalog, variant: number, form: 'title' | 'identifier', mirrors: Iterable<string>, teams: readonly [JudgeTeam, JudgeTeam] = sampleTeams(catalog.teams), computed: ReadonlyMap<string, string> = NO_DERIVED): JsonValue {
  const sample = sampleInput('entity', variant, teams, form, [], [...mirrors]);
  return computed.size === 0 || !catalog.jq ? sample : fillDerived(copyJson(sample), { jq: catalog.jq, properties: [...computed] });
}

/**
 * The org's teams a calculation with string literals is also run with, one at a time: one team of
 * each class it cannot tell apart (`index("QA") != null` differs for QA alone, which the first
 * sample teams may not be). None where it holds no string: every team is then alike to it.
 */
function literalProbes(catalog: Catalog, expression: string): (readonly [JudgeTeam, JudgeTeam])[] {
  if (literalTexts(expression).length === 0) return [];
  return teamsFor(catalog.teams, expression, [])
    .filter((team) => team.standIn === undefined)
    .map((team) => [team, team] as const);
}

/**
 * Every blueprint's calculations on the entities `teamValuedOf` first runs them on, asked of jq in
 * a few large requests (one request per run cost most of their time), then what each blueprint's
 * calculations do with team values, before the rules' dry run reads it.
 */
export function prefetchTeamValued(catalog: Catalog): void {
  const jq = catalog.jq;
  if (!jq?.prefetch) return;
  const evaluate: { expression: string; inputs: JsonValue[] }[] = [];
  for (const [id, definition] of catalog.blueprints) {
    const calculations = calculationsOf(definition);
    if (calculations.length === 0) continue;
    const mirrors = teamPropertiesFor(catalog, id);
    const inputs = [0, 1].flatMap((variant) => (['title', 'identifier'] as const).map((form) => probeEntity(catalog, variant, form, mirrors)));
    for (const [, expression] of calculations) {
      const probes = literalProbes(catalog, expression).flatMap((teams) => (['title', 'identifier'] as const).map((form) => probeEntity(catalog, 0, form, mirrors, teams)));
      evaluate.push({ expression, inputs: [...inputs, ...probes] });
    }
  }
  jq.prefetch({ validate: evaluate.map((work) => work.expression), evaluate });
  // Found now with jq's answers, so the dry run judges with them.
  allDerivedTeamProperties(catalog);
}

function teamValuedOf(catalog: Catalog, blueprint: string | undefined): TeamValued {
  const mirrors = teamPropertiesFor(catalog, blueprint);
  const jq = catalog.jq;
  if (blueprint === undefined || !jq) return { teamValued: mirrors, derived: NO_DERIVED, computed: NO_DERIVED };
  const known = foundFor(catalog.blueprints, jq).byBlueprint;
  const cached = known.get(blueprint);
  if (cached) return cached;
  const calculations = calculationsOf(catalog.blueprints.get(blueprint));
  const teamValued = new Set(mirrors);
  const derived = new Map<string, string>();
  const computed = new Map<string, string>();
  const identifierOf = new Map(sampleTeams(catalog.teams).map((team) => [team.title, team.identifier]));
  // Run on the same entity in both worlds: it passes team values on when what it gives after the
  // migration is what it gave before with each title written as its team's identifier, and differs;
  // it is derived from them when it differs otherwise. One team, then two (`join(", ")` of one team
  // is that team; of two, no team), the second only where the first showed a pass-through.
  const effectOn = (expression: string, variant: number, teams?: readonly [JudgeTeam, JudgeTeam]): 'passes-on' | 'derived' | undefined => {
    const [before, after] = (['title', 'identifier'] as const).map((form) => jq.evaluate(probeEntity(catalog, variant, form, mirrors, teams, derivedSeen(expression, computed)), expression));
    if (!before?.ok || !after?.ok) return undefined;
    const asAfter = JSON.stringify(after.values);
    if (JSON.stringify(before.values) === asAfter) return undefined;
    const asIdentifiers = JSON.stringify(before.values, (_, value: unknown) => (typeof value === 'string' ? (identifierOf.get(value) ?? value) : value));
    return asIdentifiers === asAfter ? 'passes-on' : 'derived';
  };
  const effect = (expression: string) => {
    const one = effectOn(expression, 0);
    if (one === 'derived' || (one === 'passes-on' && effectOn(expression, 1) === 'derived')) return 'derived';
    // Alike for the sample teams, or passed on by them: derived still when some team of the org shows
    // it differing (`split(" ") | .[0]` passes one-word titles on, not "Cloud Cost").
    return literalProbes(catalog, expression).some((teams) => effectOn(expression, 0, teams) === 'derived') ? 'derived' : one;
  };
  for (let added = true; added; ) {
    added = false;
    for (const [name, expression] of calculations) {
      // Found already, it is asked again only when it reads one found (what it gives may have changed).
      if (teamValued.has(name) || (computed.has(name) && derivedSeen(expression, computed).size === 0)) continue;
      const what = effect(expression);
      if (what !== undefined && !computed.has(name)) {
        computed.set(name, expression);
        added = true;
      }
      if (what === 'derived') derived.set(name, expression);
      if (what !== 'passes-on') continue;
      derived.delete(name);
      teamValued.add(name);
    }
  }
  const result = { teamValued, derived, computed };
  known.set(blueprint, result);
  return result;
}

/** By the catalog's blueprints (the dry run's copy of a catalog shares them), then by blueprint. */
const identifierMirrorsFound = new WeakMap<object, Map<string, ReadonlySet<string>>>();

/**
 * Issue 39, item 7: mirror properties that hold the identifiers of `_team` entities, before the
 * migration and after it (`owning_team.$identifier` over a relation to `_team` the migration
 * keeps, `$team.$identifier`): their values are team identifiers wherever they are read. A path
 * over a relation the migration removes is no such mirror (it points at nothing afterwards).
 * With no blueprint named, every blueprint's. `field` `$title`: mirrors of the same entities' titles.
 */
export function teamIdentifierMirrors(catalog: Catalog, blueprint: string | undefined, field: '$identifier' | '$title' = '$identifier'): ReadonlySet<string> {
  let known = identifierMirrorsFound.get(catalog.blueprints);
  if (!known) identifierMirrorsFound.set(catalog.blueprints, (known = new Map()));
  const key = `${field}\u0000${blueprint ?? ''}`;
  const cached = known.get(key);
  if (cached) return cached;
  const names = new Set<string>();
  const one = blueprint === undefined ? undefined : catalog.blueprints.get(blueprint);
  // One blueprint's alone, not a walk over every blueprint for each (a 10x org asks for 3,000).
  for (const [id, definition] of blueprint === undefined ? catalog.blueprints : one ? [[blueprint, one] as const] : []) {
    for (const mirror of mirrorsOf(definition)) {
      if (mirrorPathEffect(id, mirror.path, catalog.blueprints, catalog.removedRelations).kind === 'unaffected' && reachesTeamField(catalog, id, mirror.path, field)) names.add(mirror.id);
    }
  }
  known.set(key, names);
  return names;
}

/** Whether a mirror path ends at `field` of `_team` entities, hop by hop. */
function reachesTeamField(catalog: Catalog, blueprint: string, path: string, field: string): boolean {
  const segments = path.split('.');
  if (segments.pop() !== field || segments.length === 0) return false;
  let current: string | undefined = blueprint;
  for (const segment of segments) {
    const target: unknown = segment === '$team' ? TEAM_BLUEPRINT : relationsOf(catalog.blueprints.get(current!))[segment]?.target;
    if (typeof target !== 'string') return false;
    current = target;
  }
  return current === TEAM_BLUEPRINT;
}
