/**
 * A `$team` search rule (policy query, widget filter, dataset, scorecard condition), evaluated as
 * the service matches it against entities: once with the entities' teams as titles and once as
 * identifiers. The rule's values stay as written in both worlds; a value the service fills from
 * the user's own teams (`{{ .user.teams }}`) follows the teams. Which entities match, before and
 * after, decides the class; the lexer and the literals decide nothing.
 */
import { own } from '../model/json.js';
import type { TeamDirectory } from '../catalog/teams.js';
import type { EntityRecord } from '../model/snapshot.js';
import type { ReferenceClass } from './classify.js';
import { pendingIdentifier, teamsFor, type JudgeTeam, type World } from './worlds.js';

/** Operators the service documents for search rules, as they treat a list of team values. */
const MATCHERS: Readonly<Record<string, (teams: readonly string[], values: readonly string[]) => boolean>> = {
  '=': (teams, values) => values.length > 0 && values.every((v) => teams.includes(v)),
  '!=': (teams, values) => !values.some((v) => teams.includes(v)),
  in: (teams, values) => teams.some((t) => values.includes(t)),
  notIn: (teams, values) => !teams.some((t) => values.includes(t)),
  containsAny: (teams, values) => teams.some((t) => values.includes(t)),
  contains: (teams, values) => values.some((v) => teams.some((t) => t.includes(v))),
  doesNotContains: (teams, values) => !values.some((v) => teams.some((t) => t.includes(v))),
  beginsWith: (teams, values) => values.some((v) => teams.some((t) => t.startsWith(v))),
  doesNotBeginsWith: (teams, values) => !values.some((v) => teams.some((t) => t.startsWith(v))),
  endsWith: (teams, values) => values.some((v) => teams.some((t) => t.endsWith(v))),
  doesNotEndsWith: (teams, values) => !values.some((v) => teams.some((t) => t.endsWith(v))),
  isEmpty: (teams) => teams.length === 0,
  isNotEmpty: (teams) => teams.length > 0,
};

export const knownOperator = (operator: string): boolean => operator in MATCHERS;

/** What the rule compares `$team` with: literals as written, or the user's own teams (a service template). */
export type RuleValue = { kind: 'literals'; values: readonly string[] } | { kind: 'user-teams' };

/** One entity the rule is matched against: its teams, as `$team` holds them in each world. */
interface RuleEntity {
  label: string;
  before: readonly string[];
  after: readonly string[];
  /** One of the org's own entities (counted in `rows`), not a synthetic edge case. */
  real: boolean;
  /** Its team is a stand-in, not a team of the org. */
  standIn?: true;
}

export interface RuleJudgement {
  class: ReferenceClass;
  /** How many of the org's sampled entities match, before and after (contracts.md §3.4 `impact.rows`). */
  rows: { before: number; after: number; read: number; flipped: number };
  difference?: { context: string; before: string; after: string; standIn?: true };
}

/** Ours: entities of the org read per rule; enough to count rows, bounded for big orgs. */
const MAX_REAL_ENTITIES = 500;

/**
 * The entities: the org's own (the blueprint's, with their teams read back to titles where the
 * org already holds identifiers), then one per team, every team at once, and none.
 */
function ruleEntities(directory: TeamDirectory, entities: readonly EntityRecord[], teams: readonly JudgeTeam[]): RuleEntity[] {
  const toId = new Map<string, string>();
  const toTitle = new Map<string, string>();
  for (const team of directory.byTitle.values()) {
    if (team.identifier === undefined) continue;
    toId.set(team.title, team.identifier);
    toTitle.set(team.identifier, team.title);
  }
  for (const team of teams) {
    toId.set(team.title, team.identifier);
    toTitle.set(team.identifier, team.title);
  }
  for (const team of directory.byTitle.values()) if (team.identifier === undefined) toId.set(team.title, pendingIdentifier(team.title));
  const out: RuleEntity[] = [];
  for (const entity of entities.slice(0, MAX_REAL_ENTITIES)) {
    const values = Array.isArray(entity.team) ? entity.team.filter((v): v is string => typeof v === 'string') : typeof entity.team === 'string' ? [entity.team] : [];
    const before = values.map((v) => (directory.byTitle.has(v) ? v : (toTitle.get(v) ?? v)));
    out.push({ label: `entity "${entity.identifier}"`, before, after: before.map((v) => toId.get(v) ?? v), real: true });
  }
  for (const team of teams) out.push({ label: `an entity of team "${team.title}"`, before: [team.title], after: [team.identifier], real: false, ...(team.standIn && { standIn: true as const }) });
  if (teams.length > 1) {
    const standIn = teams.some((t) => t.standIn);
    out.push({ label: 'an entity of every team', before: teams.map((t) => t.title), after: teams.map((t) => t.identifier), real: false, ...(standIn && { standIn: true as const }) });
  }
  out.push({ label: 'an entity with no team', before: [], after: [], real: false });
  return out;
}

/**
 * Match the rule before and after on every entity. `values` are read in the world they run in:
 * literals as written, the user's teams as that world holds them (the user is taken to be in the
 * entity's teams, the case that decides a "mine" filter).
 */
export function judgeTeamRule(
  directory: TeamDirectory,
  operator: string,
  value: RuleValue,
  entities: readonly EntityRecord[],
  rewritten?: readonly string[],
): RuleJudgement | undefined {
  const match = own(MATCHERS, operator);
  if (!match) return undefined;
  const literals = value.kind === 'literals' ? value.values : [];
  const teams = teamsFor(directory, literals.join(' '), literals);
  const cases = ruleEntities(directory, entities, teams);
  const valuesIn = (entity: RuleEntity, world: World, written: readonly string[]) => (value.kind === 'user-teams' ? entity[world] : written);
  const rows = { before: 0, after: 0, read: 0, flipped: 0 };
  let difference: RuleJudgement['difference'];
  let changed = false;
  for (const entity of cases) {
    const before = match(entity.before, valuesIn(entity, 'before', literals));
    const after = match(entity.after, valuesIn(entity, 'after', rewritten ?? literals));
    if (entity.real) {
      rows.read++;
      if (before) rows.before++;
      if (after) rows.after++;
      if (before !== after) rows.flipped++;
    }
    if (before !== after) {
      changed = true;
      // A difference on a real team outweighs one only a stand-in shows.
      if (!difference || (difference.standIn && !entity.standIn)) {
        difference = { context: entity.label, before: before ? 'a match' : 'no match', after: after ? 'a match' : 'no match', ...(entity.standIn && { standIn: true as const }) };
      }
    }
  }
  return changed ? { class: 'changed', rows, difference: difference! } : { class: 'same', rows };
}

/** The rule's values with each identifier written as its team's title: what it would have said before the migration. */
export function valuesAsTitles(directory: TeamDirectory, values: readonly string[]): string[] | undefined {
  const titleOf = new Map<string, string>();
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined && team.identifier !== team.title) titleOf.set(team.identifier, team.title);
  if (!values.some((v) => titleOf.has(v) && !directory.byTitle.has(v))) return undefined;
  return values.map((v) => (directory.byTitle.has(v) ? v : (titleOf.get(v) ?? v)));
}
