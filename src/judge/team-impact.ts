import { classifyTeamValue, slugOf, type TeamDirectory } from '../catalog/teams.js';
import { classifyExpression, classifyPair, contextsOf, fillDerived, type ContextSpec, type ReferenceClass } from './classify.js';
import { unfilledReads } from './unfilled.js';
import { deadGate } from './dead-gate.js';
import { readsBeyondFixedPaths } from './team-reach.js';
import type { Person } from '../catalog/people.js';
import type { DeadGate, Verdict } from '../model/finding.js';
import { plural } from '../plural.js';
import { decide, judgeSite, SITE_TABLE, stateOf, type DecisionInput, type LiteralEvidence, type Sink } from './decision-table.js';
import { identifiersThatWereTitles, valuesNoTeamHolds, whatEachMeant } from './no-team-holds.js';
import { contextFor, literalStandIn, policyQueryIds, sampleTeams, teamCases, teamsToRun, type JudgeTeam, type SampleKind, type World } from './worlds.js';
import type { JsonValue } from '../model/json.js';
import { unique } from '../model/arrays.js';
import { describeResult, probeRelationDependence, probeTeamDependence, type DependenceOutcome, type DifferentialOptions } from './differential.js';
import type { EvaluationFailure, JqEngine } from '../jq/engine.js';
import { extractReferences, propertyPaths, relationPaths, teamMetaPaths, valueStrings, type FieldPath, type JqReferences, type StringLiteral } from '../jq/references.js';
import type { ExpressionOptions, TeamInput } from '../model/sites.js';
import { constantStrings } from './constant-strings.js';
import { entityChanged, entityHoldingText, holdsTeam } from './team-entity-text.js';
import type { EntityRecord } from '../model/snapshot.js';

export interface ImpactContext {
  teams: TeamDirectory;
  /** Relations the migration removes, for the blueprint this expression runs against. */
  removedRelations: ReadonlySet<string>;
  /** Relations to `_team` the migration keeps: they hold team identifiers in both worlds. */
  teamRelations?: ReadonlySet<string>;
  /** Mirror properties of `_team` identifiers (team-valued.ts `teamIdentifierMirrors`): identifiers in both worlds. */
  identifierProperties?: ReadonlySet<string>;
  /** Mirror properties of `_team` titles (`owning_team.$title`): the team's title in both worlds. */
  titleProperties?: ReadonlySet<string>;
  /** Calculations derived from team values (team-valued.ts `derivedTeamProperties`), by name: read, they are run in each world. */
  derivedProperties?: ReadonlyMap<string, string>;
  /** jq itself, when loaded: it validates every expression and runs it on samples. */
  jq?: JqEngine;
  /** What the expression runs on, when a sample of it can be built (not for external payloads). */
  sample?: SampleKind;
  /**
   * The org has already migrated (`catalog.migrated`): its team values are identifiers now, so a
   * result that differs between titles and identifiers is what the expression already gives.
   */
  migrated?: boolean;
  /** Nothing tells whether the org has migrated (repository files alone): why, in words. */
  stateUnknown?: string;
  /**
   * Entity properties whose values are team values (a mirror property through `$team`): reading
   * `.properties.<name>` reads team values, and the samples hold teams there.
   */
  teamProperties?: ReadonlySet<string>;
  /**
   * The action's team-typed inputs (src/judge/team-typed.ts): reading `.form.<name>` in a form's
   * jq reads team values, and the contexts hold teams there.
   */
  teamInputs?: ReadonlyMap<string, TeamInput>;
  /**
   * Where a gate is checked for being dead (src/judge/dead-gate.ts): the org's people, and
   * whether admins pass it whatever it says. Absent: not checked.
   */
  deadGate?: { people: readonly Person[]; adminsPass: boolean };
  /** The org's entities of the site's blueprint, as they hold their teams today. */
  entities?: readonly EntityRecord[];
}

const NO_INPUTS: ReadonlyMap<string, TeamInput> = new Map();

const NO_PROPERTIES: ReadonlySet<string> = new Set();
const NO_DERIVED: ReadonlyMap<string, string> = new Map();

export interface TitleLiteral {
  title: string;
  identifier?: string;
  /**
   * Set when neither the org nor the teams map knows the title, so `identifier` is a stated guess
   * (`guessedIdentifier`): a rewrite through it is a suggestion, never proven.
   */
  guessed?: true;
}

/** The shape of an identifier (the service's API reference): anything else a team value holds can only be a title. */
const IDENTIFIER_SHAPE = /^(?!\.{1,2}$)[\p{L}0-9@_.+:\\/=-]+$/u;

/**
 * The identifier guessed for a title no source names: lower-cased, every other run of characters
 * as `_`. No public source documents how the migration derives identifiers from titles, so this
 * stays a guess (`SRE On-Call` may well become `sre_oncall`, not `sre_on_call`).
 */
export const guessedIdentifier = slugOf;

/** What the migration does to one jq expression, when it touches teams at all. */
export interface ExpressionImpact {
  verdict: Verdict;
  /** The team reads found, as written (`.user.team`, `.relations.owning_team`). */
  teamReads: string[];
  /** Reads of properties that hold team values (`.properties.owning_team`), as written. */
  teamPropertyReads?: string[];
  /** Reads of relations to `_team` the migration keeps (`.relations.owners`): team identifiers in both worlds. */
  teamRelationReads?: string[];
  /** Reads of mirror properties of `_team` identifiers. */
  identifierMirrorReads?: string[];
  /** Reads of calculations derived from team values. */
  derivedReads?: string[];
  /**
   * Set when the tokens show no team read but running the expression on samples shows its
   * result depends on team values: how that showed, as a clause for the reason.
   */
  foundByRunning?: string;
  removedRelations: string[];
  /**
   * Removed relations the tokens show no read of but running the expression on samples shows it
   * reads (`getpath(["relations", "owning_team"])`): which, and how that showed, as a clause.
   * No rewrite is then certain, so none is offered.
   */
  relationsFoundByRunning?: { relations: string[]; how: string };
  titles: TitleLiteral[];
  /** The expression with titles replaced by identifiers and removed relations by `.team`. */
  rewrite?: string;
  /**
   * The rewrite jq does not compile (the expression itself is invalid, or the edit broke it):
   * never offered to copy. `edits` says by hand what the rewrite would have changed.
   */
  rejectedRewrite?: { rewrite: string; error: string; edits: string[] };
  /** Whether `rewrite` is known to compile: jq compiled it, or it only swaps string literals in an expression jq compiled. */
  rewriteChecked?: boolean;
  /** Set when our lexer could not read the expression; the verdict is then a cautious `review`. */
  lexError?: string;
  /** jq's own message when jq does not compile the expression: nothing else is then set (a note, decision-table.ts `does-not-compile`). */
  jqError?: string;
  /** Set when jq ran the expression on samples: what it found, as a clause for the reason. */
  evaluation?: string;
  /** What running it before and after the migration showed (absent when it was not run). */
  class?: ReferenceClass;
  /** What to do, where the decision table's row says it (written for identifiers: apply with the migration). */
  advice?: string;
  /** Said after the whole reason, where the decision table's row says it (the state is unknown). */
  postscript?: string;
  /** A gate that has never let anyone through (src/judge/dead-gate.ts). */
  deadGate?: DeadGate;
  /** Whether `rewrite` gives after the migration what the expression gives before it (docs/formats.md, the report). */
  rewriteProof?: RewriteProof;
  /**
   * Set when jq gave no answer for the expression (it ran past the time limit or crashed): the
   * verdict is then `review` unless reading it already showed it breaks.
   */
  jqFailure?: { failure: EvaluationFailure; error: string };
}

/** How the expression's value is used (src/model/sites.ts). */
export type AssessOptions = ExpressionOptions;

const SAMPLE_LABEL: Record<SampleKind, string> = {
  entity: 'entities',
  'user-input': 'user-input contexts',
  'create-input': 'user-input contexts',
  policy: 'policy query results',
  'action-run': 'action and automation runs',
  'create-run': 'runs of an action that creates an entity',
};

/** How many unknown literals we try as possible team titles; more only costs time. */
const MAX_PROBED_LITERALS = 3;

/**
 * Decide whether a jq expression is affected by the migration, and how. Returns undefined when
 * it neither reads team values nor removed relations nor sets the team: such expressions are not
 * findings, even when jq rejects them (an invalid expression that never touches teams is not this
 * audit's business). Title literals only count when the expression deals with teams, so a
 * property that happens to equal a team's name is not flagged.
 */
export function assessTeamExpression(expression: string, context: ImpactContext, options: AssessOptions = {}): ExpressionImpact | undefined {
  if (!options.setsTeam && options.externalInput) return undefined;
  const teamProperties = context.teamProperties ?? NO_PROPERTIES;
  const teamInputs = context.teamInputs ?? NO_INPUTS;
  // Only running tells what a kept relation's identifiers meet: without jq they are no change by themselves.
  // A relation the site says the migration removes is that, whatever other blueprints keep.
  const teamRelations = context.jq && context.teamRelations ? new Set([...context.teamRelations].filter((name) => !context.removedRelations.has(name))) : NO_PROPERTIES;
  const identifierProperties = (context.jq && context.identifierProperties) || NO_PROPERTIES;
  const titleProperties = (context.jq && context.titleProperties) || NO_PROPERTIES;
  const derived = (context.jq && context.derivedProperties) || NO_DERIVED;
  const derivedNames = new Set(derived.keys());
  const result = extractReferences(expression);
  // Only what can read a team value is worth compiling or running: one of the team paths it names,
  // or its input read as a whole (team-reach.ts). Never a word of its text.
  const beyondFixedPaths = result.ok && readsBeyondFixedPaths(result.tokens);
  if (!options.setsTeam && result.ok && !readsTeamPaths(result.references, context.removedRelations, teamProperties, teamInputs, teamRelations) && propertyPaths(result.references, identifierProperties).length === 0 && propertyPaths(result.references, derivedNames).length === 0 && !beyondFixedPaths) return undefined;
  const validity = context.jq?.validate(expression);
  const jqFailure = validity && !validity.ok && validity.failure !== undefined ? { failure: validity.failure, error: validity.error } : undefined;
  const jqError = validity && !validity.ok && jqFailure === undefined ? validity.error : undefined;
  // jq rejects it: it fails alike in both worlds, so nothing is left to read or run (the judge's `does-not-compile`).
  if (jqError !== undefined) return { verdict: judgeSite('does-not-compile'), teamReads: [], removedRelations: [], titles: [], jqError };
  // A value that reads nothing and runs to empty (`'""'`, `null`) sets no team: nothing the migration changes (issue 22).
  if (options.setsTeam && result.ok && result.references.paths.length === 0 && context.jq && validity?.ok === true && setsNoTeam(context.jq, expression)) return undefined;
  const queryIds = result.ok && context.sample === 'policy' ? policyQueryIds(result.references.paths) : [];
  const probe = { kind: context.sample!, teams: sampleTeams(context.teams), queryIds, teamProperties: [...teamProperties] };
  const runnable: Runnable | undefined = context.jq && context.sample && validity?.ok === true && !options.externalInput ? { jq: context.jq, kind: context.sample, probe } : undefined;
  if (!result.ok) return unlexedImpact(expression, `${result.error.message} at offset ${result.error.offset}`, context, options, runnable, jqFailure);
  const { references } = result;
  const reads = (paths: readonly { start: number; end: number }[]) => (options.externalInput ? [] : paths.map((path) => expression.slice(path.start, path.end)));
  const teamReads = reads(teamMetaPaths(references));
  const propertyReads = reads(propertyPaths(references, teamProperties).concat(inputPaths(references, teamInputs)));
  const keptRelationReads = reads(relationPaths(references, teamRelations).map((read) => read.path));
  const identifierMirrorReads = reads(propertyPaths(references, identifierProperties));
  // A calculation passing team values on is said to hold them (`propertyReads`); it is run all the same.
  const derivedReads = reads(propertyPaths(references, new Set([...derivedNames].filter((name) => !teamProperties.has(name)))));
  const relationReads = options.externalInput ? [] : relationPaths(references, context.removedRelations);
  const byRunning = relationsShownByRunning(expression, references, beyondFixedPaths ? runnable : undefined, context.removedRelations, relationReads);
  const relationsByRunning = byRunning.relations;
  // The tokens name no team value: whether the expression reads one anyway (`getpath(["team"])`,
  // `. as {team: $t}`) or only a name that looks like one (`$team`) is what running it shows.
  let foundByRunning: string | undefined;
  // jq gave no answer (a loop, a crash): whether it reads teams is unknown, so a person looks.
  let undecided = byRunning.undecided;
  // Only an expression that reads its input beyond fixed paths can reach a team value no path names.
  if (teamReads.length === 0 && propertyReads.length === 0 && relationReads.length === 0 && relationsByRunning.length === 0 && runnable && beyondFixedPaths) {
    const shown = readsTeamsWhenRun(expression, references, runnable.jq, probe);
    if (shown.kind === 'depends') foundByRunning = `found by running it with jq on sample ${SAMPLE_LABEL[runnable.kind]}: ${shown.how}`;
    if (shown.kind === 'failed') undecided = { failure: shown.failure, error: shown.error };
  }
  const readsNoTeamPath = teamReads.length === 0 && propertyReads.length === 0 && keptRelationReads.length === 0 && identifierMirrorReads.length === 0 && derivedReads.length === 0 && relationReads.length === 0 && relationsByRunning.length === 0 && foundByRunning === undefined && undecided === undefined && !options.setsTeam;
  // The probe above runs two sample teams: a team read it cannot show (a key the expression builds,
  // a team value encoded before it meets a literal) may still change the result for one of the
  // org's own teams. An expression that reads its input whole is therefore run in both worlds with
  // the org's teams, and only a result that stays the same there reads no team value.
  // Without jq at all, reading is all there is (and says so): such an expression is left as tokens leave it.
  const readsWhole = readsNoTeamPath && beyondFixedPaths && context.jq !== undefined;
  if (readsNoTeamPath && !readsWhole) return undefined;

  // jq over a source's payload that reads none of it sets the same team values whatever the source
  // sends (`"RGF0YSBTY2llbmNl" | @base64d`): what jq gives is judged as the literals it writes.
  const constants = options.externalInput && options.setsTeam && context.jq && validity?.ok ? constantValues(context.jq, expression, references, result.tokens) : [];
  const literals = readLiterals(expression, references, constants, context, runnable);
  const { titleLiterals, unknownLiterals } = literals;
  const impact: ExpressionImpact = {
    verdict: 'review',
    teamReads: unique(teamReads),
    removedRelations: joinedOnce(relationReads.map((read) => read.relation), relationsByRunning),
    titles: joinedOnce(titleLiterals.map((t) => t.title), literals.computedTitles, (t) => t.title),
  };
  if (propertyReads.length > 0) impact.teamPropertyReads = unique(propertyReads);
  if (keptRelationReads.length > 0) impact.teamRelationReads = unique(keptRelationReads);
  if (identifierMirrorReads.length > 0) impact.identifierMirrorReads = unique(identifierMirrorReads);
  if (derivedReads.length > 0) impact.derivedReads = unique(derivedReads);
  if (relationsByRunning.length > 0 && runnable) {
    impact.relationsFoundByRunning = { relations: relationsByRunning, how: `found by running it with jq on sample ${SAMPLE_LABEL[runnable.kind]}: ${unique(byRunning.how).join('; ')}` };
  }
  const sink: Sink = options.sink ?? (options.setsTeam ? 'team-value' : 'shown');
  // Inputs of the form or run it reads that hold no teams: what the user picks there may be a string it compares with.
  const seedFields = unique(references.paths.flatMap((path) => (path.variable === undefined && (path.segments[0] === 'inputs' || path.segments[0] === 'form') && typeof path.segments[1] === 'string' && !teamInputs.has(path.segments[1]) ? [path.segments[1]] : [])));
  // The classes of teams it is run with come from the strings it compares with, those it computes
  // from its literals alone too (`[68,97,116,97] | implode`): a computed title meets its team (held-out m7).
  const written = references.strings.filter((literal) => !literal.interpolated).map((literal) => literal.value);
  const toRun = teamsToRun(context.teams, expression, unique(unknownLiterals), runnable ? joinedOnce(written, constantStrings(runnable.jq, expression)) : written);
  // Of one shape whatever it holds (unset is undefined, never missing): specs of many shapes had every function reading them compiled again.
  const spec: ContextSpec | undefined = runnable && {
    kind: runnable.kind,
    directory: context.teams,
    teams: withGuesses(toRun.teams, impact.titles),
    unrunClasses: toRun.unrunClasses > 0 ? toRun.unrunClasses : undefined,
    queryIds,
    teamProperties: probe.teamProperties,
    removedRelations: impact.removedRelations,
    teamRelations: teamRelations.size > 0 ? [...teamRelations] : undefined,
    identifierProperties: identifierProperties.size > 0 ? [...identifierProperties] : undefined,
    titleProperties: titleProperties.size > 0 ? [...titleProperties] : undefined,
    derived: derived.size > 0 ? { jq: runnable.jq, properties: [...derived] } : undefined,
    seeds: unique(unknownLiterals),
    seedFields: seedFields.length > 0 ? seedFields : undefined,
    teamInputs: teamInputs.size > 0 ? [...teamInputs] : undefined,
    readBack: undefined,
  };
  const state = { state: stateOf(context), stateUnknown: context.stateUnknown };
  if (runnable && spec) {
    const found = judgeRunningInto(impact, expression, references, runnable, spec, sink, state, context, literals, readsWhole, foundByRunning);
    if (found === false) return undefined;
    foundByRunning = found;
  } else judgeByReading(impact, context, options, literals, readsWhole, state);
  if (foundByRunning !== undefined) impact.foundByRunning = foundByRunning;
  if (undecided !== undefined) impact.jqFailure ??= undecided;
  if (jqFailure !== undefined) {
    impact.jqFailure = jqFailure;
    if (impact.verdict === 'unaffected') impact.verdict = 'review';
  }
  // A read found only by running has no token to edit: a rewrite of the rest would still read it.
  offerRewrite(impact, expression, context, runnable && spec && { ...runnable, spec, sink }, validity?.ok === true, titleLiterals, relationReads.map((r) => r.path), relationsByRunning.length === 0);
  return impact;
}

/**
 * Each value of both lists once (by `key`), in the order first met. Read value by value: an empty
 * list from `map` and a filled one are arrays of different kinds to the JavaScript engine, and
 * joining them as arrays had the judge's hottest function compiled again and again.
 */
function joinedOnce<T>(first: readonly T[], second: readonly T[], key: (value: T) => unknown = (value) => value): T[] {
  const seen = new Map<unknown, T>();
  for (const list of [first, second]) for (const value of list) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}

/** jq and the sample teams an expression is run with, where it can be run. */
type Runnable = { jq: JqEngine; kind: SampleKind; probe: DifferentialOptions & { teams: [JudgeTeam, JudgeTeam]; teamProperties: string[] } };

type Undecided = { failure: EvaluationFailure; error: string };

/**
 * Our lexer cannot read it: running it tells whether it reads team values or a removed relation,
 * never a word of its text. Without jq nothing tells, so a person looks.
 */
function unlexedImpact(expression: string, lexError: string, context: ImpactContext, options: AssessOptions, runnable: Runnable | undefined, jqFailure: Undecided | undefined): ExpressionImpact | undefined {
  // Whether running shows the result depends on team values or on one of the removed relations.
  let shown = runnable && probeTeamDependence(runnable.jq, expression, runnable.probe);
  for (const relation of context.removedRelations) if (runnable && shown?.kind === 'independent') shown = probeRelationDependence(runnable.jq, expression, { ...runnable.probe, relation });
  if (shown?.kind === 'independent' && !options.setsTeam) return undefined;
  const impact: ExpressionImpact = { verdict: 'review', teamReads: [], removedRelations: [], titles: [], lexError };
  if (shown?.kind === 'depends' && runnable) impact.foundByRunning = `found by running it with jq on sample ${SAMPLE_LABEL[runnable.kind]}: ${shown.how}`;
  if (shown?.kind === 'failed') impact.jqFailure = { failure: shown.failure, error: shown.error };
  if (jqFailure !== undefined) impact.jqFailure = jqFailure;
  return impact;
}

/**
 * Removed relations named in the text but in no path the tokens show (`getpath(["relations",
 * "owning_team"])`, `.relations as {owning_team: $t}`): running it with and without each tells.
 * Only an expression that reads its input beyond fixed paths (team-reach.ts) can reach one, so
 * `runnable` is given for those alone.
 */
function relationsShownByRunning(expression: string, references: JqReferences, runnable: Runnable | undefined, removed: ReadonlySet<string>, relationReads: readonly { relation: string }[]): { relations: string[]; how: string[]; undecided: Undecided | undefined } {
  const found = { relations: [] as string[], how: [] as string[], undecided: undefined as Undecided | undefined };
  if (!runnable) return found;
  for (const relation of removed) {
    if (relationReads.some((read) => read.relation === relation)) continue;
    const literals = unique(valueStrings(references).map((literal) => literal.value)).filter((value) => value !== relation).slice(0, MAX_PROBED_LITERALS);
    const shown = probeRelationDependence(runnable.jq, expression, { ...runnable.probe, relation, literals });
    if (shown.kind === 'depends') found.relations.push(relation);
    if (shown.kind === 'depends') found.how.push(shown.how);
    if (shown.kind === 'failed') found.undecided ??= { failure: shown.failure, error: shown.error };
  }
  return found;
}

/** What the expression's string literals, and the strings jq gives for it alone (`constants`), say of teams. */
interface LiteralsRead {
  titleLiterals: { literal: StringLiteral; title: TitleLiteral }[];
  computedTitles: TitleLiteral[];
  /** Literals that are no team's title or identifier: running tells what they are (a key it reads, a value it compares). */
  unknownLiterals: string[];
  comparesIdentifiers: boolean;
  /** Identifiers that are no team's title: they name no team while `$team` holds titles. */
  earlyIdentifiers: string[];
}

function readLiterals(expression: string, references: JqReferences, constants: readonly string[], context: ImpactContext, runnable: Runnable | undefined): LiteralsRead {
  const read: LiteralsRead = { titleLiterals: [], computedTitles: [], unknownLiterals: [], comparesIdentifiers: false, earlyIdentifiers: [] };
  for (const value of constants) {
    const status = classifyTeamValue(context.teams, value);
    if (status.state === 'title') read.computedTitles.push({ title: value, identifier: status.identifier });
    if (status.state === 'title-unknown-identifier') read.computedTitles.push({ title: value });
    if (status.state === 'identifier') read.comparesIdentifiers = true;
    if (status.state === 'identifier' && !context.teams.byTitle.has(value)) read.earlyIdentifiers.push(value);
  }
  for (const literal of valueStrings(references)) {
    const status = classifyTeamValue(context.teams, literal.value);
    if (status.state === 'title') read.titleLiterals.push({ literal, title: { title: literal.value, identifier: status.identifier } });
    if (status.state === 'title-unknown-identifier') read.titleLiterals.push({ literal, title: { title: literal.value } });
    // Without the org's teams, a literal no identifier could be is a title (the same rule as team
    // lists, teams.ts): its identifier is guessed, and the guess says so. Only located here; running decides.
    if (
      status.state === 'unknown' &&
      !context.teams.orgKnowsTeams &&
      !IDENTIFIER_SHAPE.test(literal.value) &&
      guessedIdentifier(literal.value) !== '' &&
      (!runnable || comparedWithTeams(runnable.jq, expression, literal.value, runnable.probe))
    ) {
      read.titleLiterals.push({ literal, title: { title: literal.value, identifier: guessedIdentifier(literal.value), guessed: true } });
    }
    if (status.state === 'identifier') read.comparesIdentifiers = true;
    // An identifier that is no team's title names no team while `$team` holds titles.
    if (status.state === 'identifier' && !context.teams.byTitle.has(literal.value)) read.earlyIdentifiers.push(literal.value);
    // Whether it is a key it reads (`has("team")`) or a value it compares is told by running it, never by its word.
    if (status.state === 'unknown') read.unknownLiterals.push(literal.value);
  }
  return read;
}

/**
 * The verdict by running it on the org's contexts, written into `impact`: how running found its
 * team read, or false where it reads its input whole and running shows no team read at all.
 */
function judgeRunningInto(impact: ExpressionImpact, expression: string, references: JqReferences, runnable: Runnable, spec: ContextSpec, sink: Sink, state: Pick<DecisionInput, 'state' | 'stateUnknown'>, context: ImpactContext, literals: LiteralsRead, readsWhole: boolean, foundByRunning: string | undefined): string | undefined | false {
  const { titleLiterals, unknownLiterals } = literals;
  const judged = judgeByRunning(expression, references, runnable.jq, spec, sink, state, context.teams, sink === 'gate' ? context.deadGate : undefined);
  Object.assign(impact, { verdict: judged.verdict, evaluation: judged.evaluation, class: judged.class });
  if (judged.advice !== undefined) impact.advice = judged.advice;
  if (judged.postscript !== undefined) impact.postscript = judged.postscript;
  if (judged.deadGate) impact.deadGate = judged.deadGate;
  if (judged.jqFailure) impact.jqFailure = judged.jqFailure;
  // A literal that is a team's identifier today is no title to rewrite, though another team held it as its title.
  if (judged.identifierWasTitle) {
    for (let i = titleLiterals.length - 1; i >= 0; i--) if (context.teams.identifiers.has(titleLiterals[i]!.title.title)) titleLiterals.splice(i, 1);
    impact.titles = impact.titles.filter((t) => !context.teams.identifiers.has(t.title));
  }
  const found = (foundByRunning !== undefined || readsWhole) && references.strings.length === 0;
  // Item 7: made-up contexts stand in for the org's entities (a title mirror filled with the entity's own team's title);
  // where the site's own entities show a change they hide, those entities decide.
  const onEntities = (context.migrated && judged.class === 'same' && titleLiterals.length > 0) || (found && judged.class !== 'same') ? entityChanged(runnable.jq, context.teams, context.entities ?? [], ghostContext(spec, undefined), expression) : undefined;
  if (onEntities?.change && judged.class === 'same') overrule(impact, decide({ class: 'changed', sink, ...state, literals: 'plain' }, onEntities.change), 'run by jq on the org\'s own entities, ', 'changed');
  // Naming no string and found only by running (`[.. | numbers] | add`), a change only made-up entities show (a count
  // of their characters a calculation gives) is none of the org's: where its entities holding teams give the same, they decide.
  if (onEntities && !onEntities.change && judged.class !== 'same') overrule(impact, decide({ class: 'same', sink, ...state, literals: 'plain' }), 'run by jq on the org\'s own entities, ', 'same');
  // Issue 39: after the migration a literal compared with team values that no team holds today
  // matches nothing now, whatever it matched before: the table's `no-team-holds`, with the teams meant.
  // A title is no team value today either: data of identifiers (a relation to `_team`, a mirror of its
  // identifiers) gives the same in both worlds, so only this run shows a title it meets matches nothing now.
  // A team known by title only may have it as its identifier: not this case (the identifier-unknown review).
  const titlesToday = judged.verdict === 'breaks' ? [] : titleLiterals.flatMap(({ title: t }) => (t.identifier !== undefined && !t.guessed && !context.teams.identifiers.has(t.title) ? [t.title] : []));
  // A literal the org's own entities meet outside their team values (its mirrors too) today, a tier, is their text, no team.
  const heldBy = (literal: string) => entityHoldingText(runnable.jq, context.entities ?? [], (team) => ghostContext(spec, team), expression, literal, [...(spec.titleProperties ?? []), ...(spec.identifierProperties ?? [])]);
  const ghosts = context.migrated
    ? valuesNoTeamHolds(context.teams, unique(unknownLiterals)).concat(unique(titlesToday)).filter((value) => {
        const team = teamTheLiteralMeets(runnable.jq, expression, references, value, spec);
        return team !== undefined && !someTeamActsAs(runnable.jq, expression, team, context.teams, spec) && heldBy(value) === undefined;
      })
    : [];
  const held = context.migrated && judged.class === 'changed' && titleLiterals.length > 0 ? titleLiterals.map(({ title }) => [title.title, heldBy(title.title)] as const) : [];
  if (ghosts.length === 0 && held.length > 0 && held.every(([, entity]) => entity !== undefined)) overrule(impact, decide({ class: 'changed', sink, ...state, literals: 'entity-text' }), '', undefined, ` (${held.map(([title, entity]) => `${JSON.stringify(title)}, in entity ${JSON.stringify(entity)}`).join('; ')})`);
  // A calculation's input is the entity as stored: a title an entity of that team meets as stored (a mirror of its own
  // team's title, a team value above) breaks only where the migration changes what one of the org's entities gives.
  const metBy = runnable.kind === 'entity' && ghosts.every((g) => titlesToday.includes(g)) ? ghosts.map((g) => entityHoldingText(runnable.jq, (context.entities ?? []).filter(holdsTeam(context.teams, g)), (team) => ghostContext(spec, team), expression, g)) : [];
  const onOwn = metBy.length > 0 && metBy.every((entity) => entity !== undefined) ? (onEntities ?? entityChanged(runnable.jq, context.teams, context.entities ?? [], ghostContext(spec, undefined), expression)) : undefined;
  if (onOwn && !onOwn.change) overrule(impact, decide({ class: 'same', sink, ...state, literals: 'plain' }), "run by jq on the org's own entities (teams as titles, then as identifiers), ", 'same', `: ${ghosts.map((g, k) => `${JSON.stringify(g)} is met as stored in entity ${JSON.stringify(metBy[k])} of that team`).join('; ')}`);
  else if (ghosts.length > 0) {
    const none = ghosts.length > 1 ? 'these are no team of the org today' : titlesToday.includes(ghosts[0]!) ? `${JSON.stringify(ghosts[0])} is a team's title, where the data holds identifiers` : `${JSON.stringify(ghosts[0])} is no team of the org today`;
    overrule(impact, { verdict: judgeSite('no-team-holds'), why: SITE_TABLE['no-team-holds'].why }, '', undefined, `: ${none} (${whatEachMeant(context.teams, ghosts).join('; ')})`);
  }
  if (foundByRunning !== undefined && judged.class !== 'same') return `found by running it with jq on sample ${SAMPLE_LABEL[runnable.kind]}`;
  if (readsWhole) return impact.class === 'same' && judged.jqFailure === undefined && ghosts.length === 0 ? false : `found by running it with jq on sample ${SAMPLE_LABEL[runnable.kind]} holding the org's teams`;
  return foundByRunning;
}

/** A verdict running found after the table's first one (the org's entities, a value no team holds): the first one's advice goes with it. */
function overrule(impact: ExpressionImpact, decision: { verdict: Verdict; why: string }, before: string, klass?: ReferenceClass, after = ''): void {
  Object.assign(impact, { verdict: decision.verdict, evaluation: `${before}${decision.why}${after}`, ...(klass && { class: klass }) });
  delete impact.advice;
  delete impact.postscript;
}

/** The verdict by reading alone, written into `impact`: without jq nothing can be run, and it says so. */
function judgeByReading(impact: ExpressionImpact, context: ImpactContext, options: AssessOptions, literals: LiteralsRead, readsWhole: boolean, state: Pick<DecisionInput, 'state' | 'stateUnknown'>): void {
  impact.verdict = impact.removedRelations.length > 0 || literals.titleLiterals.length > 0 || literals.computedTitles.length > 0 ? 'breaks' : literals.comparesIdentifiers ? 'unaffected' : 'review';
  // Said only where jq is missing: an external payload is never sampled, and says nothing new.
  if (!context.jq) impact.evaluation = 'judged by reading only: jq was not loaded, so it was not run';
  // Read whole, only running tells whether it reads team values at all: where jq gave no answer, cannot tell is a review.
  if (readsWhole) {
    impact.verdict = judgeSite('not-run');
    impact.evaluation = `it reads its input beyond fixed paths, so only running tells whether it reads team values, and ${SITE_TABLE['not-run'].why}`;
  }
  // Issue 29: a team value that yields identifiers (a lookup table over the payload) in an org that
  // has not migrated sets teams that do not exist yet: it is written for identifiers.
  if (impact.verdict === 'unaffected' && options.setsTeam && !context.migrated && literals.earlyIdentifiers.length > 0) {
    const decision = decide({ class: 'changed', sink: 'team-value', ...state, literals: 'written-for-identifiers' });
    impact.verdict = decision.verdict;
    impact.advice = decision.advice!;
    if (decision.postscript !== undefined) impact.postscript = decision.postscript;
    impact.evaluation = `${impact.evaluation ? `${impact.evaluation}; ` : ''}it yields team identifier ${unique(literals.earlyIdentifiers).map((v) => JSON.stringify(v)).join(', ')}: it is written for team identifiers, which the org does not hold yet (its $team values are titles until the migration), so it names no team before the migration and the right team after it`;
  }
}

/**
 * The rewrite, where there is one and a read found only by running (`editable` false) leaves no
 * token to edit: a rewrite of the rest would still read it. Nothing to change is nothing to
 * rewrite: a title kept where titles stay (`[.user.teams[].name]`).
 */
function offerRewrite(impact: ExpressionImpact, expression: string, context: ImpactContext, run: (Runnable & { spec: ContextSpec; sink: Sink }) | undefined, compiled: boolean, titleLiterals: LiteralsRead['titleLiterals'], relationReads: readonly { start: number; end: number }[], editable: boolean): void {
  const rewrite = rewriteExpression(expression, titleLiterals, relationReads);
  // Proven whatever the verdict, so the work planned ahead of the rules (a dry run, where every
  // answer is the same) holds it too; jq rejects a rewrite that does not compile, which proves nothing.
  const proof = rewrite !== expression && run && context.jq?.validate(rewrite).ok ? proveRewrite(run.jq, expression, rewrite, run.spec, run.sink) : undefined;
  if (rewrite === expression || !editable || impact.verdict === 'unaffected') return;
  // A rewrite is offered to be copied as is, so it must compile; where jq can tell, it must say
  // so. One string literal swapped for another in an expression jq compiles stays valid, so
  // only a relation edit or an expression jq rejects costs a trip to jq.
  const provablyValid = compiled && relationReads.length === 0;
  const compiles = provablyValid ? undefined : context.jq?.validate(rewrite);
  if (compiles && !compiles.ok) {
    impact.rejectedRewrite = { rewrite, error: compiles.error, edits: describeEdits(expression, titleLiterals, relationReads) };
    return;
  }
  impact.rewrite = rewrite;
  impact.rewriteChecked = provablyValid || compiles?.ok === true;
  // Without jq nothing is run, so nothing is proven or disproven: the proof stays unsaid. A
  // guessed identifier proves nothing whatever running shows: the guess is what is unsure.
  const guesses = impact.titles.filter((t) => t.guessed);
  if (guesses.length > 0) impact.rewriteProof = { proof: 'suggested', where: guessNote(guesses) };
  else if (proof) impact.rewriteProof = proof;
  else if (run) impact.rewriteProof = { proof: 'suggested', where: 'jq could not run it on the org\'s contexts' };
}

/**
 * The strings jq gives for an expression that reads nothing of its input, more than one string
 * literal (one alone is read as the literal it is); none when it reads its input or gives no string.
 */
function constantValues(jq: JqEngine, expression: string, references: JqReferences, tokens: Parameters<typeof readsBeyondFixedPaths>[0]): string[] {
  if (references.paths.length > 0 || tokens.length < 2 || readsBeyondFixedPaths(tokens)) return [];
  const given = jq.evaluate(null, expression);
  return given.ok && given.values.every((value): value is string => typeof value === 'string') ? given.values : [];
}

/** Two payloads that share nothing, for an expression that reads no field: what it gives on both is what it always gives. */
const EMPTY_PROBES: readonly JsonValue[] = [{}, { team: 'Probe Team', name: 'probe' }];

/** Whether the expression gives only empty values (`""`, `null`, `[]`) whatever its payload: it sets no team. */
function setsNoTeam(jq: JqEngine, expression: string): boolean {
  const results = EMPTY_PROBES.map((input) => jq.evaluate(input, expression));
  const empty = (value: JsonValue): boolean => value === null || value === '' || (Array.isArray(value) && value.every(empty));
  return results.every((r) => r.ok && r.values.length > 0 && r.values.every(empty)) && JSON.stringify(results[0]) === JSON.stringify(results[1]);
}

/**
 * Whether running shows the literal is compared with team values: the result before the migration
 * differs between the literal standing as the team and another team standing there. A string the
 * expression compares with something else (`.properties.motto != "Hello world"`) is no title.
 */
function comparedWithTeams(jq: JqEngine, expression: string, literal: string, where: { kind: SampleKind; queryIds: readonly string[]; teamProperties: readonly string[] }): boolean {
  const run = (team: JudgeTeam) => JSON.stringify(jq.evaluate(contextFor(where.kind, { label: '', teams: () => [team] }, 'before', where.queryIds, where.teamProperties), expression));
  // The other title holds only [a-z0-9_], so the literal (which holds some other character) is never part of it.
  const other = `${guessedIdentifier(literal)}_other`;
  return run({ title: literal, identifier: guessedIdentifier(literal) }) !== run({ title: other, identifier: `${other}_id` });
}

/** Where a literal is tried as a team after the migration: every team-valued place of the site, kept relations to `_team` included. */
type GhostContext = Pick<ContextSpec, 'kind' | 'queryIds' | 'teamProperties' | 'teamRelations' | 'identifierProperties'>;

/** The site's context after the migration with `team` as the one team everywhere teams are (a bare value stands as both its title and identifier). */
const ghostContext = (where: GhostContext, team: string | JudgeTeam | undefined): JsonValue =>
  contextFor(where.kind, { label: '', teams: () => (team === undefined ? [] : [typeof team === 'string' ? { title: team, identifier: team } : team]) }, 'after', where.queryIds, where.teamProperties, [], [], false, where.teamRelations, where.identifierProperties);

/**
 * A team value the literal is measured against, after the migration, or none: standing as the
 * team, it gives another result once the literal is spelled otherwise (`. == "x"`,
 * `startswith("x")`), where a separator (`join(", ")`) gives the same. Tried as written, then as a
 * regex's text (`test("^pay")` meets `pay`, never `^pay`).
 */
function teamTheLiteralMeets(jq: JqEngine, expression: string, references: JqReferences, value: string, where: GhostContext): string | undefined {
  const spots = valueStrings(references).filter((literal) => literal.value === value && literal.end - literal.start >= 2);
  if (spots.length === 0) return undefined;
  // The other spelling adds what no case fold, slug or regex changes, nor JSON escapes (`tostring` of the
  // whole entity must still hold it as written): a sign outside ASCII and a digit.
  const other = (text: string) => `${text}\u00a70`;
  const respelled = withEdits(expression, spots.map((spot) => ({ start: spot.start, end: spot.end, text: JSON.stringify(other(value)) })));
  const asRegexText = value.replace(/^\^/, '').replace(/\$$/, '').replace(/\\(.)/g, '$1');
  const run = (team: string, text: string) => JSON.stringify(jq.evaluate(ghostContext(where, team), text));
  // Measured against the team, the literal and the team trade places: spelled otherwise together, the
  // result is what it was. A literal joined to a team value (`"/groups/" + .team[0]`) carries its own
  // spelling into the result instead, and is no team it compares with.
  return [...new Set([value, asRegexText])].find((team) => team !== '' && run(team, expression) !== run(team, respelled) && run(other(team), respelled) === run(team, expression));
}

/**
 * Whether a team of today's org, or no team at all, gives what the literal's team (`standIn`) gives as the user's team, after
 * the migration: a prefix (`startswith("plat")`) or another case (`ascii_upcase == "QA"`) a team
 * meets is met today, whatever its text. Run only for a literal no team holds, which is rare.
 */
function someTeamActsAs(jq: JqEngine, expression: string, standIn: string, directory: TeamDirectory, where: GhostContext): boolean {
  const run = (team: string | JudgeTeam | undefined) => JSON.stringify(jq.evaluate(ghostContext(where, team), expression));
  const asLiteral = run(standIn);
  // No team first: a fallback's sentinel (`.team[0] // "none"`) stands for no team, none gone. Then each
  // team as it is: its name (`[.user.teams[].name]`) stays its title, only its team values are the identifier.
  const titled = teamsWithIdentifiers(directory);
  const known = new Set(titled.map((team) => team.identifier));
  const bare = [...directory.identifiers].filter((identifier) => !known.has(identifier));
  return [undefined, ...titled, ...bare].some((team) => run(team) === asLiteral);
}

/** The org's teams that name their identifier, as title and identifier. */
const teamsWithIdentifiers = (directory: TeamDirectory): JudgeTeam[] => [...directory.byTitle.values()].flatMap((team) => (team.identifier === undefined ? [] : [{ title: team.title, identifier: team.identifier }]));

/** The teams run for titles whose identifier is guessed carry the guess, the identifier the rewrite writes. */
function withGuesses(teams: JudgeTeam[], titles: readonly TitleLiteral[]): JudgeTeam[] {
  const guessed = new Map(titles.filter((t) => t.guessed).map((t) => [t.title, t.identifier!]));
  return teams.map((team) => (guessed.has(team.title) ? { ...team, identifier: guessed.get(team.title)! } : team));
}

/** What makes a guessed rewrite unsure, and how to confirm it. */
function guessNote(guesses: readonly TitleLiteral[]): string {
  const list = guesses.map((t) => `${JSON.stringify(t.identifier)} for ${JSON.stringify(t.title)}`).join(', ');
  return `the identifier ${list} is a guess (the title lower-cased, other characters as "_"; no public source says how the migration derives identifiers); confirm it with --teams-map or by auditing with the org, whose _team entities hold the real one`;
}

/**
 * Run the expression on the org's contexts before and after the migration, classify what changes,
 * and let the decision table say what that means. Literals are looked at only through running:
 * identifier literals are read back as titles, and the expression so read is run before the
 * migration; if it gives what the expression as written gives after, it is written for identifiers.
 */
function judgeByRunning(expression: string, references: JqReferences, jq: JqEngine, spec: ContextSpec, sink: Sink, state: Pick<DecisionInput, 'state' | 'stateUnknown'>, directory: TeamDirectory, gate?: { people: readonly Person[]; adminsPass: boolean }): { verdict: Verdict; evaluation: string; class?: ReferenceClass; advice?: string; postscript?: string; deadGate?: DeadGate; jqFailure?: { failure: EvaluationFailure; error: string }; identifierWasTitle?: true } {
  const teamValue = sink === 'team-value' || sink === 'team-comparison';
  const classification = classifyExpression(jq, expression, spec, { teamValue });
  if (classification.class === 'failed') {
    const decision = decide({ class: 'failed', sink, ...state, literals: 'plain' });
    const what = classification.failure === 'timeout' ? 'its evaluation timed out' : 'jq crashed while evaluating it';
    return {
      verdict: decision.verdict,
      evaluation: `run by jq on the org's contexts, ${what} (${classification.error}), so whether it changes with team identifiers is unknown`,
      jqFailure: { failure: classification.failure, error: classification.error },
    };
  }
  // Run whether or not it is needed, so the work planned ahead of the rules holds it too.
  const readBack = identifiersAsTitles(expression, references, directory);
  // `_team` entities a form offers (and a run passes on as `.inputs`) hold identifiers by design: read back too.
  // So do relations to `_team` and mirrors of their identifiers: an expression that meets them with `$team` is written for identifiers (item 7).
  const entityReadBack =
    references.paths.some((path) => path.variable === undefined && (path.segments[0] === 'form' || path.segments[0] === 'inputs') && spec.teamInputs?.some(([name, input]) => name === path.segments[1] && input.kind === '_team') === true) ||
    propertyPaths(references, new Set(spec.identifierProperties ?? [])).length > 0 ||
    relationPaths(references, new Set(spec.teamRelations ?? [])).length > 0;
  const asWritten =
    (readBack !== undefined && jq.validate(readBack).ok) || entityReadBack
      ? classifyPair(jq, readBack !== undefined && jq.validate(readBack).ok ? readBack : expression, expression, entityReadBack ? { ...spec, readBack: true } : spec, { teamValue })
      : undefined;
  let literals: LiteralEvidence = 'plain';
  let detail = '';
  let dead: DeadGate | undefined;
  let difference = classification.difference;
  if (classification.class === 'same') {
    // Issue 29: a read into a value the expression builds itself is known on every context.
    const team = spec.teams[0];
    const paths = unfilledReads(jq, expression, references, contextsOf(spec, 'before'), team ? [team.title, team.identifier] : [], spec.kind);
    if (paths.length > 0) {
      literals = 'unfilled';
      detail = ` (${paths.join(', ')})`;
    } else if (spec.unrunClasses !== undefined) {
      literals = 'classes-unrun';
      detail = ` (${plural(spec.unrunClasses, 'more kind', 'more kinds')} of team were not run)`;
    } else if (gate) {
      dead = deadGate(jq, expression, [...contextsOf(spec, 'before'), ...contextsOf(spec, 'after')], { ...gate, state: state.state });
      if (dead) {
        literals = 'dead';
        const first = contextsOf(spec, 'before')[0];
        const label = teamCases(spec.directory, spec.teams, spec.seeds, spec.kind)[0]?.label ?? 'every context';
        const shown = first === undefined ? 'nothing' : describeResult(jq.evaluate(first, expression));
        difference = { context: label, before: shown, after: shown };
      }
    }
  } else if (classification.class === 'changed') {
    if (classification.difference?.standIn) literals = classification.difference.identifierUnknown !== undefined ? 'identifier-unknown' : 'stand-in-only';
    if (classification.difference?.identifierUnknown !== undefined) detail = ` (${classification.difference.identifierUnknown})`;
    if (asWritten && (asWritten.class === 'same' || (asWritten.class === 'substituted' && teamValue))) literals = 'written-for-identifiers';
    else if (literals === 'plain' && state.state === 'after') {
      const named = identifiersOnceTitles(jq, expression, references, spec, directory, teamValue);
      if (named.length > 0) {
        literals = 'identifier-was-title';
        detail = ` (${named.join('; ')})`;
      } else if (keepsWhomItSetApart(jq, expression, references, spec)) literals = 'written-for-identifiers';
    }
    // Written for identifiers today, a literal naming one team may meet more (a prefix, a part): item 7.
    const besides = literals === 'written-for-identifiers' && state.state === 'after' ? teamsMetBesides(jq, expression, references, spec) : [];
    if (besides.length > 0) {
      literals = 'meets-more-teams';
      detail = ` (${besides.join('; ')})`;
    }
    // Ours, and said: in an org of more teams than are run alone, what they show is what the first of them show.
    const notAlone = teamsWithIdentifiers(directory).length - MAX_TEAMS_ALONE;
    if (state.state === 'after' && (literals === 'written-for-identifiers' || literals === 'meets-more-teams') && notAlone > 0) detail += ` (the first ${MAX_TEAMS_ALONE} of the org's teams were run alone, ${notAlone} more were not)`;
  }
  const decision = decide({ class: classification.class, sink, ...state, literals }, difference);
  const standIn = spec.teams.some((team) => team.standIn === 'placeholder') ? ' (the org names too few team identifiers, so stand-in teams were used)' : '';
  const where = `run by jq on ${classification.contexts} contexts of ${SAMPLE_LABEL[spec.kind]} built from the org's teams${standIn}`;
  const shutOut = dead?.shutOut !== undefined ? `; it shuts out ${plural(dead.shutOut.length, 'person', 'people')} of the org` : '';
  return {
    verdict: decision.verdict,
    evaluation: `${where}, ${decision.why}${detail}${shutOut}`,
    class: classification.class,
    ...(decision.advice !== undefined && { advice: decision.advice }),
    ...(decision.postscript !== undefined && { postscript: decision.postscript }),
    ...(dead && { deadGate: dead }),
    ...(literals === 'identifier-was-title' && { identifierWasTitle: true as const }),
  };
}

/** Ours: the org's teams run alone for `keepsWhomItSetApart`; more only costs time. */
const MAX_TEAMS_ALONE = 200;

/**
 * After the migration, whether it is written for what the org holds today, whatever its literals
 * spell (a case fold, a slug, `@base64d`, `split("_")[0]` of an identifier): run with each of the
 * org's teams alone in both worlds, it sets some teams apart from a team no string of it meets, not
 * every team, and each team it set apart with titles it still sets apart with identifiers; and its
 * string literals are what set them apart: with each literal made a string no team holds, it sets
 * nobody apart. Without that, the teams it sets apart are those whose identifier differs from a
 * title it reads elsewhere (a mirror, the user's team names), which is no code written for identifiers.
 */
function keepsWhomItSetApart(jq: JqEngine, expression: string, references: JqReferences, spec: ContextSpec): boolean {
  const { apart, teams } = teamsApart(jq, expression, spec);
  const after = apart('after');
  if (after.size === 0 || after.size === teams.length) return false;
  if (![...apart('before')].every((title) => after.has(title))) return false;
  const neutral = withoutLiterals(expression, references);
  return neutral !== undefined && jq.validate(neutral).ok && apart('after', neutral).size === 0;
}

/** The org's teams run alone, and which of them (or of `among`, teams of its making) the expression or another text sets apart from a team nobody holds, in a world; `apartEach` asks several at once. */
function teamsApart(jq: JqEngine, expression: string, spec: ContextSpec) {
  const teams = teamsWithIdentifiers(spec.directory).slice(0, MAX_TEAMS_ALONE);
  const nobody: JudgeTeam = { title: '\u0001nobody', identifier: '\u0001nobody' };
  const apartEach = (world: World, asked: readonly { text: string; among: readonly JudgeTeam[] }[]): Set<string>[] => {
    const inputs = asked.map(({ among }) => fillDerived([nobody, ...among].map((team) => contextFor(spec.kind, { label: '', teams: () => [team] }, world, spec.queryIds, spec.teamProperties, spec.removedRelations, spec.teamInputs, false, spec.teamRelations, spec.identifierProperties, spec.titleProperties, spec.seedFields)), spec.derived));
    // Every team and text asked at once: one jq request, not one per team.
    jq.prefetch?.({ validate: asked.map(({ text }) => text), evaluate: asked.map(({ text }, k) => ({ expression: text, inputs: inputs[k]! })) });
    return asked.map(({ text, among }, k) => {
      const [baseline, ...results] = inputs[k]!.map((input) => JSON.stringify(jq.evaluate(input, text)));
      return new Set(among.filter((_, i) => results[i] !== baseline).map((team) => team.title));
    });
  };
  const apart = (world: World, text = expression, among: readonly JudgeTeam[] = teams) => apartEach(world, [{ text, among }])[0]!;
  return { teams, apart, apartEach };
}

/**
 * Item 7: literals are met by what the expression does with them. Each literal that is one team's
 * identifier, made a string no team holds, lets go of the teams it sets apart: where those are more
 * than the team it names (`startswith("checkout")` meets `checkout-billing`), in words. So does one
 * naming no team that is a part of one or more (`contains("core")` with `core-banking`, `core-ledger`).
 */
function teamsMetBesides(jq: JqEngine, expression: string, references: JqReferences, spec: ContextSpec): string[] {
  const literals = valueStrings(references).filter((literal) => spec.directory.identifiers.has(literal.value) || !spec.directory.byTitle.has(literal.value));
  if (literals.length === 0) return [];
  const { teams, apart, apartEach } = teamsApart(jq, expression, spec);
  const after = apart('after');
  // One naming no team meets teams as a part of them when it is compared with their values (written as a team's
  // identifier, it still meets that team: not a key it reads, `has("team")`), and meets them lengthened too (not a
  // pattern of whole identifiers, `test("^(qa|sre)$")`).
  const partOfEach = (literal: StringLiteral, others: readonly JudgeTeam[]) => {
    const asTheirs = apartEach('after', others.map((team) => ({ text: withEdits(expression, [{ start: literal.start, end: literal.end, text: JSON.stringify(team.identifier) }]), among: [team] })));
    if (!asTheirs.every((met) => met.size === 1)) return false;
    const lengthened = apart('after', expression, others.flatMap((team) => [`${team.identifier}\u00a7`, `\u00a7${team.identifier}`].map((identifier) => ({ title: team.title, identifier }))));
    return others.every((team) => lengthened.has(team.title));
  };
  return literals.flatMap((literal) => {
    const named = teams.find((team) => team.identifier === literal.value);
    const without = apart('after', withEdits(expression, [{ start: literal.start, end: literal.end, text: '"\u0001literal"' }]));
    const others = teams.filter((team) => team !== named && after.has(team.title) && !without.has(team.title));
    const met = others.map((team) => `"${team.title}" (${JSON.stringify(team.identifier)})`).join(', ');
    if (named === undefined) return others.length > 0 && partOfEach(literal, others) ? [`${JSON.stringify(literal.value)} names no team and meets ${met}`] : [];
    return others.length === 0 ? [] : [`${JSON.stringify(literal.value)} names team "${named.title}" and meets ${met} too`];
  });
}

/** The expression with every string literal (keys included) a string no team holds, each its own. */
function withoutLiterals(expression: string, references: JqReferences): string | undefined {
  const literals = references.strings.filter((literal) => !literal.interpolated).sort((a, b) => b.start - a.start);
  if (literals.length === 0) return undefined;
  return withEdits(expression, literals.map((literal, i) => ({ start: literal.start, end: literal.end, text: JSON.stringify(`\u0001literal${i}`) })));
}

/**
 * After the migration, the literals one team holds as its identifier that another team held as its
 * title (no-team-holds.ts), where running shows it is written for the identifier: read back as the
 * first team's title, run before the migration, it gives what it gives as written after it. So it
 * matched the other team then; in words, naming both. None otherwise.
 */
function identifiersOnceTitles(jq: JqEngine, expression: string, references: JqReferences, spec: ContextSpec, directory: TeamDirectory, teamValue: boolean): string[] {
  const readBack = identifiersAsTitles(expression, references, directory, true);
  if (readBack === undefined || !jq.validate(readBack).ok) return [];
  const asWritten = classifyPair(jq, readBack, expression, spec, { teamValue });
  if (asWritten.class !== 'same' && !(asWritten.class === 'substituted' && teamValue)) return [];
  const values = references.strings.filter((literal) => !literal.interpolated && directory.identifiers.has(literal.value)).map((literal) => literal.value);
  return identifiersThatWereTitles(directory, values, (spelling, value) => spelling === value);
}

/**
 * The expression with every string literal (object keys included) that is a known team identifier
 * (not also its title) written as that team's title; with `alsoTitles`, one that is another team's title too.
 */
export function identifiersAsTitles(expression: string, references: JqReferences, directory: TeamDirectory, alsoTitles = false): string | undefined {
  const titleOf = new Map<string, string>();
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined && team.identifier !== team.title) titleOf.set(team.identifier, team.title);
  // Object keys too: a lookup keyed by identifiers (`{"qa": "us"}[.team[]]`) is written for identifiers.
  const edits = references.strings
    .filter((literal) => !literal.interpolated)
    .filter((literal) => titleOf.has(literal.value) && (alsoTitles || !directory.byTitle.has(literal.value)) && literal.end - literal.start >= 2);
  if (edits.length === 0) return undefined;
  return withEdits(expression, edits.map((edit) => ({ start: edit.start, end: edit.end, text: JSON.stringify(titleOf.get(edit.value)) })));
}

/**
 * A rewrite is proven when, on every context, it gives after the migration what the original
 * gives before it (or that with each title replaced by its identifier, where the value is a team
 * value); otherwise it is a suggestion, and `where` says where it differs.
 */
function proveRewrite(jq: JqEngine, expression: string, rewrite: string, spec: ContextSpec, sink: Sink): RewriteProof {
  const teamValue = sink === 'team-value' || sink === 'team-comparison';
  const pair = classifyPair(jq, expression, rewrite, spec, { teamValue });
  if (pair.class === 'same' || (pair.class === 'substituted' && teamValue)) return { proof: 'proven' };
  if (pair.class === 'failed') return { proof: 'suggested', where: `jq gave no answer for it (${pair.error})` };
  const d = pair.difference;
  return { proof: 'suggested', where: d ? `for ${d.context} the original gives ${d.before} before the migration but the rewrite gives ${d.after} after it` : 'its result differs' };
}

export interface RewriteProof {
  proof: 'proven' | 'suggested';
  /** For a suggestion: where the rewrite after the migration differs from the original before it. */
  where?: string;
}

/**
 * Whether the result depends on team values, run with the org's sample teams and then with each
 * string the expression compares with standing as a team: `getpath(["team"]) | index("Team 37")`
 * gives the same `null` for every other team, so only that team shows the read.
 */
function readsTeamsWhenRun(expression: string, references: JqReferences, jq: JqEngine, options: Omit<DifferentialOptions, 'teams'> & { teams: [JudgeTeam, JudgeTeam] }): DependenceOutcome {
  const literals = unique(valueStrings(references).map((literal) => literal.value));
  const teamSets: [JudgeTeam, JudgeTeam][] = [options.teams, ...literals.slice(0, MAX_PROBED_LITERALS).map((value): [JudgeTeam, JudgeTeam] => [{ title: value, identifier: literalStandIn(value) }, options.teams[1]])];
  let outcome: DependenceOutcome = { kind: 'independent', samples: 0 };
  for (const teams of teamSets) {
    outcome = probeTeamDependence(jq, expression, { ...options, teams });
    if (outcome.kind !== 'independent') return outcome;
  }
  return outcome;
}

/** Whether a path it names reads team values: the team meta property, a team-valued property or input, a removed relation. */
function readsTeamPaths(references: JqReferences, removedRelations: ReadonlySet<string>, teamProperties: ReadonlySet<string>, teamInputs: ReadonlyMap<string, TeamInput>, teamRelations: ReadonlySet<string>): boolean {
  return (
    teamMetaPaths(references).length > 0 ||
    propertyPaths(references, teamProperties).length > 0 ||
    inputPaths(references, teamInputs).length > 0 ||
    relationPaths(references, removedRelations).length > 0 ||
    relationPaths(references, teamRelations).length > 0 ||
    // The relations as a whole (`.entity.relations | has("owning_team")`) hold the removed one too.
    (removedRelations.size > 0 && references.paths.some((path) => path.segments[path.segments.length - 1] === 'relations'))
  );
}

/** Paths that read a team-typed input in a form's jq: `.form.<name>`. */
function inputPaths(references: JqReferences, teamInputs: ReadonlyMap<string, TeamInput>): FieldPath[] {
  if (teamInputs.size === 0) return [];
  return references.paths.filter((path) => path.variable === undefined && path.segments[0] === 'form' && teamInputs.has(path.segments[1] ?? ''));
}

/** The expression with each title written as its identifier and each relation read as `.team`. */
function rewriteExpression(expression: string, titles: { literal: StringLiteral; title: TitleLiteral }[], relationReads: readonly { start: number; end: number }[]): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { literal, title } of titles) {
    if (title.identifier !== undefined && literal.end - literal.start >= 2) {
      edits.push({ start: literal.start, end: literal.end, text: JSON.stringify(title.identifier) });
    }
  }
  for (const path of relationReads) {
    edits.push({ start: path.start, end: path.end, text: relationToTeam(expression.slice(path.start, path.end)) });
  }
  return withEdits(expression, edits);
}

/** Spans of `expression` replaced right to left, so earlier offsets stay valid; of overlapping ones the later is kept. */
function withEdits(expression: string, edits: readonly { start: number; end: number; text: string }[]): string {
  let result = expression;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    if (edit.end > lastStart) continue;
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    lastStart = edit.start;
  }
  return result;
}

/** `.relations.<id>` (in any spelling, piped or not) becomes `.team`: the ownership it turns into. */
function relationToTeam(text: string): string {
  const replaced = text.replace(/\.?\s*relations\s*(?:\|\s*)?(?:\.\s*"[^"]*"|\.\s*[A-Za-z_][A-Za-z0-9_]*|\[\s*"[^"]*"\s*\])/, '.team');
  return replaced.startsWith('..') ? replaced.slice(1) : replaced;
}

/** The rewrite's edits as a reader applies them by hand: `"Payments" → "payments"`, `.relations.owning_team → .team`. */
function describeEdits(expression: string, titles: { literal: StringLiteral; title: TitleLiteral }[], relationReads: readonly { start: number; end: number }[]): string[] {
  const edits = titles.flatMap(({ title }) => (title.identifier !== undefined ? [`${JSON.stringify(title.title)} → ${JSON.stringify(title.identifier)}`] : []));
  for (const path of relationReads) {
    const text = expression.slice(path.start, path.end);
    edits.push(`${text} → ${relationToTeam(text)}`);
  }
  return unique(edits);
}

/** One sentence on how an expression is affected, for a finding's `reason`. */
export function describeImpact(impact: ExpressionImpact): string {
  const parts: string[] = [];
  const byRunning = impact.relationsFoundByRunning;
  const byTokens = impact.removedRelations.filter((relation) => !byRunning?.relations.includes(relation));
  if (byTokens.length > 0) {
    parts.push(`reads relation ${byTokens.map((r) => `"${r}"`).join(', ')}, which the migration removes (its teams move to the team meta property)`);
  }
  if (byRunning) {
    parts.push(`reads relation ${byRunning.relations.map((r) => `"${r}"`).join(', ')} (${byRunning.how}), which the migration removes (its teams move to the team meta property)`);
  }
  const fine = impact.verdict === 'unaffected';
  if (impact.teamReads.length > 0) {
    // `.user.teams` holds names, titles in both worlds (src/judge/user-model.ts): they do not change, $team does.
    const namesOnly = impact.teamReads.every((read) => /\.\s*teams\b/.test(read) && !/teamsIdentifiers/.test(read));
    parts.push(
      fine
        ? `reads team values (${impact.teamReads.join(', ')})`
        : namesOnly
          ? `reads the user's teams (${impact.teamReads.join(', ')}), whose names stay team titles after the migration while $team holds team identifiers`
          : `reads the team meta property (${impact.teamReads.join(', ')}), whose values change from team titles to team identifiers`,
    );
  }
  if (impact.teamRelationReads && impact.teamRelationReads.length > 0) {
    parts.push(`reads ${impact.teamRelationReads.join(', ')}, a relation to _team, which holds team identifiers before the migration and after it`);
  }
  if (impact.identifierMirrorReads && impact.identifierMirrorReads.length > 0) {
    parts.push(`reads ${impact.identifierMirrorReads.join(', ')}, a mirror of _team identifiers, which holds team identifiers before the migration and after it`);
  }
  if (impact.derivedReads && impact.derivedReads.length > 0) {
    parts.push(`reads ${impact.derivedReads.join(', ')}, a calculation derived from team values, run in each world on the entity's teams`);
  }
  if (impact.teamPropertyReads && impact.teamPropertyReads.length > 0) {
    parts.push(`reads ${impact.teamPropertyReads.join(', ')}, which ${impact.teamPropertyReads.length > 1 ? 'hold' : 'holds'} team values (a mirror of $team, a calculation that passes them on, or a team-typed input), which change from team titles to team identifiers`);
  }
  if (impact.foundByRunning !== undefined) {
    parts.push(`reads team values (${impact.foundByRunning}), which change from team titles to team identifiers`);
  }
  if (impact.titles.length > 0 && !fine) {
    parts.push(`uses team title ${impact.titles.map((t) => JSON.stringify(t.title)).join(', ')}`);
    const guessed = impact.titles.filter((t) => t.guessed).map((t) => JSON.stringify(t.title));
    if (guessed.length > 0) parts.push(`${guessed.join(', ')} ${guessed.length > 1 ? 'are titles' : 'is a title'} (identifiers cannot hold spaces or such characters) that neither the org nor the teams map names`);
  }
  if (impact.evaluation) parts.push(impact.evaluation);
  if (impact.jqFailure && !impact.evaluation) {
    parts.push(`jq could not compile it (${impact.jqFailure.failure === 'timeout' ? 'it timed out' : 'jq crashed'}: ${impact.jqFailure.error}), so it is listed for review`);
  }
  if (impact.lexError) parts.push('this tool could not read its jq, so it is listed for review');
  return parts.join('; ');
}
