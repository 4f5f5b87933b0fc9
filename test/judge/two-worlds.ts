/**
 * The tests' own before and after worlds (issue 21): every expected class in test/judge is
 * computed here by running jq on inputs built in this file, never typed by hand, and never by the
 * code under test. The expected verdict then follows the fixed points of docs/formats.md, the report.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JqEngine } from '../../src/jq/engine.js';
import type { AccessChange } from '../../src/model/access.js';
import type { Finding, Report, Verdict } from '../../src/model/finding.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

/**
 * The org's teams: a slug identifier, a short one, one that is not its title's slug, and two whose
 * title order and identifier order differ.
 */
export const TEAMS = [
  { name: 'Data Science', identifier: 'data_science' },
  { name: 'QA', identifier: 'qa' },
  { name: 'Platform (EU)', identifier: 'platform' },
  { name: 'Alpha', identifier: 'z_alpha' },
  { name: 'Beta', identifier: 'a_beta' },
];
const byTitle = new Map(TEAMS.map((t) => [t.name, t.identifier]));

/** Users of the org: members of one team, of two, of none. */
export const USERS = [
  { email: 'ana@example.com', teams: [{ name: 'Data Science' }] },
  { email: 'bo@example.com', teams: [{ name: 'QA' }] },
  { email: 'cy@example.com', teams: [{ name: 'Platform (EU)' }, { name: 'Alpha' }] },
  { email: 'di@example.com', teams: [] },
  { email: 'ed@example.com', teams: [{ name: 'Beta' }, { name: 'Alpha' }] },
];

export type Kind = 'entity' | 'user-input' | 'policy' | 'action-run';
export type World = 'before' | 'after';
export type ExpectedClass = 'same' | 'substituted' | 'changed';

/**
 * Team sets tried: each team, none, and the combinations the org's people hold (issue 29: `$team`
 * is a set, and teams are tried together only as somebody holds them; ed holds the crossed pair).
 */
export const TEAM_SETS: string[][] = [...TEAMS.map((t) => [t.name]), [], ...USERS.map((u) => u.teams.map((t) => t.name)).filter((set) => set.length > 1)];

const values = (titles: readonly string[], world: World) => titles.map((t) => (world === 'before' ? t : byTitle.get(t)!));

function user(titles: readonly string[], world: World, email = 'someone@example.com'): JsonObject {
  // As the service's docs show the user: teams are {name, provider} objects whose names are titles in both worlds.
  return { email, team: values(titles, world), teams: titles.map((name) => ({ name, provider: 'port' })), teamsIdentifiers: values(titles, world) };
}

function entity(titles: readonly string[], world: World): JsonObject {
  return { identifier: 'e1', title: 'e1', team: values(titles, world), properties: {}, relations: {} };
}

/** What the service evaluates one site's jq on, with these teams everywhere. */
export function inputOf(kind: Kind, titles: readonly string[], world: World): JsonValue {
  switch (kind) {
    case 'entity':
      return entity(titles, world);
    case 'user-input':
      return { user: user(titles, world), entity: entity(titles, world), form: {} };
    case 'policy':
      return { user: user(titles, world), results: {} };
    case 'action-run': {
      const e = entity(titles, world);
      // A run's trigger says who ran it as the service's docs show it: ids, email and names, no teams.
      return { diff: { before: e, after: e }, event: { diff: { before: e, after: e } }, entity: e, inputs: {}, trigger: { by: { userId: 'u1', user: { email: 'someone@example.com', firstName: 'Some', lastName: 'One', id: 'u1' } } } };
    }
  }
}

function run(jq: JqEngine, input: JsonValue, expression: string): string {
  const result = jq.evaluate(input, expression);
  return result.ok ? JSON.stringify(result.values) : `error: ${result.error}`;
}

/** Every title replaced by its identifier, inside strings too. */
function substituted(text: string): string {
  let out = text;
  for (const [title, identifier] of [...byTitle].sort((a, b) => b[0].length - a[0].length)) out = out.split(title).join(identifier);
  return out;
}

/**
 * The class, by running `expression` with titles and with identifiers on every team set. A team
 * value (`teamValue`) must follow the teams: the same text with titles in it has changed.
 */
export function expectedClass(jq: JqEngine, kind: Kind, expression: string, teamValue = false, sets: readonly string[][] = TEAM_SETS): ExpectedClass {
  let sawSubstitution = false;
  const identifiers = new Set(TEAMS.filter((t) => t.identifier !== t.name).map((t) => t.identifier));
  for (const set of sets) {
    // A team value is a set of teams: lists of strings compared sorted.
    const asSet = (text: string) => (teamValue && !text.startsWith('error') ? JSON.stringify(asTeamSet(JSON.parse(text))) : text);
    const before = asSet(run(jq, inputOf(kind, set, 'before'), expression));
    const after = asSet(run(jq, inputOf(kind, set, 'after'), expression));
    // A team value holding an identifier before the migration names a team that does not exist yet.
    const early = teamValue && [...identifiers].some((id) => before.includes(JSON.stringify(id)));
    if (!early && before === after && (!teamValue || substituted(before) === after)) continue;
    if (!early && asSet(substituted(before)) === after) sawSubstitution = true;
    else return 'changed';
  }
  return sawSubstitution ? 'substituted' : 'same';
}

/** Each output value that is a list of strings, sorted and each once. */
function asTeamSet(values: unknown): unknown {
  if (!Array.isArray(values)) return values;
  return values.map((value) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...new Set(value)].sort() : value));
}

export type ExpectedSink = 'team-value' | 'team-comparison' | 'gate' | 'shown' | 'outside';

/**
 * A gate's verdict: the contract's for its class, except a gate nobody passes in either world
 * (run on every user here), which is a dead gate: broken already, for review (issue 29).
 */
export function expectedGateVerdict(jq: JqEngine, kind: 'policy' | 'user-input', condition: string, klass: ExpectedClass): Verdict {
  if (klass === 'same' && passing(jq, kind, condition, 'before').length === 0 && passing(jq, kind, condition, 'after').length === 0) return 'review';
  return expectedVerdict(klass, 'gate');
}

/** docs/formats.md, the report's fixed points, in an org that has not migrated. */
export function expectedVerdict(klass: ExpectedClass, sink: ExpectedSink): Verdict {
  if (klass === 'same') return 'unaffected';
  if (klass === 'changed') return 'breaks';
  return sink === 'team-value' || sink === 'team-comparison' ? 'unaffected' : sink === 'gate' ? 'breaks' : 'review';
}

/** The service's matching of a `$team` rule, written in jq for the tests: `.teams` an entity's teams, `.values` the rule's. */
const RULE_MATCH: Record<string, string> = {
  '=': '.values as $v | .teams as $t | ($v | length > 0) and all($v[]; . as $x | $t | index([$x]) != null)',
  '!=': '.values as $v | .teams as $t | any($v[]; . as $x | $t | index([$x]) != null) | not',
  in: '.values as $v | any(.teams[]; . as $x | $v | index([$x]) != null)',
  notIn: '.values as $v | any(.teams[]; . as $x | $v | index([$x]) != null) | not',
  containsAny: '.values as $v | any(.teams[]; . as $x | $v | index([$x]) != null)',
  contains: '.teams as $t | any(.values[]; . as $x | any($t[]; contains($x)))',
  beginsWith: '.teams as $t | any(.values[]; . as $x | any($t[]; startswith($x)))',
  isEmpty: '.teams | length == 0',
};

/** Whether a `$team` rule matches an entity holding `teams`, by the jq above. */
function matchRule(jq: JqEngine, operator: string, teams: readonly string[], ruleValues: readonly string[]): boolean {
  const result = jq.evaluate({ teams: [...teams], values: [...ruleValues] }, RULE_MATCH[operator]!);
  return result.ok && result.values[0] === true;
}

/** The class of a `$team` rule, by matching it in jq on an entity of every team set, before and after. */
export function expectedRuleClass(jq: JqEngine, operator: string, ruleValues: readonly string[]): ExpectedClass {
  const program = RULE_MATCH[operator]!;
  for (const set of TEAM_SETS) {
    const before = run(jq, { teams: values(set, 'before'), values: [...ruleValues] }, program);
    const after = run(jq, { teams: values(set, 'after'), values: [...ruleValues] }, program);
    if (before !== after) return 'changed';
  }
  return 'same';
}
expectedRuleClass.match = matchRule;

/** Who holds a gate before and after, by running the condition on each user in both worlds. */
export function expectedAccess(jq: JqEngine, kind: 'policy' | 'user-input', condition: string): { loses: string[]; gains: string[] } {
  const holds = (titles: readonly string[], email: string, world: World) => {
    const u = user(titles, world, email);
    const input = kind === 'policy' ? { user: u, results: {} } : { user: u, entity: entity([], world), form: {} };
    const result = jq.evaluate(input, `first((${condition}) | (. != false and . != null)) // false`);
    return result.ok && result.values[0] === true;
  };
  const loses: string[] = [];
  const gains: string[] = [];
  for (const u of USERS) {
    const titles = u.teams.map((t) => t.name);
    const before = holds(titles, u.email, 'before');
    const after = holds(titles, u.email, 'after');
    if (before && !after) loses.push(u.email);
    if (!before && after) gains.push(u.email);
  }
  return { loses, gains };
}

export function org(parts: Partial<OrgSnapshot>, teams: readonly JsonObject[] = TEAMS): OrgSnapshot {
  return { format: 'org-snapshot/1', organization: { id: 'org_judge', name: 'Judge org' }, blueprints: [], teams: [...teams], users: USERS, ...parts } as OrgSnapshot;
}

/** The organization of an org whose feature flags say the migration ran. */
export const MIGRATED_ORGANIZATION = { id: 'org_judge', name: 'Judge org', featureFlags: ['USERS_AND_TEAMS_OWNERSHIP_V2'] };

/** The part of an org snapshot that says whether it has migrated. */
export const migrationPart = (migrated: boolean): Partial<OrgSnapshot> => (migrated ? { organization: MIGRATED_ORGANIZATION } : {});

/** One service per team, each owned by that team (by title: the org before the migration). */
export const SERVICES_PER_TEAM = TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [team.name] }));

/**
 * The service blueprint related to `_team` over `relation` (identifiers in both worlds), with these
 * mirrors (`name: path`, such as `owner.$title`) and any other parts of a blueprint.
 */
export function serviceRelatedToTeam(relation: string, mirrors: Record<string, string>, parts: JsonObject = {}): JsonObject {
  const mirrorProperties = Object.fromEntries(Object.entries(mirrors).map(([name, path]) => [name, { title: name, path }]));
  return { identifier: 'service', title: 'Service', schema: { properties: {} }, relations: { [relation]: { title: relation, target: '_team', many: false, required: false } }, mirrorProperties, ...parts };
}

/**
 * An org of these teams whose service blueprint has one calculation property (`flag`, a boolean,
 * unless named), one service per team (the first `services` of them) holding its team by `held`
 * (its identifier unless told); the migration's flag set unless `migrated` is false; no people
 * with `noUsers`.
 */
export function teamsWithCalculation(
  teams: readonly { name: string; identifier: string }[],
  calculation: string,
  options: { name?: string; type?: string; migrated?: boolean; services?: number; held?: 'name' | 'identifier'; noUsers?: boolean } = {},
): OrgSnapshot {
  const { name = 'flag', type = 'boolean', held = 'identifier' } = options;
  const property = { title: name[0]!.toUpperCase() + name.slice(1), type, calculation };
  return org(
    {
      ...(options.migrated !== false && { organization: MIGRATED_ORGANIZATION }),
      ...(options.noUsers && { users: [] }),
      blueprints: [{ identifier: 'service', title: 'Service', ownership: { type: 'Direct' }, schema: { properties: {} }, relations: {}, calculationProperties: { [name]: property } }],
      entities: { service: teams.slice(0, options.services ?? teams.length).map((team, i) => ({ identifier: `svc-${i}`, team: [team[held]] })) },
    },
    teams,
  );
}

/** An org of services, one per team, whose blueprint holds these calculation properties (`name: [calculation, type]`). */
export function servicesWithCalculations(calculations: Record<string, readonly [string, string]>, parts: Partial<OrgSnapshot> = {}): OrgSnapshot {
  const calculationProperties = Object.fromEntries(Object.entries(calculations).map(([name, [calculation, type]]) => [name, { title: name, calculation, type }]));
  return org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties }], entities: { service: SERVICES_PER_TEAM }, ...parts });
}

/** A relation of the services to `_team`: each service relates to its own team or to the next one. */
export interface TeamRelation {
  name: string;
  title: string;
  many: boolean;
  relatesTo: 'own' | 'next';
}

/**
 * Services each owned by one team (by title before the migration, by identifier after) and related
 * to `_team` over `relation` (identifiers, in both worlds), with these mirror properties
 * (`name: [title, path]`) and optionally one boolean calculation (`[name, title, calculation]`).
 * `migrated` also gives the org the migration's flag and the blueprint its ownership; `parts` add to the org.
 */
export function teamRelatedServices(spec: {
  relation: TeamRelation;
  mirrors: Record<string, readonly [string, string]>;
  calculation?: readonly [string, string, string];
  migrated: boolean;
  teams?: readonly JsonObject[];
  parts?: Partial<OrgSnapshot>;
}): OrgSnapshot {
  const { relation, migrated } = spec;
  const related = (i: number) => TEAMS[(relation.relatesTo === 'own' ? i : i + 1) % TEAMS.length]!.identifier;
  const mirrorProperties = Object.fromEntries(Object.entries(spec.mirrors).map(([name, [title, path]]) => [name, { title, path }]));
  const calculation = spec.calculation && { [spec.calculation[0]]: { title: spec.calculation[1], type: 'boolean', calculation: spec.calculation[2] } };
  return org(
    {
      ...(migrated && { organization: MIGRATED_ORGANIZATION }),
      blueprints: [
        {
          identifier: 'service',
          title: 'Service',
          ...(migrated && { ownership: { type: 'Direct' } }),
          schema: { properties: {} },
          relations: { [relation.name]: { title: relation.title, target: '_team', many: relation.many, required: false } },
          mirrorProperties,
          ...(calculation && { calculationProperties: calculation }),
        },
      ],
      entities: { service: TEAMS.map((team, i) => ({ identifier: `svc-${i}`, team: [migrated ? team.identifier : team.name], relations: { [relation.name]: relation.many ? [related(i)] : related(i) } })) },
      ...spec.parts,
    },
    spec.teams,
  );
}

/** An org whose action offers services through an entity input filtered by one dataset rule. */
export function datasetOrg(rule: JsonObject): OrgSnapshot {
  return org({
    blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} }],
    entities: { service: SERVICES_PER_TEAM },
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { target: { type: 'string', format: 'entity', blueprint: 'service', dataset: { combinator: 'and', rules: [rule] } } } } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
      },
    ],
  });
}

/** Analyse the org as the CLI does and return the finding or verified entry at `location`. */
export function judged(jq: JqEngine, snapshot: OrgSnapshot, location: string): { report: Report; finding: Finding } {
  const report = analyze(buildCatalog(snapshot, { jq }));
  const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === location);
  expect(finding, `a finding or verified entry at ${location}`).toBeDefined();
  return { report, finding: finding! };
}

/** The access entry of one gate, or an empty one when nobody loses or gains. */
export function accessAt(report: Report, predicate: (change: AccessChange) => boolean): { loses: string[]; gains: string[] } {
  const change = (report.access ?? []).find(predicate);
  return { loses: change?.loses ?? [], gains: change?.gains ?? [] };
}

/** Rows a table-driven file runs: an expression or rule, and what the test expects of it besides the verdict. */
export interface Row {
  name: string;
  expression: string;
  /** An expected class the row exists to show (checked against the computed one, so a wrong row fails). */
  shows?: ExpectedClass;
}

/** What a rule value run in jq stands for: its strings, a list's strings; anything else equals no team. */
function ruleStrings(jq: JqEngine, input: JsonValue, expression: string): string[] {
  const result = jq.evaluate(input, expression);
  if (!result.ok) return ['<an error>'];
  return result.values.flatMap((value): string[] => (typeof value === 'string' ? [value] : value === null ? [] : Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '<not a string>')) : ['<not a string>']));
}

/**
 * The class of a `$team` rule whose value is computed, as the service matches it: for every user
 * (a team set), the value read in each world (`valueIn`), matched in jq against an entity of every
 * team set with `$team` as that world holds it. Which entities match, before and after, decides.
 */
export function expectedComputedRuleClass(jq: JqEngine, operator: string, valueIn: (userTeams: readonly string[], world: World) => string[]): ExpectedClass {
  for (const userTeams of TEAM_SETS) {
    const before = valueIn(userTeams, 'before');
    const after = valueIn(userTeams, 'after');
    for (const entityTeams of TEAM_SETS) {
      if (matchRule(jq, operator, values(entityTeams, 'before'), before) !== matchRule(jq, operator, values(entityTeams, 'after'), after)) return 'changed';
    }
  }
  return 'same';
}

/** A jq rule value (`{jqQuery}` or a `{{ }}` template) as the site runs it, for `expectedComputedRuleClass`. */
export const jqRuleValue = (jq: JqEngine, kind: Kind, expression: string) => (userTeams: readonly string[], world: World) => ruleStrings(jq, inputOf(kind, userTeams, world), expression);

/** Team values of these titles in one world. */
export const teamValuesIn = values;

/** Who passes a gate in one world, by running it on each user (the first output neither false nor null). */
export function passing(jq: JqEngine, kind: 'policy' | 'user-input', condition: string, world: World): string[] {
  return USERS.filter((u) => {
    const titles = u.teams.map((t) => t.name);
    const input = kind === 'policy' ? { user: user(titles, world, u.email), results: {} } : { user: user(titles, world, u.email), entity: entity([], world), form: {} };
    const result = jq.evaluate(input, `first((${condition}) | (. != false and . != null)) // false`);
    return result.ok && result.values[0] === true;
  }).map((u) => u.email);
}

/** One row judged: its class computed in both worlds, and what the judge made of it. */
export interface JudgedRow<R extends Row> {
  row: R;
  klass: ExpectedClass;
  finding: Finding;
  report: Report;
}

/**
 * Issue 39: the one tester of the tables computed in both worlds. Per row, the class comes from
 * running its expression with titles and with identifiers on every team set (`expectedClass`),
 * never typed by hand; a row that says what it shows must show it; the judge's finding at
 * `location`, in the org `snapshot` builds, must carry the verdict `verdict` gives for that class;
 * `check` adds what a table asks beyond the verdict (an access entry, a reason).
 */
export function judgeTable<R extends Row>(
  title: string,
  spec: {
    jq: JqEngine;
    kind: Kind | ((row: R) => Kind);
    rows: readonly R[];
    /** The expression's value is a team value: a set of teams, which must follow the teams. */
    teamValue?: boolean;
    /** The team sets the class is computed on: TEAM_SETS unless the org's people hold others. */
    sets?: readonly string[][];
    snapshot: (row: R) => OrgSnapshot;
    location: string | ((row: R) => string);
    verdict: (klass: ExpectedClass, row: R) => Verdict;
    check?: (judged: JudgedRow<R>) => void;
    name?: (row: R) => string;
  },
): void {
  describe(title, () => {
    for (const row of spec.rows) {
      it(spec.name ? spec.name(row) : row.name, () => {
        const kind = typeof spec.kind === 'function' ? spec.kind(row) : spec.kind;
        const klass = expectedClass(spec.jq, kind, row.expression, spec.teamValue ?? false, spec.sets);
        if (row.shows) expect(klass, 'the row shows what it says').toBe(row.shows);
        const { finding, report } = judged(spec.jq, spec.snapshot(row), typeof spec.location === 'function' ? spec.location(row) : spec.location);
        expect(finding.verdict).toBe(spec.verdict(klass, row));
        spec.check?.({ row, klass, finding, report });
      });
    }
  });
}
