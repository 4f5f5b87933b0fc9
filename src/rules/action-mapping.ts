import type { Catalog } from '../catalog/catalog.js';
import type { SampleKind, SiteJudge, Sink, TeamInput } from '../model/sites.js';
import { asString, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath, type Path } from '../catalog/location.js';
import { actionBlueprint, actionRef, createsEntity, removedRelationsFor } from '../catalog/resources.js';
import { isPlainText, replaceTemplateExpressions, strings, templateExpressions } from '../catalog/walk.js';
import { userInputs } from './action-user-input.js';

interface Context {
  catalog: Catalog;
  judge: SiteJudge;
  resource: ResourceRef;
  /** Relations removed from the blueprint the action runs on: what its expressions read (`.entity`). */
  removedRelations: ReadonlySet<string>;
  /** Its mirror properties that copy `$team`: reading them is reading teams. */
  teamProperties: ReadonlySet<string>;
  /** Its team-typed inputs (judge/team-typed.ts): what a run passes on from them (`.inputs.<name>`) is team values. */
  teamInputs: ReadonlyMap<string, TeamInput>;
  /** What its runs hold: a CREATE action's run has no entity (`create-run`). */
  run: SampleKind;
  /** The blueprint its runs' entity is of, when known. */
  blueprint?: string;
  findings: FindingDraft[];
}

const runOf = (action: JsonObject): SampleKind => (createsEntity(action) ? 'create-run' : 'action-run');

/**
 * Action and automation mappings: UPSERT_ENTITY mappings (v2 `invocationMethod.mapping`, older
 * `mapping.entity`), automation trigger conditions, and `{{ }}` templates in webhook URLs,
 * bodies, headers and workflow inputs of every other invocation type.
 */
export const actionMapping: Rule = {
  category: 'action-mapping',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const action of catalog.snapshot.actions ?? []) {
      const context: Context = {
        catalog,
        judge,
        resource: actionRef(action),
        removedRelations: removedRelationsFor(catalog, actionBlueprint(action)),
        teamProperties: judge.teamProperties(actionBlueprint(action)),
        teamInputs: judge.teamInputsOf(userInputs(action)?.inputs.properties),
        run: runOf(action),
        ...(actionBlueprint(action) !== undefined && { blueprint: actionBlueprint(action) }),
        findings,
      };
      checkTriggerCondition(action, context);
      const invocation = isObject(action.invocationMethod) ? action.invocationMethod : undefined;
      if (invocation?.type === 'UPSERT_ENTITY' && isObject(invocation.mapping)) {
        const mapping = invocation.mapping;
        // The mapping writes an entity of `invocationMethod.blueprintIdentifier`, which may differ
        // from the blueprint the action runs on: relation keys are that blueprint's relations.
        const target = asString(invocation.blueprintIdentifier) ?? actionBlueprint(action);
        const written = { removed: removedRelationsFor(catalog, target), toTeams: teamRelationsOf(catalog, target) };
        checkEntityMapping(isObject(mapping.entity) ? mapping.entity : mapping, isObject(mapping.entity) ? ['invocationMethod', 'mapping', 'entity'] : ['invocationMethod', 'mapping'], written, context);
      } else if (invocation) {
        checkTemplates(invocation, ['invocationMethod'], context);
      }
      if (isObject(action.mapping) && isObject(action.mapping.entity)) {
        checkEntityMapping(action.mapping.entity, ['mapping', 'entity'], { removed: context.removedRelations, toTeams: teamRelationsOf(catalog, actionBlueprint(action)) }, context);
      }
    }
    return findings;
  },
};

function add(context: Context, path: Path, expression: string, subject: string, setsTeam = false): void {
  const finding = context.judge.expression(
    { category: 'action-mapping', resource: context.resource, location: joinPath(...path), expression, subject, removedRelations: context.removedRelations, teamProperties: context.teamProperties, teamInputs: context.teamInputs, sample: context.run, ...(context.blueprint !== undefined && { blueprint: context.blueprint }) },
    { setsTeam },
  );
  if (finding) context.findings.push(finding);
}

function checkTriggerCondition(action: JsonObject, context: Context): void {
  const trigger = isObject(action.trigger) ? action.trigger : undefined;
  const condition = trigger && isObject(trigger.condition) ? trigger.condition : undefined;
  // A self-service action's condition of type SEARCH: the entities of its blueprint it is offered on.
  if (condition?.type === 'SEARCH') {
    const blueprint = actionBlueprint(action);
    const site = { category: 'action-mapping' as const, resource: context.resource, subject: 'The condition of the entities the action is offered on', removedRelations: context.removedRelations, teamProperties: context.teamProperties, sample: 'user-input' as const, ...(blueprint !== undefined && { blueprint }) };
    context.findings.push(...context.judge.searchQuery(site, condition, ['trigger', 'condition']));
    return;
  }
  if (!condition || !Array.isArray(condition.expressions)) return;
  const parts = condition.expressions.flatMap((expression, index) => (typeof expression === 'string' ? [{ path: ['trigger', 'condition', 'expressions', index], expression }] : []));
  const ofCondition: FindingDraft[] = [];
  for (const { path, expression } of parts) add({ ...context, findings: ofCondition }, path, expression, 'The trigger condition');
  // The condition as the service runs it: its expressions combined with its combinator.
  const site = { category: 'action-mapping' as const, resource: context.resource, location: joinPath('trigger', 'condition'), subject: 'The trigger condition', removedRelations: context.removedRelations, teamProperties: context.teamProperties, teamInputs: context.teamInputs };
  const located = parts.map(({ path, expression }) => ({ location: joinPath(...path), expression }));
  context.findings.push(...context.judge.wholeCondition(site, condition.combinator, located, ofCondition));
}

/**
 * Entity mapping values: `team` sets the team meta property; relations may be removed.
 * `team` and relation values may be lists (`"team": ["Platform"]`): each string in a list is
 * judged as the string alone would be, at its own location; a team search query by its rules.
 */
/** The relations of the written blueprint: those the migration removes, and those to `_team` it keeps. */
interface WrittenRelations {
  removed: ReadonlySet<string>;
  toTeams: ReadonlySet<string>;
}

/** Relations to `_team` the migration keeps: they hold team identifiers, as `$team` does once migrated. */
function teamRelationsOf(catalog: Catalog, blueprint: string | undefined): ReadonlySet<string> {
  return new Set(blueprint === undefined ? [] : (catalog.teamRelations.get(blueprint) ?? []));
}

function checkEntityMapping(mapping: JsonObject, base: Path, written: WrittenRelations, context: Context): void {
  for (const [key, value] of Object.entries(mapping)) {
    if (key === 'team') {
      // Literal team names, one or a list (`"team": ["Platform", "Payments"]`): one finding with the whole new value.
      const literals = context.judge.literalTeamValues(value);
      if (literals) {
        const finding = context.judge.literalTeam({ category: 'action-mapping', resource: context.resource, location: joinPath(...base, 'team'), subject: 'The mapping', sets: 'the team meta property' }, value as string | string[], literals);
        if (finding) context.findings.push(finding);
        continue;
      }
      // A list that mixes templates and names: each item on its own, names as team values.
      for (const item of mappingItems(value, [...base, 'team'])) {
        const names = context.judge.literalTeamValues(item.value);
        const finding = names ? context.judge.literalTeam({ category: 'action-mapping', resource: context.resource, location: joinPath(...item.path), subject: 'The mapping', sets: 'the team meta property' }, item.value as string, names) : undefined;
        if (finding) context.findings.push(finding);
        else if (typeof item.value === 'string' && !names) checkMappingString(context, item.path, item.value, 'The mapping of team', true);
        else if (typeof item.value !== 'string') checkQuery(item.value, item.path, 'The team search query', context, true);
      }
    } else if (key === 'relations' && isObject(value)) {
      for (const [relation, target] of Object.entries(value)) {
        const path = [...base, 'relations', relation];
        if (written.removed.has(relation)) {
          if (target != null) context.findings.push(removedRelationWrite(context, path, relation, target));
          continue;
        }
        for (const item of mappingItems(target, path)) {
          // A relation to _team takes team identifiers: what flows into it is a team value set.
          if (typeof item.value === 'string') checkMappingString(context, item.path, item.value, `The mapping of relation "${relation}"`, written.toTeams.has(relation));
          else checkQuery(item.value, item.path, `The search query of relation "${relation}"`, context);
        }
      }
    } else if (key === 'properties' && isObject(value)) {
      for (const [property, expression] of Object.entries(value)) {
        if (typeof expression === 'string') checkMappingString(context, [...base, 'properties', property], expression, `The mapping of property "${property}"`);
      }
    } else if (typeof value === 'string' && key !== 'blueprint') {
      checkMappingString(context, [...base, key], value, `The mapping of ${key}`);
    }
  }
}

/**
 * One string of an UPSERT mapping. The service's v2 mappings write jq inside `{{ }}` templates and
 * everything else as a literal (`"icon": "Cluster"`, `"team": ["Platform"]`); older mappings and
 * hand-written ones hold bare jq. A string with a template is judged by its templates, plain text
 * is a literal (team literals are judged before, as a whole), anything else is bare jq.
 */
function checkMappingString(context: Context, path: Path, value: string, subject: string, setsTeam = false): void {
  if (templateExpressions(value).length > 0) {
    const finding = templateFinding(context, path, value, setsTeam ? 'sets' : 'reads');
    if (finding) context.findings.push(finding);
  } else if (!isPlainText(value)) {
    add(context, path, value, subject, setsTeam);
  }
}

/** A mapping value, or each element of a list of them, with its own path. */
function mappingItems(value: JsonValue | undefined, path: Path): { path: Path; value: JsonValue }[] {
  if (Array.isArray(value)) return value.map((item, index) => ({ path: [...path, index], value: item }));
  return value === undefined || value === null ? [] : [{ path, value }];
}

/** A mapping value given as a search query (`team` over `_team`, a relation's target): its rules are judged as any search rule is. */
function checkQuery(query: JsonValue, path: Path, subject: string, context: Context, searchesTeams = false): void {
  // Its `{{ }}` values run on the action's run, as the mapping's own templates do.
  const site = { category: 'action-mapping' as const, resource: context.resource, subject, removedRelations: context.removedRelations, sample: context.run, ...(searchesTeams && { searchesTeams }) };
  context.findings.push(...context.judge.searchQuery(site, query, path));
}

function removedRelationWrite(context: Context, path: Path, relation: string, expression: JsonValue): FindingDraft {
  // What it writes may itself read the removed relation (`{{ .entity.relations.owning_team }}`):
  // that read is empty afterwards, and the teams it held are the entity's `.team`.
  const moved = readsOfRelationAsTeam(expression, relation);
  const finding: FindingDraft = {
    category: 'action-mapping',
    resource: context.resource,
    location: joinPath(...path),
    evidence: typeof expression === 'string' ? expression : JSON.stringify(expression),
    reason: `The mapping writes relation "${relation}", which the migration removes; its teams move to the team meta property.`,
    suggestion:
      moved !== undefined
        ? `Map the same value to team instead: "team": ${JSON.stringify(moved)}, and remove relations.${relation}.`
        : `Map the value to team instead and remove relations.${relation}; where it reads relation "${relation}" itself, read .team (its teams) instead.`,
    verdict: context.judge.verdict('removed-relation'),
  };
  if (moved !== undefined) finding.rewrite = JSON.stringify({ team: moved });
  return finding;
}

/**
 * `value` with every read of the entity's `.relations.<relation>` turned into `.team`, or
 * undefined when the relation is still named afterwards (read another way: piped, bound, by
 * getpath), where no rewrite is certain. A user input's `relations` is not the entity's.
 */
function readsOfRelationAsTeam(value: JsonValue, relation: string): JsonValue | undefined {
  if (Array.isArray(value)) {
    const items = value.map((item) => readsOfRelationAsTeam(item, relation));
    return items.some((item) => item === undefined) ? undefined : (items as JsonValue[]);
  }
  if (typeof value !== 'string') return value;
  const name = relation.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const read = new RegExp(`(?<!\\b(?:inputs|form))\\.relations\\s*(?:\\.\\s*${name}\\b|\\.\\s*"${name}"|\\[\\s*"${name}"\\s*\\])`, 'g');
  const moved = value.replace(read, '.team');
  return /\brelations\b/.test(moved) && new RegExp(`\\b${name}\\b`).test(moved) ? undefined : moved;
}

/** Webhook, GitHub, GitLab, ... payloads: only the jq inside `{{ }}` is code. One finding per string. */
function checkTemplates(invocation: JsonObject, base: Path, context: Context): void {
  for (const { path, value } of strings(invocation, base)) {
    // A key named team inside a body carries the team onward; say so in the reason. It is only a
    // name, though: a value that is no team read (`{{ .inputs.team }}`, a user input) is no finding.
    const teamKey = path[path.length - 1] === 'team' || path[path.length - 1] === '$team';
    const finding = templateFinding(context, path, value, teamKey ? 'reads-then-sets' : 'reads', 'outside');
    if (finding) context.findings.push(finding);
  }
}

/**
 * How a template's result is used: only read, set as the team meta property (an UPSERT mapping's
 * `team`), or passed on under a `team` key, which sets a team only when it carries a team read.
 */
type TemplateUse = 'reads' | 'sets' | 'reads-then-sets';

/** One finding for a string's `{{ }}` templates: the worst verdict, every reason, every rewrite placed back in the string. */
function templateFinding(context: Context, path: Path, value: string, use: TemplateUse, sink?: Sink): FindingDraft | undefined {
  const affected: { expression: string; finding: FindingDraft }[] = [];
  for (const expression of templateExpressions(value)) {
    const site = {
      category: 'action-mapping' as const,
      resource: context.resource,
      location: joinPath(...path),
      expression,
      subject: `The template {{ ${expression} }}`,
      removedRelations: context.removedRelations,
      teamProperties: context.teamProperties,
      teamInputs: context.teamInputs,
      sample: context.run,
      ...(context.blueprint !== undefined && { blueprint: context.blueprint }),
      // A receiver outside the service gets the value whatever key it sits under.
      ...(sink && { sink }),
    };
    const read = use === 'sets' ? undefined : context.judge.expression(site);
    const passedOn = use === 'reads-then-sets' ? { teamDestination: 'passes team values on under a "team" key, so its receiver gets team identifiers after the migration' } : {};
    const finding = use === 'sets' || (read && use === 'reads-then-sets') ? context.judge.expression({ ...site, ...passedOn }, { setsTeam: true }) : read;
    if (finding) affected.push({ expression, finding });
  }
  const [first, ...rest] = affected;
  if (first === undefined) return undefined;
  const worst = context.judge.gravest([first, ...rest], (a) => a.finding.verdict);
  const rewrites = new Map(affected.flatMap(({ expression, finding }) => (finding.rewrite !== undefined ? [[expression, finding.rewrite] as const] : [])));
  const rewrite = replaceTemplateExpressions(value, (expression) => rewrites.get(expression));
  const merged: FindingDraft = {
    ...worst.finding,
    evidence: value,
    reason: affected.map((a) => a.finding.reason).join(' '),
  };
  if (rewrite !== value) {
    merged.rewrite = rewrite;
    merged.suggestion = `Change it to: ${rewrite}`;
  } else delete merged.rewrite;
  return merged;
}
