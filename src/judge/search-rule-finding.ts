import type { Catalog } from '../catalog/catalog.js';
import { relationsOf } from '../catalog/inheritance.js';
import { classifyTeamValue, partitionTeamValues, unknownIdentifierHint } from '../catalog/teams.js';
import { isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft, FindingImpact } from '../model/finding.js';
import { TEAM_BLUEPRINT, type EntityRecord } from '../model/snapshot.js';
import { BUILT_IN_VALUES, builtInOf, TEAM_SEARCH_FORMS } from './built-in-values.js';
import { builtInKey } from '../model/built-in-key.js';
import { contextsOf, fillDerived, type ContextSpec } from './classify.js';
import { type LiteralEvidence, decide, judgeSite, partOfWhole, stateAt, stateOf } from './decision-table.js';
import { entitiesRead } from './read-entities.js';
import { findsNoTeamAfter, isScalarLiteral, judgeRule, judgeRuleAsWritten, judgeRuleTree, operatorMeets, scalarLiteral, showLiteral, valuesAsTitles, type RuleDifference, type RuleSide, type RuleTree, type ValuePart } from './query-rule.js';
import { identifiersThatWereTitles, valuesNoTeamMeets, whatEachMeant } from './no-team-holds.js';
import { allDerivedTeamProperties, derivedTeamProperties, teamIdentifierMirrors, teamValuedProperties } from './team-valued.js';
import { derivedSeen } from './expression-memo.js';
import { unfilledReads } from './unfilled.js';
import { contextFor, teamsFor } from './worlds.js';
import type { JqEngine } from '../jq/engine.js';
import { extractReferences, propertyPaths } from '../jq/references.js';
import { tryLexJq } from '../jq/lexer.js';
import type { SearchRuleSite } from '../model/sites.js';
import { identifiersAsTitles } from './team-impact.js';
import { expressionFinding } from './expression-finding.js';
import { joinPath, quotedSome, type Path } from '../catalog/location.js';
import { migratedEntities, stragglersSaid } from '../catalog/entity-world.js';
import { isPlainText, propertyPath, searchRules, templateExpressions } from '../catalog/walk.js';

export type { SearchRuleSite };

/**
 * A search rule (policy query, widget filter, dataset, scorecard condition, a mapping's team
 * search) is affected when it compares team values or filters on a relation the migration
 * removes. A `$team` rule is judged as the service matches it (src/judge/query-rule.ts), whatever
 * its value is: literals, a value the service fills ("My Teams", `{context: "userTeams"}`), jq
 * (`{jqQuery}`) or a `{{ }}` template run with each world's user. A path rule (`property:
 * {path: [...]}`) counts by its first hop (a removed relation) or by the `$team` hop it reaches.
 */
export function searchRuleFinding(catalog: Catalog, site: SearchRuleSite): FindingDraft | undefined {
  const { rule } = site;
  if (typeof rule.property === 'string' && site.teamProperties?.has(rule.property)) return teamPropertyRuleFinding(catalog, site, rule.property);
  const derived = typeof rule.property === 'string' ? derivedTeamProperties(catalog, site.blueprint).get(rule.property) : undefined;
  if (derived !== undefined) return derivedRuleFinding(catalog, site, String(rule.property), derived);
  const path = propertyPath(rule);
  const first = path?.[0];
  const isPathRule = typeof rule.property !== 'string';
  const location = joinPath(...site.path);
  const base = { category: site.category, resource: site.resource, location, evidence: JSON.stringify(rule) };

  if (first !== undefined && site.removedRelations.has(first)) {
    const rewritten = { ...rule, property: isPathRule ? { ...(rule.property as JsonObject), path: ['$team', ...path!.slice(1)] } : '$team' };
    const what = isPathRule ? `a path through relation "${first}"` : `relation "${first}"`;
    return {
      ...base,
      reason: `${site.subject} filters on ${what}, which the migration removes; its teams move to $team.`,
      suggestion: `Filter on $team instead: ${JSON.stringify(rewritten)}.`,
      verdict: judgeSite('removed-relation'),
      rewrite: JSON.stringify(rewritten),
    };
  }
  if (site.searchesTeams && (rule.property === '$title' || rule.property === '$identifier')) return teamSearchFinding(catalog, site, base, rule.property);

  // The property itself a value of the user (`{context: "userTeams", property: "$identifier"}`)
  // compared with team values.
  const propertyBuiltIn = builtInOf(rule.property);
  // A property of the user's teams this tool does not hold is still a team value: said, not dropped.
  if (propertyBuiltIn && 'unknown' in propertyBuiltIn && isObject(rule.property) && rule.property.context === 'userTeams') return notRun(base, site.subject, 'the user\'s teams', propertyBuiltIn.unknown);
  if (propertyBuiltIn && 'builtIn' in propertyBuiltIn && TEAM_CONTEXTS.has(propertyBuiltIn.key)) {
    const value = valueParts(rule.value, site, catalog.jq);
    if (value.unknown !== undefined) return notRun(base, site.subject, propertyBuiltIn.builtIn.form, value.unknown);
    return judgedRuleFinding(catalog, site, base, { kind: 'values', parts: [{ kind: 'built-in', ...propertyBuiltIn }] }, value.parts, []);
  }

  const identifiers = identifierSide(catalog, site);
  if (identifiers !== undefined) return identifierRuleFinding(catalog, site, base, identifiers);

  // `$team` as the first hop, or reached over relations (`["service", "$team"]`): the values
  // compared are team values either way.
  const teamHop = path?.indexOf('$team') ?? -1;
  if (teamHop < 0) return undefined;
  const hops = path!.slice(teamHop + 1);
  const value = valueParts(rule.value, site, catalog.jq);
  if (value.unknown !== undefined) return notRun(base, site.subject, '$team', value.unknown);
  // Emptiness of $team itself is unchanged by the migration; any other rule without a value
  // (`= null`, `in []`) is matched as any rule is; a path on through the team compares something
  // of the team entity, which needs a look.
  if (value.parts.length === 0 && hops.length > 0) return throughTeam(base, site.subject, hops);
  if (value.parts.length === 0 && (rule.operator === 'isEmpty' || rule.operator === 'isNotEmpty')) return undefined;
  const literals = value.parts.flatMap((part) => (part.kind === 'literals' ? part.values : []));
  const { titles, pendingTitles } = partitionTeamValues(catalog.teams, literals);
  if (hops.length > 0 && titles.length + pendingTitles.length === 0) return throughTeam(base, site.subject, hops);
  // Without jq a value that is jq can only be read: its literals decide, as they always did.
  const jqPart = value.parts.find((part) => part.kind === 'jq');
  if (jqPart && !catalog.jq) return readOnlyJqValue(catalog, site, jqPart.expression, value.jqLocation);
  // Over relations the entities are another blueprint's: only the edge cases are matched.
  const entities = teamHop === 0 && site.blueprint !== undefined ? entitiesRead(catalog, site.blueprint) : [];
  return judgedRuleFinding(catalog, site, base, { kind: 'entity-team' }, value.parts, entities, value.jqLocation);
}

/**
 * Whether the rule compares team values, so its value (a `{jqQuery}` among them) is judged by
 * matching the rule, not as an expression on its own.
 */
export function comparesTeams(site: Pick<SearchRuleSite, 'rule' | 'teamProperties' | 'searchesTeams'>): boolean {
  const { rule } = site;
  if (typeof rule.property === 'string' && site.teamProperties?.has(rule.property)) return true;
  if (site.searchesTeams && (rule.property === '$title' || rule.property === '$identifier')) return true;
  const builtIn = builtInOf(rule.property);
  if (builtIn && 'builtIn' in builtIn && TEAM_CONTEXTS.has(builtIn.key)) return true;
  return (propertyPath(rule) ?? []).includes('$team');
}

/** Built-in values of the user that are team values, and so compared with `$team`-like values. */
const TEAM_CONTEXTS: ReadonlySet<string> = new Set(['userTeams.$identifier', 'userTeams.$title', 'user.$team']);

interface ParsedValue {
  parts: ValuePart[];
  /** Set when some part is one this tool cannot read or run: what it is, as a clause. */
  unknown?: string;
  /** Where a `{jqQuery}` value's expression sits, for a finding that names it. */
  jqLocation?: string;
}

/** What a jq value is tried on to tell whether it reads its input: nothing, and every field a site could fill. */
const FILLED_INPUT: JsonValue = { user: { email: 'someone@example.com', team: ['t'], teams: [{ name: 't' }], teamsIdentifiers: ['t'] }, entity: { identifier: 'e', title: 'e', team: ['t'], properties: {}, relations: {} }, team: ['t'], properties: {}, relations: {}, trigger: {}, inputs: {}, results: {} };

/** Whether jq gives the same on an empty input and on one holding every field a site could fill: a value computed from nothing it lacks. */
function readsNothing(jq: JqEngine, expression: string): boolean {
  const empty = jq.evaluate(null, expression);
  const filled = jq.evaluate(FILLED_INPUT, expression);
  return empty.ok && filled.ok && JSON.stringify(empty.values) === JSON.stringify(filled.values);
}

/**
 * A rule's value as parts the judge reads: literals, values the service fills, jq (`{jqQuery}`, `{{ }}`).
 * With `scalars`, a boolean, number or null is a literal too (compared with a calculation's value).
 */
function valueParts(value: JsonValue | undefined, site: SearchRuleSite, jq: JqEngine | undefined, scalars = false): ParsedValue {
  const parts: ValuePart[] = [];
  const literals: string[] = [];
  let unknown: string | undefined;
  let jqLocation: string | undefined;
  // A jq value, `{jqQuery}` or a whole `{{ }}` template, is run where the site gives its input; where it
  // gives jq no user or run (a scorecard), a value that reads none is run all the same, on an entity.
  const jqValue = (expression: string, unreadable: string, location?: string): void => {
    const sample = site.sample ?? (jq && readsNothing(jq, expression) ? 'entity' : undefined);
    if (!sample) {
      unknown ??= unreadable;
      return;
    }
    parts.push({ kind: 'jq', expression, sample });
    if (location !== undefined) jqLocation = location;
  };
  const one = (item: JsonValue | undefined): void => {
    if (scalars && (item === null || typeof item === 'boolean' || typeof item === 'number')) {
      literals.push(scalarLiteral(item));
      return;
    }
    if (item === undefined || item === null) return;
    const builtIn = builtInOf(item);
    if (builtIn && 'builtIn' in builtIn) parts.push({ kind: 'built-in', ...builtIn });
    else if (builtIn) unknown ??= builtIn.unknown;
    else if (isObject(item) && typeof item.jqQuery === 'string') jqValue(item.jqQuery, `the jq ${JSON.stringify(item.jqQuery)}, which runs on data this tool cannot read`, joinPath(...site.path, 'value', 'jqQuery'));
    else if (typeof item === 'string' && site.valueSource === 'payload' && jqStringLiteral(item) !== undefined) {
      // jq that is one string literal (`'"patient-mobile"'`) reads no payload: the literal it gives.
      literals.push(jqStringLiteral(item)!);
    } else if (typeof item === 'string' && site.valueSource === 'payload' && !isPlainText(item)) {
      unknown ??= `${JSON.stringify(item)}, jq over the payload the source sends, which this tool cannot read`;
    } else if (typeof item === 'string' && WHOLE_TEMPLATE.test(item)) jqValue(WHOLE_TEMPLATE.exec(item)![1]!.trim(), `the template ${JSON.stringify(item)}, which runs on data this tool cannot read`);
    else if (typeof item === 'string' && templateExpressions(item).length > 0) {
      unknown ??= `the template ${JSON.stringify(item)}, text around jq this tool does not run`;
    } else if (typeof item === 'string') literals.push(item);
    else if (!Array.isArray(item)) unknown ??= `${JSON.stringify(item)}, a value of a shape this tool does not know`;
  };
  if (Array.isArray(value)) value.forEach(one);
  else one(value);
  if (literals.length > 0) parts.unshift({ kind: 'literals', values: literals });
  return { parts, ...(unknown !== undefined && { unknown }), ...(jqLocation !== undefined && { jqLocation }) };
}

/** The text of jq that is one string literal with no interpolation (`"patient-mobile"`), else undefined. */
function jqStringLiteral(source: string): string | undefined {
  const tokens = tryLexJq(source);
  const only = tokens?.length === 1 ? tokens[0]! : undefined;
  return only?.type === 'string' && !only.interpolations ? only.value : undefined;
}

/** A whole string that is one template: `{{ .user.team }}`. */
const WHOLE_TEMPLATE = /^\s*\{\{([\s\S]*)\}\}\s*$/;

/** How the value reads in a reason. */
function describeParts(parts: readonly ValuePart[]): string {
  if (parts.length === 0) return 'no value';
  return parts
    .map((part) => (part.kind === 'literals' ? part.values.map(showLiteral).join(', ') : part.kind === 'built-in' ? `${part.builtIn.form} (${part.builtIn.after.replace(/^the /, "")} after the migration)` : `the jq ${JSON.stringify(part.expression)}`))
    .join(', ');
}

/** A scorecard condition passes or fails per entity; a filter or dataset shows rows. */
function rowsImpact(site: SearchRuleSite, rows: { before: number; after: number; flipped: number }): FindingImpact {
  return site.category === 'scorecard-rule' ? { scorecard: { flipped: rows.flipped }, rows: { before: rows.before, after: rows.after } } : { rows: { before: rows.before, after: rows.after } };
}

/**
 * A rule judged by matching it as the service does against the org's entities and edge cases,
 * for each user its value depends on, before and after the migration (src/judge/query-rule.ts);
 * the verdict and its why come from the decision table.
 */
function judgedRuleFinding(
  catalog: Catalog,
  site: SearchRuleSite,
  base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>,
  property: RuleSide,
  given: readonly ValuePart[],
  entities: readonly EntityRecord[],
  jqLocation?: string,
  /** Once migrated, the strings and scalars the property side holds today on the org's entities (a derived calculation's). */
  today?: readonly string[],
): FindingDraft | undefined {
  const { rule } = site;
  // A jq value reads the entity's mirrors of `_team` as they hold in each world: titles stay titles while `$team` turns to identifiers.
  const mirrors = { identifiers: [...teamIdentifierMirrors(catalog, undefined)], titles: [...teamIdentifierMirrors(catalog, undefined, '$title')] };
  const parts = given.map((part) => (part.kind === 'jq' && mirrors.identifiers.length + mirrors.titles.length > 0 ? { ...part, mirrors } : part));
  const operator = String(rule.operator);
  const common = { directory: catalog.teams, operator, property, entities, ...(catalog.jq && { jq: catalog.jq }), ...(site.queryIds && { queryIds: site.queryIds }) };
  const judged = judgeRuleAsWritten({ ...common, value: parts });
  // A boolean, number or null is matched as it is, but spells no team.
  const written = parts.flatMap((part) => (part.kind === 'literals' ? part.values : []));
  const literals = written.filter((v) => !isScalarLiteral(v));
  const { titles, pendingTitles: pending, translated } = partitionTeamValues(catalog.teams, literals);
  if (!judged) {
    return notRun(base, site.subject, '$team', `operator ${JSON.stringify(rule.operator)}, which this tool cannot evaluate`);
  }
  // Issue 39: after the migration a value no team meets today (by what the operator does with it)
  // matches nothing now, whatever it matched before. `$team` holds identifiers today (a title is
  // left to the rest of the judge); the user's `_team` entities, identifiers only.
  const held = property.kind === 'entity-team' ? 'identifiers and titles' : property.kind === 'values' && property.parts.every((part) => part.kind === 'built-in' && part.key === 'userTeams.$identifier') ? 'identifiers' : undefined;
  const meets = (spelling: string, value: string) => operatorMeets(operator, spelling, value);
  const ghosts = stateAt(catalog, site.blueprint).migrated && held !== undefined ? valuesNoTeamMeets(catalog.teams, literals, meets, held) : [];
  if (ghosts.length > 0) return noTeamHoldsFinding(catalog, site, base, property.kind === 'values' ? describeParts(property.parts) : '$team', ghosts);
  const where = jqLocation !== undefined ? { location: jqLocation, evidence: parts.find((p): p is Extract<ValuePart, { kind: 'jq' }> => p.kind === 'jq')!.expression } : {};
  if (judged.class === 'failed') {
    const decision = decide({ class: 'failed', sink: 'team-comparison', state: stateOf(stateAt(catalog, site.blueprint)), literals: 'plain' });
    return {
      ...base,
      ...where,
      reason: `${site.subject} compares $team with ${describeParts(parts)}; ${decision.why} (${judged.error}).`,
      suggestion: 'Make sure the value\'s jq terminates, then check that the rule matches the same entities once $team holds team identifiers.',
      verdict: decision.verdict,
    };
  }
  const computed = parts.some((part) => part.kind !== 'literals');
  // Issue 39: alike in both worlds only because no entity matches in either: a condition that never worked.
  if (judged.class === 'same' && !computed && property.kind === 'entity-team' && literals.length > 0 && judgeRuleTree({ directory: catalog.teams, tree: { kind: 'team', operator, values: literals }, entities }) === 'matches-nobody') {
    // Before the migration a team known by title only has no identifier yet: the value may become it.
    const unassigned = stateAt(catalog, site.blueprint).migrated ? [] : [...catalog.teams.byTitle.values()].filter((team) => team.identifier === undefined).map((team) => team.title);
    if (unassigned.length > 0) {
      return {
        ...base,
        reason: `${site.subject} matches no entity today, and none after the migration with the team identifiers known: no team holds ${describeParts(parts)} by title, but the identifier the migration gives ${quotedSome(unassigned, 3)} is not known; if it is among ${describeParts(parts)}, the rule starts matching that team's entities after the migration.`,
        suggestion: `Check which team the rule is meant for once its identifier is known (${unknownIdentifierHint(unassigned.slice(0, 3))}).`,
        verdict: judgeSite('rule-matches-nobody'),
        ...(judged.rows && { impact: rowsImpact(site, judged.rows) }),
      };
    }
    return {
      ...base,
      reason: `${site.subject} matches no entity before the migration nor after it: no team of the org holds ${describeParts(parts)}, by title or identifier.`,
      suggestion: 'Check what the rule is meant to match: as written it lets no entity through, before or after the migration.',
      verdict: judgeSite('rule-matches-nobody'),
      ...(judged.rows && { impact: rowsImpact(site, judged.rows) }),
    };
  }
  // A value that follows the user's teams the way $team does is no finding, as it never was.
  if (judged.class === 'same' && computed && !parts.some((part) => part.kind === 'jq')) return undefined;
  let evidence: LiteralEvidence = 'plain';
  let wasTitle: string[] = [];
  if (judged.class === 'same') {
    const unfilled = parts.flatMap((part) => (part.kind === 'jq' ? unfilledValueReads(catalog, part, site.queryIds ?? []) : []));
    if (unfilled.length > 0) evidence = 'unfilled';
  } else if (judged.class === 'changed') {
    if (judged.difference?.standIn) evidence = 'stand-in-only';
    const readBack = partsAsTitles(catalog, parts);
    if (readBack && judgeRule({ ...common, value: { before: readBack, after: parts } })?.class === 'same') evidence = 'written-for-identifiers';
    // Issue 39: once migrated, literals each met by a team's identifier as the operator compares
    // (`beginsWith "plat"` and `platform`) are written for what the org holds today.
    else if (held !== undefined && stateAt(catalog, site.blueprint).migrated && literals.length > 0 && !computed && valuesNoTeamMeets(catalog.teams, literals, meets, 'identifiers').length === 0) evidence = 'written-for-identifiers';
    // A derived calculation's rule whose literals each meet what it computes on the org's entities today.
    else if (today !== undefined && !computed && written.length > 0 && written.every((literal) => today.some((value) => meets(value, literal)))) evidence = 'written-for-identifiers';
    // Once migrated, one team's identifier that was another's title: which of them it means nothing tells.
    if (evidence === 'written-for-identifiers' && stateAt(catalog, site.blueprint).migrated && !computed) wasTitle = identifiersThatWereTitles(catalog.teams, literals, meets);
    if (wasTitle.length > 0) evidence = 'identifier-was-title';
    // Kept with an identifier a team known by title only could be given: as for expressions, the identifier decides.
    if (judged.difference?.identifierUnknown !== undefined && evidence !== 'written-for-identifiers' && evidence !== 'identifier-was-title') evidence = 'identifier-unknown';
  }
  const decision = decide({ class: judged.class, sink: 'team-comparison', state: stateOf(stateAt(catalog, site.blueprint)), stateUnknown: stateAt(catalog, site.blueprint).stateUnknown, literals: evidence }, judged.difference);
  // A half-way blueprint's entities left holding titles are where the rule still matches as before.
  const world = judged.class !== 'same' ? migratedEntities(catalog, site.blueprint) : undefined;
  const stragglers = world && stragglersSaid(world, site.blueprint!);
  const subject = `${site.subject} compares ${property.kind === 'values' ? describeParts(property.parts) : property.kind === 'team-entity' ? `the _team entities' ${property.field}` : '$team'}`;
  const finding: FindingDraft = {
    ...base,
    ...where,
    reason: `${subject} with ${describeParts(parts)} (operator ${JSON.stringify(rule.operator)}); matched against the org's entities${computed ? ' for each user, with the value run in each world' : ''} before and after the migration, ${decision.why}${evidence === 'identifier-unknown' ? ` (${judged.difference!.identifierUnknown})` : ''}${wasTitle.length > 0 ? ` (${wasTitle.join('; ')})` : ''}.${[decision.postscript, stragglers].filter((said) => said !== undefined).map((said) => ` ${said}`).join('')}`,
    suggestion: 'Nothing to change: it matches the same entities before and after the migration.',
    verdict: decision.verdict,
  };
  if (decision.advice) finding.suggestion = decision.advice;
  if (judged.rows) finding.impact = rowsImpact(site, judged.rows);
  if (decision.verdict === 'unaffected' || decision.advice) return finding;
  const jqParts = parts.filter((part): part is Extract<ValuePart, { kind: 'jq' }> => part.kind === 'jq');
  if (titles.length > 0 && jqParts.length === 0 && !computed) {
    const newValue = typeof rule.value === 'string' ? translated[0]! : translated;
    finding.rewrite = JSON.stringify({ ...rule, value: newValue });
    const proof = judgeRule({ ...common, value: { before: parts, after: [{ kind: 'literals', values: translated }] } });
    finding.rewriteProof = proof && proof.class === 'same' && pending.length === 0 ? 'proven' : 'suggested';
    finding.suggestion = `Use the identifier: ${finding.rewrite}.`;
    if (finding.rewriteProof === 'suggested') {
      const d = proof && proof.class !== 'failed' ? proof.difference : undefined;
      finding.suggestion += d ? ` This rewrite is a suggestion, not proven: for ${d.context} the rule gives ${d.before} before the migration but the rewrite gives ${d.after} after it.` : ' This rewrite is a suggestion, not proven.';
    }
    if (pending.length > 0) finding.note = `${unknownIdentifierHint(pending)}.`;
  } else if (pending.length > 0) {
    finding.suggestion = `Use the team's identifier instead: ${unknownIdentifierHint(pending)}.`;
  } else if (jqParts.some((part) => /\.teams\s*\[\s*\]\s*\.\s*name/.test(part.expression))) {
    finding.suggestion = 'Compare $team with the user\'s team identifiers: [.user.teamsIdentifiers[]] or .user.team (the names in .user.teams[].name stay titles, while $team holds identifiers after the migration).';
  } else {
    finding.suggestion = 'Make the rule compare $team with the identifiers of the teams it means, so it matches the same entities after the migration as before.';
  }
  const notes = parts.flatMap((part) => (part.kind === 'built-in' && part.builtIn.note ? [part.builtIn.note] : []));
  if (notes.length > 0) finding.note = [finding.note, ...notes].filter(Boolean).join('; ');
  return finding;
}

/** A rule comparing team values with values no team of the org meets today: it matches nothing now. */
function noTeamHoldsFinding(catalog: Catalog, site: SearchRuleSite, base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, side: string, ghosts: readonly string[], held: 'identifiers' | 'titles' = 'identifiers'): FindingDraft {
  const meant = whatEachMeant(catalog.teams, ghosts);
  const spelling = held === 'titles' ? 'title' : 'identifier';
  return {
    ...base,
    reason: `${site.subject} compares ${side} with ${ghosts.map((g) => JSON.stringify(g)).join(', ')} (operator ${JSON.stringify(site.rule.operator)}), and the org has migrated: ${ghosts.length === 1 ? `${JSON.stringify(ghosts[0])} is no team of the org today` : 'these are no team of the org today'} (no team's ${spelling}${side === '$team' ? ' or title' : ''} meets it as the operator compares), so it matches no entity now, whatever it matched before.`,
    suggestion: `Write the ${spelling} of the team it means (${meant.join('; ')}).`,
    verdict: judgeSite('no-team-holds'),
  };
}

/**
 * Issue 39, item 7: a rule whose side holds the identifiers of `_team` entities in both worlds:
 * `relatedTo` the `_team` blueprint (the related entities' identifiers), a relation to `_team` the
 * migration keeps as the rule's property, or a mirror of `$identifier` over such a relation; or
 * their titles, through a mirror of `$title`. The migration changes nothing of it, but once the org
 * has migrated a literal no team's identifier (or title) meets, as the operator compares, matches nothing.
 */
function identifierSide(catalog: Catalog, site: SearchRuleSite): { what: string; operator: string; held: 'identifiers' | 'titles' } | undefined {
  const { rule } = site;
  if (rule.operator === 'relatedTo' && rule.blueprint === TEAM_BLUEPRINT) return { what: 'the related _team entities', operator: 'in', held: 'identifiers' };
  if (typeof rule.property !== 'string' || typeof rule.operator !== 'string') return undefined;
  const relation = site.blueprint === undefined ? undefined : relationsOf(catalog.blueprints.get(site.blueprint))[rule.property];
  if (relation?.target === TEAM_BLUEPRINT && !site.removedRelations.has(rule.property)) return { what: `relation "${rule.property}" (identifiers of _team entities)`, operator: rule.operator, held: 'identifiers' };
  if (teamIdentifierMirrors(catalog, site.blueprint).has(rule.property)) return { what: `mirror property "${rule.property}" (identifiers of _team entities)`, operator: rule.operator, held: 'identifiers' };
  if (teamIdentifierMirrors(catalog, site.blueprint, '$title').has(rule.property)) return { what: `mirror property "${rule.property}" (titles of _team entities)`, operator: rule.operator, held: 'titles' };
  return undefined;
}

function identifierRuleFinding(catalog: Catalog, site: SearchRuleSite, base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, side: { what: string; operator: string; held: 'identifiers' | 'titles' }): FindingDraft | undefined {
  const value = valueParts(site.rule.value, site, catalog.jq);
  if (value.unknown !== undefined) return notRun(base, site.subject, side.what, value.unknown);
  // A value that follows the user is run in each world and matched against every team's identifier (or title).
  const field = side.held === 'identifiers' ? '$identifier' : '$title';
  if (value.parts.some((part) => part.kind !== 'literals')) {
    const judged = judgedRuleFinding(catalog, { ...site, rule: { ...site.rule, operator: side.operator }, subject: `${site.subject} on ${side.what}` }, base, { kind: 'team-entity', field }, value.parts, [], value.jqLocation);
    if (judged !== undefined && judged.verdict !== 'unaffected') return judged;
    // Alike in both worlds: titles met with identifiers (`userTeams.$title`, `[.user.teams[].name]` on a relation to `_team`) match nobody in either.
    const none = findsNoTeamAfter({ directory: catalog.teams, operator: side.operator, property: { kind: 'team-entity', field }, value: value.parts, entities: [], ...(catalog.jq && { jq: catalog.jq }), ...(site.queryIds && { queryIds: site.queryIds }) });
    if (none === undefined) return judged;
    const migrated = stateAt(catalog, site.blueprint).migrated;
    return {
      ...base,
      reason: `${site.subject} compares ${side.what} with ${describeParts(value.parts)} (operator ${JSON.stringify(site.rule.operator)}): for ${none.context} the value gives ${none.value}, which no team's ${field === '$title' ? 'title' : 'identifier'} meets, so it matches no entity${migrated ? ' now, whatever it matched before' : ', before the migration or after it'}.`,
      suggestion: `Compare ${side.what} with the user's team ${field === '$title' ? 'titles ({"context": "userTeams", "property": "$title"}, [.user.teams[].name])' : 'identifiers ({"context": "userTeams", "property": "$identifier"})'}.`,
      verdict: judgeSite(migrated ? 'no-team-holds' : 'rule-matches-nobody'),
    };
  }
  if (!stateAt(catalog, site.blueprint).migrated) return undefined;
  const literals = value.parts.flatMap((part) => (part.kind === 'literals' ? part.values : []));
  const ghosts = valuesNoTeamMeets(catalog.teams, literals, (spelling, literal) => operatorMeets(side.operator, spelling, literal), side.held);
  return ghosts.length > 0 ? noTeamHoldsFinding(catalog, site, base, side.what, ghosts, side.held) : undefined;
}

/** The value with identifiers read back as titles (literals, jq literals, a built-in that yields identifiers): what it would have said for titles. */
function partsAsTitles(catalog: Catalog, parts: readonly ValuePart[]): ValuePart[] | undefined {
  let changed = false;
  const out = parts.map((part): ValuePart => {
    if (part.kind === 'literals') {
      const asTitles = valuesAsTitles(catalog.teams, part.values);
      if (!asTitles) return part;
      changed = true;
      return { kind: 'literals', values: asTitles };
    }
    if (part.kind === 'built-in') {
      const twin = part.builtIn.asTitles !== undefined ? BUILT_IN_VALUES[part.builtIn.asTitles] : undefined;
      if (!twin) return part;
      changed = true;
      return { kind: 'built-in', builtIn: twin, key: part.builtIn.asTitles! };
    }
    const references = extractReferences(part.expression);
    // A mirror of `_team` identifiers it reads holds titles when read back.
    if (references.ok && propertyPaths(references.references, new Set(part.mirrors?.identifiers)).length > 0) {
      changed = true;
      return { ...part, readBack: true };
    }
    const readBack = references.ok ? identifiersAsTitles(part.expression, references.references, catalog.teams) : undefined;
    if (readBack === undefined || !catalog.jq?.validate(readBack).ok) return part;
    changed = true;
    return { ...part, expression: readBack };
  });
  return changed ? out : undefined;
}

/** Reads of a jq value that reach data the contexts do not hold (src/judge/unfilled.ts). */
function unfilledValueReads(catalog: Catalog, part: Extract<ValuePart, { kind: 'jq' }>, queryIds: readonly string[]): string[] {
  const references = extractReferences(part.expression);
  if (!references.ok || !catalog.jq) return [];
  const spec = { kind: part.sample, directory: catalog.teams, teams: teamsFor(catalog.teams, part.expression, []), queryIds, teamProperties: [], identifierProperties: part.mirrors?.identifiers, titleProperties: part.mirrors?.titles };
  const team = spec.teams[0];
  return unfilledReads(catalog.jq as JqEngine, part.expression, references.references, contextsOf(spec, 'before'), team ? [team.title, team.identifier] : [], part.sample);
}

/** Without jq, a rule's jq value is judged by reading it, as any expression is. */
function readOnlyJqValue(catalog: Catalog, site: SearchRuleSite, expression: string, jqLocation: string | undefined): FindingDraft | undefined {
  return expressionFinding(catalog, { ...site, location: jqLocation ?? joinPath(...site.path, 'value'), expression, subject: `${site.subject} on $team` }, { setsTeam: true });
}

/**
 * A mapping's `team` given as a search over `_team` entities by `$title` or `$identifier`: a value
 * from the source is read from the table of forms (src/judge/built-in-values.ts); a literal is
 * checked against the org's teams; a value this tool can run is run after the migration, the only
 * world the form exists in, and must find the teams it means.
 */
function teamSearchFinding(catalog: Catalog, site: SearchRuleSite, base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, field: '$title' | '$identifier'): FindingDraft | undefined {
  const form = TEAM_SEARCH_FORMS[field];
  const value = valueParts(site.rule.value, site, catalog.jq);
  const other = field === '$title' ? '$identifier' : '$title';
  if (value.unknown !== undefined || value.parts.some((part) => part.kind === 'jq' && !catalog.jq)) {
    return {
      ...base,
      reason: `${site.subject} finds the team by ${field} with a value from the source: ${form.why}.`,
      suggestion: form.verdict === 'unaffected' ? 'Nothing to change while the source holds team titles.' : `Make sure the source holds team identifiers, or search by ${other} when it holds titles.`,
      verdict: form.verdict,
    };
  }
  const literals = value.parts.flatMap((part) => (part.kind === 'literals' ? part.values : []));
  const wanted = field === '$title' ? 'title' : 'identifier';
  const misses: string[] = [];
  for (const literal of literals) {
    const status = classifyTeamValue(catalog.teams, literal);
    const fits = field === '$title' ? catalog.teams.byTitle.has(literal) : status.state === 'identifier';
    if (!fits && (status.state !== 'unknown' || catalog.teams.orgKnowsTeams)) misses.push(literal);
  }
  if (misses.length > 0) {
    const rewrite = { ...site.rule, property: other };
    return {
      ...base,
      reason: `${site.subject} finds the team by ${field}, but ${misses.map((m) => JSON.stringify(m)).join(', ')} is no team ${wanted} of the org, so it finds no team.`,
      suggestion: `Search by ${other} instead: ${JSON.stringify(rewrite)}, or write the team's ${wanted}.`,
      verdict: judgeSite('finds-no-team'),
      rewrite: JSON.stringify(rewrite),
    };
  }
  const computed = value.parts.filter((part) => part.kind !== 'literals');
  // Literals that each name a team find it (verified, so no review is left to the search as a whole);
  // a value that holds nothing (null, []) is matched below.
  if (computed.length === 0 && literals.length > 0) return { ...base, reason: `${site.subject} finds the team by ${field} with ${describeParts(value.parts)}, each a team ${wanted} of the org: it finds the team it names.`, suggestion: 'Nothing to change.', verdict: judgeSite('finds-each-team') };
  const judged = judgeRule({
    directory: catalog.teams,
    operator: String(site.rule.operator),
    property: { kind: 'team-entity', field },
    value: { before: value.parts, after: value.parts },
    entities: [],
    ...(catalog.jq && { jq: catalog.jq }),
    ...(site.queryIds && { queryIds: site.queryIds }),
  });
  if (!judged || judged.class === 'failed') {
    return { ...base, reason: `${site.subject} finds the team by ${field} with ${describeParts(value.parts)}, which this tool could not run${judged ? ` (${judged.error})` : ''}.`, suggestion: `Check that it finds the intended team once teams are _team entities.`, verdict: judgeSite('not-run') };
  }
  const misses2 = findsNoTeamAfter({ directory: catalog.teams, operator: String(site.rule.operator), property: { kind: 'team-entity', field }, value: value.parts, entities: [], ...(catalog.jq && { jq: catalog.jq }), ...(site.queryIds && { queryIds: site.queryIds }) });
  if (misses2 === undefined) {
    return { ...base, reason: `${site.subject} finds the team by ${field} with ${describeParts(value.parts)}: run after the migration, it finds each user's teams.`, suggestion: 'Nothing to change.', verdict: judgeSite('finds-each-team') };
  }
  return {
    ...base,
    reason: `${site.subject} finds the team by ${field} with ${describeParts(value.parts)}, but after the migration, for ${misses2.context}, it gives ${misses2.value}, which is no team ${wanted}: it finds no team.`,
    suggestion: `Search by ${other} instead, or make the value give team ${wanted}s.`,
    verdict: judgeSite('finds-no-team'),
  };
}
/** The findings of every rule of a search query (or a list of rules), nested groups included. */
export function searchQueryFindings(catalog: Catalog, site: Omit<SearchRuleSite, 'path' | 'rule'>, query: JsonValue | undefined, path: Path): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const { path: rulePath, rule } of searchRules(query, path)) {
    const finding = searchRuleFinding(catalog, { ...site, path: rulePath, rule });
    if (finding) findings.push(finding);
  }
  return judgedWhole(catalog, site, query, path, findings);
}

/**
 * Issue 39: a rule is judged whole. Where a group (with its nested groups, and rules on fields the
 * migration leaves alone) matches the same entities before and after the migration as a whole (an
 * `or` of a title and its identifier, at any depth), the `$team` rules in it are no change, whatever
 * each does alone. The outermost group that holds decides.
 */
export function judgedWhole(catalog: Catalog, site: Pick<SearchRuleSite, 'subject' | 'blueprint'>, query: JsonValue | undefined, path: Path, findings: readonly FindingDraft[]): FindingDraft[] {
  const wholes = new Map<string, { combinator: string; row: 'group-holds' | 'group-matches-nobody' | RuleDifference; nested: boolean }>();
  for (const group of ruleGroups(query, path)) {
    const where = joinPath(...group.path);
    const under = (location: string) => location.startsWith(`${where}.`) || location.startsWith(`${where}[`);
    // A rule alone is judged as it is, with what its value runs to; a group, as a whole.
    const inside = findings.filter((f) => under(f.location) && !f.reason.includes(GROUP_SAID) && !wholes.has(f.location));
    if (group.rules.length < 2 || inside.length === 0) continue;
    const tree = ruleTree(catalog, group.node, site.blueprint);
    if (tree === undefined) continue;
    const entities = site.blueprint !== undefined ? entitiesRead(catalog, site.blueprint) : [];
    // Held-out m14: a group changed only with the pending stand-ins, kept with identifiers the teams could be given, is a difference.
    const judged = judgeRuleTree({ directory: catalog.teams, tree, entities, ...(site.blueprint !== undefined && { blueprint: site.blueprint }) });
    if (judged === 'changed' || judged === undefined) continue;
    const row = typeof judged === 'object' ? judged : judged === 'same' ? 'group-holds' : 'group-matches-nobody';
    const direct = new Set(group.rules.map((_, i) => joinPath(...group.path, group.key, i)));
    for (const finding of inside) wholes.set(finding.location, { combinator: String(group.combinator), row, nested: !direct.has(finding.location) });
  }
  if (wholes.size === 0) return [...findings];
  return findings.map((finding) => {
    const whole = wholes.get(finding.location);
    if (whole === undefined || finding.reason.includes(GROUP_SAID)) return finding;
    const group = `${site.subject} ${whole.nested ? 'sits in' : 'is one of'} an "${whole.combinator}" ${GROUP_SAID}${whole.nested ? ' (its nested groups and rules on other fields included)' : ''}`;
    if (typeof whole.row === 'object') {
      const decision = decide({ class: 'changed', sink: 'team-comparison', state: stateOf(stateAt(catalog, site.blueprint)), literals: 'identifier-unknown' }, whole.row);
      const { category, resource, location, evidence } = finding;
      return { category, resource, location, evidence, reason: `${group}; matched as a whole, ${decision.why} (${whole.row.identifierUnknown}).`, suggestion: decision.advice ?? 'Check which identifier the migration gives the team (pass --teams-map): the group keeps matching only with the one it spells.', verdict: decision.verdict };
    }
    const holds = whole.row === 'group-holds';
    const reason = `${group} that, as a whole, ${holds ? 'matches the same entities before the migration and after it' : 'matches no entity before the migration nor after it'}.`;
    const suggestion = holds ? 'Nothing to change: the group keeps matching.' : 'Check what the group is meant to match: as written it lets no entity through, before or after the migration.';
    return partOfWhole(finding, whole.row, reason, suggestion);
  });
}

/** Said once a leaf is judged as part of its group, so a nested query judged again keeps it. */
const GROUP_SAID = 'group of $team rules';

/** Groups (`{combinator, rules}`, a scorecard's `{combinator, conditions}`) of a query, nested ones included, outermost first, with their paths. */
function* ruleGroups(query: JsonValue | undefined, path: Path): Generator<{ path: Path; key: string; combinator: JsonValue | undefined; rules: JsonObject[]; node: JsonObject }> {
  if (!isObject(query)) return;
  const key = Array.isArray(query.rules) ? 'rules' : 'conditions';
  const list = query[key];
  if (!Array.isArray(list)) return;
  const rules = list.filter(isObject);
  if (rules.length === list.length) yield { path, key, combinator: query.combinator, rules, node: query };
  for (const [i, rule] of list.entries()) if (isObject(rule)) yield* ruleGroups(rule, [...path, key, i]);
}

/**
 * A query as the whole-tree judge takes it, or undefined where some rule is one it cannot match
 * in both worlds (a jq or template value, a relation path, a property that holds team values).
 * Rules on other fields are read only where the blueprint, and so its entities, is known.
 */
export function ruleTree(catalog: Catalog, node: JsonObject, blueprint: string | undefined): RuleTree | undefined {
  const list = Array.isArray(node.rules) ? node.rules : Array.isArray(node.conditions) ? node.conditions : undefined;
  if (list !== undefined) {
    const rules = list.map((rule) => (isObject(rule) ? ruleTree(catalog, rule, blueprint) : undefined));
    return rules.every((rule) => rule !== undefined) ? { kind: 'group', combinator: node.combinator, rules: rules as RuleTree[] } : undefined;
  }
  const team = literalTeamLeaf(node);
  if (team !== undefined) return { kind: 'team', ...team };
  return blueprint === undefined ? undefined : fieldLeaf(catalog, node, blueprint);
}

/** A rule on an entity's own field that holds no team value, with literal values. */
function fieldLeaf(catalog: Catalog, rule: JsonObject, blueprint: string): RuleTree | undefined {
  const { property, operator, value } = rule;
  if (typeof property !== 'string' || typeof operator !== 'string') return undefined;
  const schema = catalog.blueprints.get(blueprint)?.schema;
  const inSchema = isObject(schema) && isObject(schema.properties) && Object.hasOwn(schema.properties, property);
  if (!['$identifier', '$title', '$blueprint'].includes(property) && (!inSchema || teamValuedProperties(catalog, blueprint).has(property))) return undefined;
  const scalar = (v: JsonValue): string | undefined => (typeof v === 'string' ? (v.includes('{{') || builtInKey(v) !== undefined ? undefined : v) : typeof v === 'number' || typeof v === 'boolean' ? scalarLiteral(v) : undefined);
  const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(scalar);
  if (builtInOf(value) !== undefined || values.some((v) => v === undefined)) return undefined;
  return { kind: 'field', property, operator, values: values as string[] };
}

/** A `$team` rule with literal string values, as the group judge takes it. */
function literalTeamLeaf(rule: JsonObject): { operator: string; values: string[] } | undefined {
  if (builtInOf(rule.value) !== undefined) return undefined;
  const values = typeof rule.value === 'string' ? [rule.value] : Array.isArray(rule.value) && rule.value.every((v) => typeof v === 'string') ? (rule.value as string[]) : undefined;
  // A template (`{{ .user.team }}`) is run with each world's user, not read as a literal.
  // A value the service fills ("My Teams" in a list) is the viewer's teams, no literal team.
  if (values === undefined || values.some((value) => value.includes('{{') || builtInKey(value) !== undefined) || rule.property !== '$team' || typeof rule.operator !== 'string') return undefined;
  return { operator: rule.operator, values };
}

/** A rule on a team value whose value or operator this tool cannot read or run: a review that says what. */
function notRun(base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, subject: string, side: string, what: string): FindingDraft {
  return {
    ...base,
    reason: `${subject} compares ${side} with ${what}, so what the migration does to it is unknown.`,
    suggestion: 'Check that the rule matches the same entities once $team holds team identifiers.',
    verdict: judgeSite('not-run'),
  };
}

/** A path rule that goes on through `$team` to something of the team (`["$team", "parent"]`). */
function throughTeam(base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, subject: string, hops: readonly string[]): FindingDraft {
  return {
    ...base,
    reason: `${subject} follows $team on to ${hops.map((h) => JSON.stringify(h)).join(' → ')}; the migration turns $team from team titles into a relation to _team entities, so what the path reaches must be checked.`,
    suggestion: 'Check that the path still reaches the intended team property once $team points at _team entities, and that the values it compares are what those entities hold.',
    verdict: judgeSite('through-team'),
  };
}

/**
 * Issue 39, item 4: a rule on a calculation derived from team values (`.team | join(", ")`) is
 * matched with the calculation run on an entity of each team in each world: titles before the
 * migration, identifiers after it. Which entities match, before and after, decides.
 */
function derivedRuleFinding(catalog: Catalog, site: SearchRuleSite, property: string, calculation: string): FindingDraft | undefined {
  const value = valueParts(site.rule.value, site, catalog.jq, true);
  const base = { category: site.category, resource: site.resource, location: joinPath(...site.path), evidence: JSON.stringify(site.rule) };
  const subject = `${site.subject} on calculation property "${property}" (derived from $team by ${JSON.stringify(calculation)})`;
  // What the rule holds is said, never dropped: a value this tool cannot read or run is a review.
  if (value.unknown !== undefined || value.parts.some((part) => part.kind !== 'literals')) {
    const what = value.unknown ?? describeParts(value.parts.filter((part) => part.kind !== 'literals'));
    return {
      ...base,
      reason: `${subject} compares it with ${what}, so what the migration does to it is unknown.`,
      suggestion: 'Check that the rule matches the same entities once $team holds team identifiers.',
      verdict: judgeSite('not-run'),
    };
  }
  // The calculations it reads hold what they compute on the entity (`.properties.lead | ascii_downcase`).
  const seen = derivedSeen(calculation, allDerivedTeamProperties(catalog, site.blueprint));
  const derived = catalog.jq && seen.size > 0 ? { jq: catalog.jq, properties: [...seen] } : undefined;
  const today = catalog.jq && stateAt(catalog, site.blueprint).migrated ? computedToday(catalog, catalog.jq, site.blueprint, calculation, derived) : undefined;
  return judgedRuleFinding(catalog, { ...site, subject }, base, { kind: 'values', parts: [{ kind: 'jq', expression: calculation, sample: 'entity', ...(derived && { derived }) }] }, value.parts, [], undefined, today);
}

/**
 * Once migrated, the strings (and scalars, as a rule compares them) a calculation gives today: on the
 * blueprint's entities as the org holds them, and on an entity of each of the org's teams alone, holding its identifier.
 */
function computedToday(catalog: Catalog, jq: JqEngine, blueprint: string | undefined, calculation: string, derived: ContextSpec['derived']): string[] {
  const own = blueprint === undefined ? [] : entitiesRead(catalog, blueprint).map((entity): JsonValue => ({ ...entity, properties: isObject(entity.properties) ? { ...entity.properties } : {} }));
  const teams = [...catalog.teams.byTitle.values()].flatMap((team) => (team.identifier === undefined ? [] : [contextFor('entity', { label: '', teams: () => [{ title: team.title, identifier: team.identifier! }] }, 'after', [], [])]));
  const inputs = fillDerived([...own, ...teams], derived);
  const strings = (value: JsonValue | undefined): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : isObject(value) || value === undefined ? [] : [scalarLiteral(value)]);
  return inputs.flatMap((input) => {
    const result = jq.evaluate(input, calculation);
    return result.ok ? result.values.flatMap(strings) : [];
  });
}

/**
 * A rule on a property that copies `$team` is judged as the same rule on `$team`; what the reader
 * sees and copies names the property again.
 */
function teamPropertyRuleFinding(catalog: Catalog, site: SearchRuleSite, property: string): FindingDraft | undefined {
  const mirrored = site.blueprint === undefined || catalog.teamMirrors.get(site.blueprint)?.has(property) === true;
  const { teamProperties: _, ...plain } = site;
  const asTeam = searchRuleFinding(catalog, { ...plain, rule: { ...site.rule, property: '$team' }, subject: `${site.subject} ${mirrored ? `on mirror property "${property}" (a copy of $team)` : `on calculation property "${property}" (it passes the values of $team on)`}` });
  // A {jqQuery} value is judged as jq: its evidence and rewrite are the expression, not the rule.
  if (!asTeam || isObject(site.rule.value)) return asTeam;
  const finding: FindingDraft = { ...asTeam, evidence: JSON.stringify(site.rule) };
  if (asTeam.rewrite !== undefined) {
    finding.rewrite = JSON.stringify({ ...(JSON.parse(asTeam.rewrite) as JsonObject), property });
    finding.suggestion = `Use the identifier: ${finding.rewrite}.`;
  }
  return finding;
}
