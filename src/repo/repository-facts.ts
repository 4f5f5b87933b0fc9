import { builtInKey } from '../model/built-in-key.js';
import { TEAM_BLUEPRINT, USER_BLUEPRINT, type EntityRecord, type TeamRecord } from '../model/snapshot.js';
import type { FileResource } from './file-resources.js';
import { arrayStrings, field, stringField, type LocatedObject } from './located-json.js';
import { spanLine, type Span } from './tree.js';

/**
 * One thing a repository's files say about the migration state of the org they describe, with
 * where it is written. `strong` facts exist only on one side of the migration (a system blueprint
 * `_team`, a `port_blueprint` that still manages `_team`); weak ones can be left over or set early
 * (`ownership` on one blueprint, a `teamInheritance` nobody removed).
 */
export interface StateFact {
  file: string;
  line: number;
  fact: string;
  migrated: boolean;
  strong: boolean;
  /** A title the files write as a team value (addTeamValues). */
  title?: true;
}

/** A team the files name (`port_team`, Pulumi `Team`, an exported teams list), where it is written. */
export interface TeamFact {
  record: TeamRecord;
  file: string;
  line: number;
}

/**
 * What the scan's first pass collects from one repository's files before anything is judged:
 * the resources, the teams and the `_team` / `_user` entities they write, and the facts about
 * the migration state. src/repo/repository-catalog.ts makes an org snapshot of them.
 */
export interface RepositoryFacts {
  resources: FileResource[];
  teams: TeamFact[];
  /** Entities of the system blueprints, by blueprint (`_team`, `_user`). */
  entities: Map<string, EntityRecord[]>;
  state: StateFact[];
  /** Literal values the files write where a team value goes (an entity's teams), beside those in the resources. */
  teamValues: string[];
  /** `port_team.<x>.identifier` read by a Terraform configuration: null until the org has migrated. */
  teamIdentifierReads: { configuration: string; at: string }[];
}

export const emptyFacts = (): RepositoryFacts => ({ resources: [], teams: [], entities: new Map(), state: [], teamValues: [], teamIdentifierReads: [] });

export function stateFact(span: Span, fact: string, migrated: boolean, strong: boolean): StateFact {
  return { file: span.source.path, line: spanLine(span), fact, migrated, strong };
}

export function addEntity(facts: RepositoryFacts, blueprint: string, record: EntityRecord): void {
  const list = facts.entities.get(blueprint);
  if (list) list.push(record);
  else facts.entities.set(blueprint, [record]);
}

/** How many title facts a repository records: a few say it, more say nothing new. */
const TITLE_FACTS = 3;

/**
 * Team values a file writes where a team value goes. One with whitespace can only be a title (no
 * identifier holds it), and only an org before the migration holds titles: a weak fact, as a file
 * may keep titles after its org has migrated (which is what the scan then reports).
 */
export function addTeamValues(facts: RepositoryFacts, values: readonly string[], span: Span): void {
  for (const value of values) {
    if (builtInKey(value) !== undefined) continue; // "My Teams", {{getUserTeams()}}: the service fills them, no team of their own
    facts.teamValues.push(value);
    if (!/\S\s+\S/.test(value.trim()) || /\{\{|\$\{/.test(value)) continue;
    if (facts.state.filter((fact) => fact.title).length >= TITLE_FACTS) continue;
    facts.state.push({ ...stateFact(span, `team value ${JSON.stringify(value)} is a title`, false, false), title: true });
  }
}

/** The team values a JSON value names: a string, or the strings of a list. */
export const teamStrings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** One Terraform resource or Pulumi call, as the scan's first pass reads it. */
export interface Declared {
  /** Its type or class, and the tool's names for a team, an entity and a blueprint. */
  type: string;
  names: { team: string; entity: string; blueprint: string };
  args: LocatedObject;
  /** The whole declaration, and the part a fact about the resource itself points at (Pulumi: its class). */
  span: Span;
  head: Span;
  /** What an entity without an identifier is called (`port_entity.x`, `Entity x`). */
  unnamed: string;
  /** A team's description is kept (Terraform's `port_team`). */
  description?: true;
}

/**
 * The scan's first pass (terraform.ts, pulumi.ts): what a resource tells of the org the files
 * describe. Teams, the system blueprints' entities (of `_team` / `_user`), and a blueprint resource
 * that still manages `_team` or `_user`, as only an org before the migration allows.
 */
export function gatherDeclared(facts: RepositoryFacts, { type, names, args, span, head, unnamed, description }: Declared): void {
  if (type === names.team) {
    const name = stringField(args, 'name');
    const kept = description && stringField(args, 'description');
    if (name !== undefined) facts.teams.push({ record: { name, ...(kept !== undefined && { description: kept }) }, file: span.source.path, line: spanLine(span) });
    return;
  }
  const identifier = stringField(args, 'identifier');
  if (type === names.entity) {
    const teams = field(args, 'teams');
    const team = arrayStrings(teams);
    if (team) addTeamValues(facts, team, teams?.origin.entry?.span ?? span);
    const blueprint = stringField(args, 'blueprint');
    const title = stringField(args, 'title');
    // An entity's teams tell the migration to give its blueprint Direct ownership; `_team` entities name the org's teams.
    if (blueprint !== undefined) addEntity(facts, blueprint, { identifier: identifier ?? unnamed, ...(title !== undefined && { title }), ...(team !== undefined && { team }) });
    return;
  }
  if (type === names.blueprint && (identifier === TEAM_BLUEPRINT || identifier === USER_BLUEPRINT)) {
    facts.state.push(stateFact(head, `${type} manages ${identifier}, which only an org before the migration allows`, false, true));
  }
}
