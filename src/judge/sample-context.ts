import type { TeamDirectory } from '../catalog/teams.js';
import { own, keyedRecord, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FieldPath } from '../jq/references.js';
import { RUN_TRIGGER, userObject } from './user-model.js';

/**
 * What an expression runs on, as far as its team values go: a calculation on the entity, a user
 * input's jqQuery on `{user, entity, form}`, a policy condition on the queries' `results`, an
 * action or automation mapping on the run (`diff`, `event.diff`, `entity`, `inputs`, `trigger`).
 */
import type { SampleKind } from '../model/sites.js';
export type { SampleKind };

export interface SampleTeam {
  title: string;
  identifier: string;
  /** A stand-in, not a team of the org: reasons must say so, so nobody copies its identifier. */
  placeholder?: true;
}

/** Used only to exercise an expression when the org names too few teams with known identifiers. */
const PLACEHOLDER_TEAMS: readonly SampleTeam[] = [
  { title: 'Sample Team', identifier: 'sample_team', placeholder: true },
  { title: 'Other Sample Team', identifier: 'other_sample_team', placeholder: true },
];

/**
 * Two teams whose title and identifier differ, from the org when it has them. Only the sample
 * input ever holds placeholders; suggestions and rewrites never do.
 */
export function sampleTeams(directory: TeamDirectory): [SampleTeam, SampleTeam] {
  const known: SampleTeam[] = [];
  for (const team of directory.byTitle.values()) {
    if (team.identifier !== undefined && team.identifier !== team.title) known.push({ title: team.title, identifier: team.identifier });
    if (known.length === 2) break; // called for every expression: stop once two are found
  }
  const [a, b] = [...known, ...PLACEHOLDER_TEAMS];
  return [a!, b!];
}

/**
 * Ways to fill the team slots of one context: all the same team, two teams, different teams per
 * slot (a diff's before and after, a user and an entity), and empty against non-empty. Slot `i`
 * is the i-th team-bearing place in the context.
 */
const VARIANTS: readonly ((slot: number, a: string, b: string) => string[])[] = [
  (_slot, a) => [a],
  (_slot, a, b) => [a, b],
  (slot, a, b) => (slot % 2 === 0 ? [a] : [b]),
  (slot, a) => (slot % 2 === 0 ? [] : [a]),
];

export const VARIANT_COUNT = VARIANTS.length;

/**
 * How team values are written: as titles, as identifiers, or as markers. A marker stands for a
 * team and is a string nothing else in a sample or an expression holds, so an output carrying it
 * can only have come from a team value.
 */
export type TeamForm = 'title' | 'identifier' | 'marker';

export const TEAM_MARKERS: readonly [string, string] = ['__team_value_marker_a__', '__team_value_marker_b__'];

/**
 * The sample input for one variant, with every team value written in one form. `teamProperties`
 * are entity properties whose values are team values (mirrors of `$team`): they get team slots too.
 * `relations` are what every sample entity's relations hold (none, unless a probe asks).
 */
export function sampleInput(
  kind: SampleKind,
  variant: number,
  teams: readonly [SampleTeam, SampleTeam],
  form: TeamForm,
  queryIds: readonly string[],
  teamProperties: readonly string[] = [],
  relations: JsonObject = {},
): JsonValue {
  // The same sample object for the same arguments: jq's engine keys its answers by the sample's
  // JSON text, which it writes out once per object, and thousands of expressions share a few
  // dozen samples. Never changed once built; dropped wholesale past a bound.
  const key = JSON.stringify([kind, variant, teams, form, queryIds, teamProperties, relations]);
  let sample = samples.get(key);
  if (sample === undefined) {
    if (samples.size >= MAX_SAMPLES) samples.clear();
    samples.set(key, (sample = buildSample(kind, variant, teams, form, queryIds, teamProperties, relations)));
  }
  return sample;
}

const samples = new Map<string, JsonValue>();
const MAX_SAMPLES = 10_000;

function buildSample(
  kind: SampleKind,
  variant: number,
  teams: readonly [SampleTeam, SampleTeam],
  form: TeamForm,
  queryIds: readonly string[],
  teamProperties: readonly string[],
  relations: JsonObject,
): JsonValue {
  const pick = VARIANTS[variant % VARIANTS.length]!;
  const [a, b] = form === 'marker' ? TEAM_MARKERS : (teams.map((team) => team[form]) as [string, string]);
  let slot = 0;
  const teamList = () => pick(slot++, a, b);
  const entity = (identifier: string): JsonValue => {
    const team = teamList();
    const properties = keyedRecord();
    // A mirror of the team holds the same teams as the entity's own team.
    for (const name of teamProperties) properties[name] = team;
    return { identifier, title: identifier, blueprint: 'sample', team, properties, relations: { ...relations } };
  };
  // The one user model (src/judge/user-model.ts): names are titles in every form but the markers.
  const user = (): JsonValue => {
    const team = teamList();
    return userObject(team, form === 'marker' ? team : team.map((value) => teams.find((t) => t.identifier === value)?.title ?? value));
  };
  switch (kind) {
    case 'entity':
      return entity('sample-entity');
    case 'user-input':
      return { user: user(), entity: entity('sample-entity'), form: {} };
    case 'policy': {
      const results = keyedRecord();
      for (const id of queryIds) results[id] = { entities: [entity('first'), entity('second')] };
      return { user: user(), results };
    }
    case 'action-run': {
      const before = entity('sample-entity');
      const after = entity('sample-entity');
      const runner = user();
      return { diff: { before, after }, event: { diff: { before, after } }, entity: after, inputs: {}, trigger: RUN_TRIGGER, user: runner };
    }
    case 'create-run':
      return { entity: {}, inputs: {}, trigger: RUN_TRIGGER, user: user() };
  }
}

/** Query ids a policy condition reads (`.results.<id>…`), so the sample holds exactly those. */
export function policyQueryIds(paths: readonly FieldPath[]): string[] {
  const ids = paths.filter((p) => p.variable === undefined && p.segments[0] === 'results' && p.segments[1] !== undefined).map((p) => p.segments[1]!);
  return [...new Set(ids)];
}

/**
 * Paths the sample has no value for. A path read at the top of the input (`rooted`) counts as
 * filled when it resolves from the root: a run's `.relations.x` is none of its entities'. Any other
 * counts when it resolves from any object inside the sample (`map(.team)` runs on the entities of a
 * result, `$e.team` on whatever `$e` was bound to); arrays are looked through, as `[]` in the path would.
 */
export function unfilledPaths(paths: readonly FieldPath[], sample: JsonValue, rooted: (path: FieldPath) => boolean = () => false): FieldPath[] {
  const nodes = objectNodes(sample);
  return paths.filter((path) => (rooted(path) ? !resolves(sample, path.segments) : !nodes.some((node) => resolves(node, path.segments))));
}

function objectNodes(value: JsonValue, out: JsonValue[] = []): JsonValue[] {
  if (Array.isArray(value)) for (const item of value) objectNodes(item, out);
  else if (isObject(value)) {
    out.push(value);
    for (const child of Object.values(value)) if (child !== undefined) objectNodes(child, out);
  }
  return out;
}

function resolves(node: JsonValue, segments: readonly string[]): boolean {
  let current: JsonValue | undefined = node;
  for (const segment of segments) {
    while (Array.isArray(current)) current = current[0];
    if (!isObject(current)) return false;
    current = own(current, segment);
    if (current === undefined) return false;
  }
  return true;
}
