/**
 * Issue 39: what rules hand the judge. A rule reads the catalog and names each place a team value
 * is read or written (a site: what was read, where, where its value goes); src/judge turns every
 * site into a finding, or none, so no verdict is born outside it. The types live here so that rules
 * need nothing of the judge.
 */
import type { FindingDraft, FindingImpact, Verdict } from './finding.js';
import type { JsonObject, JsonValue } from './json.js';

/** A JSON path (`['rules', 0, 'value']`), as rules and file readers locate what they read. */
export type Path = readonly (string | number)[];

/**
 * Where the value goes:
 * - `team-value`: it becomes a team value inside the service (a mapping's `team`, a `$team` rule's value);
 * - `team-comparison`: team values compared with team values (a `$team` rule fed by the user's teams);
 * - `gate`: it decides who may do or see something (a permission, a policy or trigger condition,
 *   an input's `visible`, `required` or `disabled`, a dataset);
 * - `shown`: a value people read (a calculation, an input's default, a mapped property);
 * - `outside`: a receiver outside the service (webhook URL, body or headers, workflow inputs, Kafka).
 */
export type Sink = 'team-value' | 'team-comparison' | 'gate' | 'shown' | 'outside';

/**
 * What an expression runs on, when a sample of it can be built (not for external payloads). A
 * CREATE action's form (`create-input`) and run (`create-run`) have no entity yet: the service
 * gives them an empty one.
 */
export type SampleKind = 'entity' | 'user-input' | 'create-input' | 'policy' | 'action-run' | 'create-run';

export type TeamInputKind = 'team' | '_team' | '_user';

/** A team-typed input of an action's form (src/judge/team-typed.ts). */
export interface TeamInput {
  kind: TeamInputKind;
  /** An array input: several teams (or entities). */
  many: boolean;
}

/** The rows of the judge's table of sites judged without running (src/judge/decision-table.ts `SITE_TABLE`). */
export type SiteCase =
  | 'removed-relation'
  | 'not-run'
  | 'through-team'
  | 'finds-no-team'
  | 'group-holds'
  | 'condition-holds'
  | 'policy-holds'
  | 'group-matches-nobody'
  | 'rule-matches-nobody'
  | 'no-team-holds'
  | 'finds-each-team'
  | 'title-literals'
  | 'unknown-literals'
  | 'team-search-result'
  | 'mapping-elsewhere'
  | 'mirror-after-migration'
  | 'mirror-of-team-values'
  | 'unclaimed-team-relation'
  | 'kept-team-inheritance'
  | 'missing-ownership'
  | 'system-blueprint-shape'
  | 'ambiguous-title'
  | 'access-flips'
  | 'script-team-inheritance'
  | 'state-unknown'
  | 'untyped-workflow-input'
  | 'does-not-compile';

export interface ExpressionOptions {
  /** The expression's result becomes the team meta property (a mapping's `team`). */
  setsTeam?: boolean;
  /**
   * The input is external data (an integration's or webhook's payload), not an entity or the
   * action context, so a `.team` there is the source's own field, not the team meta property.
   */
  externalInput?: boolean;
  /** Where the value goes; by default a team value when `setsTeam`, else a value people read. */
  sink?: Sink;
}

/** One jq expression where it stands: the category, resource and location its finding gets. */
export interface ExpressionSite extends Pick<FindingDraft, 'category' | 'resource' | 'location'> {
  expression: string;
  /** What this expression is, for the reason: "The calculation", "The visibility jqQuery". */
  subject: string;
  removedRelations: ReadonlySet<string>;
  /** Properties of the blueprint whose values are team values (mirror properties through `$team`). */
  teamProperties?: ReadonlySet<string>;
  /**
   * Where the result goes when it carries teams (`setsTeam`), for the reason; by default the team
   * meta property. A webhook body's `team` key only passes the teams on to its receiver.
   */
  teamDestination?: string;
  /** Where the value goes; by default from the category and location. */
  sink?: Sink;
  /** The action's team-typed inputs: `.form.<name>` / `.inputs.<name>` read team values. */
  teamInputs?: ReadonlyMap<string, TeamInput>;
  /** What it runs on, where the category alone does not say (a CREATE action's run). */
  sample?: SampleKind;
  /** The blueprint of the entity it runs on, when known: its calculations are what that entity holds. */
  blueprint?: string;
}

/** One search rule (`{property, operator, value}`) where it stands. */
export interface SearchRuleSite extends Pick<FindingDraft, 'category' | 'resource'> {
  path: Path;
  rule: Record<string, JsonValue | undefined>;
  /** "The policy rule", "The widget filter". */
  subject: string;
  removedRelations: ReadonlySet<string>;
  /** Properties that copy `$team` (mirror properties): a rule on one compares team values too. */
  teamProperties?: ReadonlySet<string>;
  /** The blueprint whose entities the rule filters, when known: its entities are what it is matched against. */
  blueprint?: string;
  /**
   * What a `{jqQuery}` or `{{ }}` value runs on (the dataset of an input: the form's user; a
   * policy query: the policy's user and run). Absent where no such value can be run.
   */
  sample?: SampleKind;
  /** For a policy's query rules: the policy's query ids. */
  queryIds?: readonly string[];
  /** The rule searches `_team` entities (a mapping's team search, a `_team` input's dataset): `$title` and `$identifier` are the team's. */
  searchesTeams?: boolean;
  /** `payload`: a string value is jq over a payload the source sends (integration and webhook mappings). */
  valueSource?: 'payload';
}

/** One query of a policy: its id, its rules, where it is, and the blueprint it searches when a `$blueprint` rule names it. */
export interface PolicyQuery {
  id: string;
  query: JsonValue | undefined;
  path: Path;
  blueprint?: string;
}

/** Literal team names written where a team value goes. */
export interface LiteralTeamSite extends Pick<FindingDraft, 'category' | 'resource' | 'location'> {
  /** "The mapping", "The default of input \"owner\"". */
  subject: string;
  /** What the value becomes: "the team meta property", `input "owner"`. */
  sets: string;
}

/** An integration's or webhook's entity mapping. */
export interface EntityMappingSite extends Pick<FindingDraft, 'category' | 'resource'> {
  /** Path of the `entity` / `mappings` object holding identifier, title, team, relations, ... */
  path: Path;
  mapping: JsonObject;
}

/**
 * The judge as a rule sees it, for one catalog (src/judge/site-judge.ts builds it): a rule hands
 * it each site it finds, and it answers with the finding, or none. Rules import nothing of
 * src/judge; what they read of a finding (its verdict) is the judge's answer.
 */
export interface SiteJudge {
  expression(site: ExpressionSite, options?: ExpressionOptions): FindingDraft | undefined;
  searchRule(site: SearchRuleSite): FindingDraft | undefined;
  /** Every rule of a search query (or a list of rules), nested groups included, each group judged whole. */
  searchQuery(site: Omit<SearchRuleSite, 'path' | 'rule'>, query: JsonValue | undefined, path: Path): FindingDraft[];
  /** Findings of a condition's expressions judged one by one, with the condition judged whole with its combinator. */
  wholeCondition(site: Omit<ExpressionSite, 'expression'>, combinator: unknown, parts: readonly { location: string; expression: string }[], findings: readonly FindingDraft[]): FindingDraft[];
  /** Findings of a policy's query rules, with the policy judged whole: its queries run over the org's entities, its conditions over what they find. */
  wholePolicy(subject: string, queries: readonly PolicyQuery[], conditions: readonly string[], findings: readonly FindingDraft[]): FindingDraft[];
  /** Findings of a query's rules judged one by one, with every `$team` group among them judged whole. */
  wholeGroups(site: Pick<SearchRuleSite, 'subject' | 'blueprint'>, query: JsonValue | undefined, path: Path, findings: readonly FindingDraft[]): FindingDraft[];
  literalTeam(site: LiteralTeamSite, value: string | string[], names: readonly string[]): FindingDraft | undefined;
  /** The team names of a literal team value, or undefined when any part is jq. */
  literalTeamValues(value: JsonValue | undefined): string[] | undefined;
  entityMapping(site: EntityMappingSite): FindingDraft[];
  /** The rule compares team values (the service matches it, a jq value with it). */
  comparesTeams(site: Pick<SearchRuleSite, 'rule' | 'teamProperties' | 'searchesTeams'>): boolean;
  /** What the migration does to a blueprint's own entities through a calculation. */
  entityImpact(blueprint: string, expression: string, removedRelations: ReadonlySet<string>): FindingImpact['entities'] | undefined;
  /** The verdict of a site judged without running. */
  verdict(site: SiteCase): Verdict;
  /** The item whose verdict is gravest. */
  gravest<T>(items: readonly [T, ...T[]], verdictOf: (item: T) => Verdict | undefined): T;
  teamInputsOf(properties: JsonValue | undefined): ReadonlyMap<string, TeamInput>;
  /** A blueprint's properties that hold team values: mirrors of `$team`, calculations that pass them on. */
  teamProperties(blueprint: string | undefined): ReadonlySet<string>;
}
