/**
 * Values the service fills in a search rule itself, and the team-search forms of a mapping, each
 * with what it stands for before the migration and after it (docs/decision-table.md prints this
 * table; a test checks the two agree). Org rules and repository files reach them through the same
 * rules, so this is the one place that knows them.
 */
import type { JsonValue } from '../model/json.js';
import { builtInKey } from '../model/built-in-key.js';
import type { World } from './user-model.js';

/** The viewer (or the user triggering the query) as a built-in value reads them in one world. */
export interface BuiltInUser {
  teams: readonly { title: string; identifier: string }[];
  email: string;
}

export interface BuiltInValue {
  /** How it is written, as the reader meets it. */
  form: string;
  /** Where the service documents it. */
  where: string;
  /** What it stands for before the migration and after it, in words (the docs' table). */
  before: string;
  after: string;
  /** The strings it stands for, for one user in one world. */
  values(user: BuiltInUser, world: World): string[];
  /**
   * The built-in that says the same with titles (`userTeams.$identifier` read back as `$title`):
   * one that yields identifiers by design matches after the migration what its twin matched
   * before it, so it is written for identifiers and belongs with the migration.
   */
  asTitles?: string;
  /** Why a person should still look, where the service says more about it (deprecation). */
  note?: string;
}

const teamValues = (user: BuiltInUser, world: World) => user.teams.map((t) => (world === 'before' ? t.title : t.identifier));

/** The name a value of a user's entity property stands in as: compared with teams, it is no team. */
const NOT_A_TEAM = (what: string) => `<${what}>`;

/**
 * The built-in values a `$team` rule may hold, by how they are written. `context` rules follow
 * the search docs ("Contextual query rules": `user` is the user's `_user` entity, `userTeams` the
 * `_team` entities of the user's teams); "My Teams" the comparison operators page.
 */
export const BUILT_IN_VALUES: Readonly<Record<string, BuiltInValue>> = {
  'My Teams': {
    form: '"My Teams"',
    where: 'a `$team` rule\'s value (table and chart filters, the page filter "My Teams")',
    before: "the viewer's teams as `$team` holds them: titles",
    after: "the viewer's teams as `$team` holds them: identifiers",
    values: teamValues,
  },
  '{{getUserTeams()}}': {
    form: '"{{getUserTeams()}}"',
    where: 'a rule\'s value (a template the service resolves)',
    before: "the user's teams as `$team` holds them: titles",
    after: "the user's teams as `$team` holds them: identifiers",
    values: teamValues,
    note: 'getUserTeams() is deprecated since 2025-11-12; a `context: userTeams` rule replaces it',
  },
  '{{getUserEmail()}}': {
    form: '"{{getUserEmail()}}"',
    where: 'a rule\'s value (a template the service resolves)',
    before: "the user's email",
    after: "the user's email",
    values: (user) => [user.email],
  },
  'userTeams.$identifier': {
    form: '{"context": "userTeams", "property": "$identifier"}',
    where: 'a rule\'s value or property ("Contextual query rules")',
    before: "the identifiers of the user's `_team` entities, which `$team` does not hold yet (it holds titles)",
    after: "the identifiers of the user's teams: what `$team` holds",
    values: (user) => user.teams.map((t) => t.identifier),
    asTitles: 'userTeams.$title',
  },
  'userTeams.$title': {
    form: '{"context": "userTeams", "property": "$title"}',
    where: 'a rule\'s value or property ("Contextual query rules")',
    before: "the titles of the user's teams: what `$team` holds",
    after: "the titles of the user's teams, while `$team` holds identifiers",
    values: (user) => user.teams.map((t) => t.title),
  },
  'user.$team': {
    form: '{"context": "user", "property": "$team"}',
    where: 'a rule\'s value or property ("Contextual query rules")',
    before: "the user's teams as `$team` holds them: titles",
    after: "the user's teams as `$team` holds them: identifiers (the `_user` entity's team)",
    values: teamValues,
  },
  'user.$identifier': {
    form: '{"context": "user", "property": "$identifier"}',
    where: 'a rule\'s value or property ("Contextual query rules")',
    before: "the user's email (the `_user` entity's identifier)",
    after: "the user's email (the `_user` entity's identifier)",
    values: (user) => [user.email],
  },
  'user.$title': {
    form: '{"context": "user", "property": "$title"}',
    where: 'a rule\'s value or property ("Contextual query rules")',
    before: "the user's name",
    after: "the user's name",
    values: () => [NOT_A_TEAM('the user\'s name')],
  },
};

/** The built-in value a rule's value or property is, or why it is one this tool does not know. */
export function builtInOf(value: JsonValue | undefined): { builtIn: BuiltInValue; key: string } | { unknown: string } | undefined {
  const key = builtInKey(value);
  if (key === undefined) return undefined;
  const builtIn = BUILT_IN_VALUES[key];
  if (builtIn) return { builtIn, key };
  return { unknown: `${JSON.stringify(value)} names a property of the user's (or their teams') entity that this tool does not hold` };
}

/**
 * A mapping's `team` given as a search over `_team` entities (`{combinator, rules: [{property:
 * "$title" | "$identifier", operator, value}]}`, a post-migration form): what it finds, when its
 * value comes from the source (a payload this tool cannot read). A literal or a value the tool can
 * run is matched against the org's teams instead.
 */
export interface TeamSearchForm {
  form: string;
  before: string;
  after: string;
  verdict: 'unaffected' | 'review';
  why: string;
}

export const TEAM_SEARCH_FORMS: Readonly<Record<'$title' | '$identifier', TeamSearchForm>> = {
  $title: {
    form: '`team: {rules: [{property: "$title", operator: "=", value: <from the source>}]}`',
    before: 'the team whose title the source holds',
    after: 'the team whose title the source holds (the `_team` entity keeps the title)',
    verdict: 'unaffected',
    why: 'it finds teams by title, and a team keeps its title: it keeps working while the source holds titles',
  },
  $identifier: {
    form: '`team: {rules: [{property: "$identifier", operator: "=", value: <from the source>}]}`',
    before: 'the team whose identifier the source holds',
    after: 'the team whose identifier the source holds',
    verdict: 'review',
    why: 'it finds teams by identifier, so the source must hold team identifiers; a source that holds titles (as most did before the migration) finds no team',
  },
};
