/**
 * Issue 39: the repository's judge, the one file of src/repo that asks src/judge. Readers name
 * sites (file-sites.ts); every file's sites are judged here at once: jq's work is planned over all
 * of them and asked in batches, then each site becomes its findings, placed at its file's lines.
 */
import { buildCatalog } from '../catalog/build-catalog.js';
import { relationsOf } from '../catalog/inheritance.js';
import { mirrorsOf } from '../catalog/mirror-paths.js';
import { catalogOf, type Catalog } from '../catalog/catalog.js';
import { dropPrototypes, isObject, markPrototypeFree, type JsonObject, type JsonValue } from '../model/json.js';
import type { Category, FindingDraft, Verdict } from '../model/finding.js';
import { emptySnapshot, type OrgSnapshot } from '../model/snapshot.js';
import { RULES } from '../rules/index.js';
import type { Rule } from '../rules/rule.js';
import { PlanningEngine, prefetchPlanned } from '../jq/prefetch-rules.js';
import { judgeRule } from '../judge/site-judge.js';
import { searchRuleFinding } from '../judge/search-rule-finding.js';
import { memoisedJudge } from '../judge/expression-memo.js';
import { judgeSite, worstVerdict } from '../judge/decision-table.js';
import { allDerivedTeamProperties } from '../judge/team-valued.js';
import { unknownStateWords, type RepoContext } from './context.js';
import type { FileResource } from './file-resources.js';
import type { FileDraft, FileSite, SiteView } from './file-sites.js';
import { byLine, fileFinding, rewriteSpan, RUN_TIME_MARK, teamValuesFinding, type Edit } from './findings.js';
import { located, originOf, stringField, toSourceMapped, type LocatedJson, type Origin, type SourceMapped } from './located-json.js';
import { sharedTitleFinding } from './terraform.js';
import { snapshotSlot } from './repository-catalog.js';
import { callValue, REFERENCE, type Problems } from './tree-to-json.js';
import { findEntry, normalizeKey, spanLine, spanText, type Entry, type Span, type TreeNode } from './tree.js';
import { ownershipRewrite, type OwnershipValue, type Syntax } from './ownership-rewrite.js';
import { redactFinding, secretFragments } from './redact-findings.js';
import { appendAll } from '../model/arrays.js';
import { parsedJson } from '../parse-json.js';
import { LayeredSets } from './layered-sets.js';
import { bulkTeamsFinding, teamInputFinding } from './workflows.js';

/** One reading of a file: its sites, the context they are judged in, where a rule that fails is noted. */
export interface Reading {
  sites: readonly FileSite[];
  ctx: RepoContext;
  problems: Problems;
}

/**
 * The findings of every reading of a scan, in order. Judging them asks jq, one call at a time, so
 * what every site will ask is planned first over all of them and answered in a few large requests
 * (src/jq/prefetch-rules.ts): each plan remembers its made-up verdicts for itself; a verdict
 * reached with jq's answers alone, in a plan or after, holds for the whole scan: each distinct
 * expression and context is judged once after the plans (src/judge/expression-memo.ts). The plans
 * judge with the scan's own team directory: the contexts the judge builds and keeps per directory
 * are filled with jq's real answers in a plan too (PlanningEngine `fillsWith`), so the later passes
 * take them, and the teams each expression runs with, as the plans left them (issue 41).
 *
 * Each file's snapshot and catalog are built once and judged in every pass (`KeptCatalogs`), and
 * what their calculations do with team values is found with jq's real answers before the plans
 * (`learnTeamValued`): the judge keeps that per catalog only when a real engine found it, so each
 * plan found it again at every calculation it judged (issue 41: 2 s of a 10 s scan's CPU, profiled).
 */
export function judgeReadings(readings: readonly Reading[]): FindingDraft[][] {
  const real = readings.find((reading) => reading.ctx.jq)?.ctx.jq;
  // One engine and one memo for the plans and the real judging: see PlanningEngine (issue 41).
  const jq = real && new PlanningEngine(real);
  const judgeExpression = memoisedJudge(undefined, jq && (() => jq.madeUp()));
  const kept = new Map<Reading, KeptCatalogs>(readings.map((reading) => [reading, new Map()]));
  const asking = readings.filter((reading) => reading.sites.some(asksJq));
  if (jq) {
    learnTeamValued(jq, asking, kept);
    prefetchPlanned(
      real!,
      asking,
      () => {
        // Each plan also remembers the verdicts it made up, for itself alone.
        const planned = memoisedJudge(judgeExpression);
        return (reading, engine) => {
          try {
            judgeSites(reading.sites.filter(asksJq), { ...reading.ctx, jq: engine, judgeExpression: planned, planning: true }, [], kept.get(reading));
          } catch {
            // The real judging reports what fails.
          }
        };
      },
      2,
      jq,
    );
  }
  return readings.map((reading) => judgeSites(reading.sites, { ...reading.ctx, ...(jq && { jq }), judgeExpression }, reading.problems, kept.get(reading)));
}

/**
 * What the calculations of every file's catalog do with team values (passed on, derived), found
 * with jq's real answers and kept by the judge per catalog: planned over all catalogs, asked in
 * batches, then found for real. A catalog that cannot be built is left to the judging, which
 * reports it.
 */
function learnTeamValued(jq: PlanningEngine, readings: readonly Reading[], kept: ReadonlyMap<Reading, KeptCatalogs>): void {
  const catalogs: Catalog[] = [];
  for (const reading of readings) {
    for (const site of reading.sites) {
      if (site.kind !== 'resources') continue;
      distinctBlueprints(site.resources).forEach((batch, index) => {
        try {
          catalogs.push(keptBatch(batch, site.resources, index, reading.ctx, kept.get(reading)).catalog);
        } catch {
          // Judged, and reported, with the rest of the file.
        }
      });
    }
  }
  const found = (catalog: Catalog) => {
    try {
      allDerivedTeamProperties(catalog);
    } catch {
      // The judging asks again, and reports what fails.
    }
  };
  // One plan: over the bench's 500 catalogs a second, where jq's answers lead, found no call more and
  // cost 0.45 s of 10 s of planning (profiled). What it runs the plan has compiled too.
  prefetchPlanned(jq.real, catalogs, () => (catalog, engine) => found(catalogOf({ ...catalog, jq: engine })), 1, jq);
  for (const catalog of catalogs) found(catalogOf({ ...catalog, jq }));
}

/** The sites whose judging may ask jq: resources judged by the org's rules, and search queries. */
const asksJq = (site: FileSite): boolean => site.kind === 'resources' || site.kind === 'step-query';

/** The findings of one reading's sites, in the order of the file's lines. */
function judgeSites(sites: readonly FileSite[], ctx: RepoContext, problems: Problems, kept?: KeptCatalogs): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const unlessReported: { draft: FileDraft; location: string }[] = [];
  for (const site of sites) {
    if (site.kind === 'settled' && site.unlessReported !== undefined) unlessReported.push({ draft: site.draft, location: site.unlessReported });
    else appendAll(findings, shown(siteFindings(site, ctx, problems, kept), site.view));
  }
  for (const { draft, location } of unlessReported) if (!findings.some((finding) => finding.location === location)) findings.push(...settled(draft));
  return ctx.planning ? [] : byLine(findings);
}

const sentence = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

function siteFindings(site: FileSite, ctx: RepoContext, problems: Problems, kept: KeptCatalogs | undefined): FindingDraft[] {
  switch (site.kind) {
    case 'resources':
      return judgeFileResources(site.resources, { syntax: site.syntax, ctx, problems, ...(site.note !== undefined && { note: site.note }), ...(kept && { kept }) });
    case 'team-values':
      return settled(teamValuesFinding(site.entry, 'external-ownership', ctx, site.title, site.what));
    case 'step-team':
      return settled(teamInputFinding(site.entry, site.text, ctx, site.title));
    case 'step-entities':
      return settled(bulkTeamsFinding(site.entry, site.text, ctx, site.title));
    case 'shared-title':
      return settled(sharedTitleFinding(site.name, ctx, site.label));
    case 'settled':
      return settled(site.draft);
    case 'step-query': {
      // Judged by the org's own search-rule judgement, in the repository's catalog: the context's teams, state and removed relations, no resources.
      const catalog = fileCatalog(fileSnapshot([], ctx).snapshot, ctx);
      const common = {
        category: 'external-ownership' as const,
        resource: { type: 'file' as const, identifier: site.node.span.source.path },
        subject: "The step's search rule",
        removedRelations: ctx.removedRelations,
        ...(site.blueprint !== undefined && { blueprint: site.blueprint }),
      };
      const drafts = site.rules.flatMap(({ path, rule }) => searchRuleFinding(catalog, { ...common, path, rule }) ?? []);
      return drafts.flatMap((draft) => {
        const found = originOf(site.origins, draft.location);
        return found ? [manualFinding(draft, found.origin, found.exact, site.title)] : [];
      });
    }
  }
}

/** A reader's finding with its verdict set from the site table, where the reader wrote `settles`. */
function settled(draft: FileDraft | undefined): FindingDraft[] {
  if (draft === undefined) return [];
  if (draft.settles === undefined) return [draft];
  return [Object.fromEntries(Object.entries(draft).map(([key, value]) => (key === 'settles' ? ['verdict', judgeSite(draft.settles!)] : [key, value]))) as FindingDraft];
}

/** Findings as their site's view shows them (site-files.ts `SiteView`). */
function shown(findings: readonly FindingDraft[], view: SiteView | undefined): FindingDraft[] {
  if (!view) return [...findings];
  return findings.map((judged) => {
    let finding = judged;
    if (view.spliced) {
      // The evidence is what the shell sends, its expansions written as in the script; a rewrite over
      // spliced text would drop the shell's quotes: the finding stands, its text to copy does not.
      finding = { ...finding, evidence: finding.evidence.replaceAll(RUN_TIME_MARK, '$') };
      if (finding.rewrite !== undefined && !view.spliced.text.includes(finding.evidence)) finding = withoutRewrite(finding);
    }
    return view.noRewrite ? withoutRewrite(finding) : finding;
  });
}

const withoutRewrite = ({ rewrite: _rewrite, rewriteProof: _proof, ...finding }: FindingDraft): FindingDraft => finding;

/** The verdict of a file's findings taken together (a mapping file an integration of the org reads). */
export const fileVerdict = (findings: readonly FindingDraft[]): Verdict => worstVerdict(findings.map((finding) => finding.verdict));

interface FileJudgement {
  /** The file's syntax, so rewrites are written the way the file writes them. */
  syntax: Syntax;
  ctx: RepoContext;
  problems: Problems;
  /** Added to every finding (a mapping kept in a repository file). */
  note?: string;
  /** The org's rules; tests pass others. */
  rules?: readonly Rule[];
  /** The file's batches as built in an earlier pass over the same reading, to judge again. */
  kept?: KeptCatalogs;
}

/** A batch of a file's resources as judged: its snapshot, where each resource is written, and its catalog. */
interface BatchCatalog {
  placed: Map<string, Placed>;
  foreign: number;
  catalog: Catalog;
}

/** One reading's batches by its resource list, in the order `distinctBlueprints` gives them. */
type KeptCatalogs = Map<readonly FileResource[], BatchCatalog[]>;

interface Placed extends SourceMapped {
  resource: FileResource;
}

/**
 * Judge a file's resources with the org's rules: they are put in a snapshot of their own, given
 * the org's teams, removed relations, jq and migrated flag, and every finding is mapped back to
 * the line its JSON path was written on.
 */
export function judgeFileResources(resources: readonly FileResource[], judgement: FileJudgement): FindingDraft[] {
  const batch = (resourcesOfBatch: readonly FileResource[], index: number) => judgeBatch(resourcesOfBatch, judgement, keptBatch(resourcesOfBatch, resources, index, judgement.ctx, judgement.kept));
  if (judgement.ctx.planning) {
    distinctBlueprints(resources).forEach(batch);
    return [];
  }
  const secrets = new Set<string>();
  for (const resource of resources) secretFragments(resource.value, false, secrets);
  const findings = distinctBlueprints(resources).flatMap(batch);
  return byLine(findings.map((finding) => redactFinding(finding, secrets)));
}

/** A catalog holds one blueprint per identifier: a file that defines one twice is judged in batches. */
function distinctBlueprints(resources: readonly FileResource[]): FileResource[][] {
  const batches: { taken: Set<string>; resources: FileResource[] }[] = [];
  for (const resource of resources) {
    const id = resource.kind === 'blueprint' ? stringField(resource.value, 'identifier') : undefined;
    let batch = batches.find((b) => id === undefined || !b.taken.has(id));
    if (!batch) batches.push((batch = { taken: new Set(), resources: [] }));
    if (id !== undefined) batch.taken.add(id);
    batch.resources.push(resource);
  }
  return batches.map((b) => b.resources);
}

/**
 * A batch's snapshot and catalog, built the first time a pass judges it and kept in `kept`: they
 * hold nothing of a pass but jq, the team directory and the memo, which each pass sets on its own
 * copy. The judge keeps what it finds per catalog by its blueprints, by the engine
 * that found it, so a plan's answers never reach the real judging.
 */
function keptBatch(resources: readonly FileResource[], list: readonly FileResource[], index: number, ctx: RepoContext, kept: KeptCatalogs | undefined): BatchCatalog {
  const built = kept?.get(list)?.[index];
  if (built) return { ...built, catalog: catalogOf({ ...built.catalog, teams: ctx.teams, jq: ctx.jq, judgeExpression: ctx.judgeExpression }) };
  const { snapshot, placed, foreign } = fileSnapshot(resources, ctx);
  const made = { placed, foreign, catalog: fileCatalog(snapshot, ctx) };
  if (kept) {
    let batches = kept.get(list);
    if (!batches) kept.set(list, (batches = []));
    batches[index] = made;
  }
  return made;
}

function judgeBatch(resources: readonly FileResource[], judgement: FileJudgement, { placed, foreign, catalog }: BatchCatalog): FindingDraft[] {
  if (resources.length === 0) return [];
  // The same without the other files' blueprints: an odd blueprint elsewhere must not fail a rule here.
  let alone: Catalog | undefined;
  const fileAlone = (): Catalog => (alone ??= fileCatalog(fileSnapshot(resources, { ...judgement.ctx, repositoryBlueprints: [] }).snapshot, judgement.ctx));
  const findings: FindingDraft[] = [];
  const { planning } = judgement.ctx;
  for (const rule of judgement.rules ?? RULES) {
    if (planning && rule.asksJq === false) continue;
    let drafts: FindingDraft[];
    try {
      drafts = checkRule(rule, catalog, foreign > 0 ? fileAlone : undefined);
    } catch (error) {
      // As in the org: a rule that throws leaves its category unchecked (incomplete), never a crash.
      const line = spanLine(resources[0]!.value.origin.node.span);
      judgement.problems.push({ line, reason: `rule ${rule.category} failed on this file: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    if (planning) continue;
    for (const draft of drafts) {
      const target = placedFor(draft, placed);
      const finding = target && mapFinding(draft, target, judgement);
      if (finding) findings.push(judgement.note !== undefined ? { ...finding, note: [finding.note, judgement.note].filter(Boolean).join('; ') } : finding);
    }
  }
  if (planning) return [];
  for (const target of placed.values()) {
    const kept = keptOwnershipFinding(target, judgement);
    if (kept) findings.push(kept);
  }
  return findings;
}

/**
 * A blueprint whose org counterpart holds (or gets from the migration) Inherited ownership, or
 * Direct ownership set in the service, while this copy declares none: the provider's next apply
 * sends the blueprint without it (ownership is optional, not computed) and strips it. The Direct
 * case the migration sets from entity teams is ownership-direct's (directOwnershipFinding).
 */
function keptOwnershipFinding(target: Placed, judgement: FileJudgement): FindingDraft | undefined {
  const { ctx, syntax } = judgement;
  if (!appliedEveryTime(syntax)) return undefined;
  if (target.resource.kind !== 'blueprint' || target.json.ownership !== undefined || target.json.teamInheritance !== undefined) return undefined;
  const identifier = typeof target.json.identifier === 'string' ? target.json.identifier : undefined;
  const ownership = identifier !== undefined && !ctx.directOwnership.has(identifier) ? ctx.ownershipAfter?.get(identifier) : undefined;
  if (!ownership || identifier === '_team' || identifier === '_user') return undefined;
  const reason = `In the org "${identifier}" has ${ownership.type} ownership${ownership.path !== undefined ? ` over "${ownership.path}"` : ''} once migrated; this copy declares none, so its next apply sends the blueprint without ownership and strips it.`;
  return ownershipToAdd(target, resourceTitle(target, ''), syntax, ownership, reason);
}

/** A rule on the file with the repository's blueprints, or, when that throws, on the file alone. */
function checkRule(rule: Rule, catalog: Catalog, fileAlone: (() => Catalog) | undefined): FindingDraft[] {
  try {
    return judgeRule(catalog, rule);
  } catch (error) {
    if (!fileAlone) throw error;
    return judgeRule(fileAlone(), rule);
  }
}

/** Resources keep their own identifiers only where rules look them up (blueprints); the rest are `#n`, unique in the file. */
function fileSnapshot(resources: readonly FileResource[], ctx: RepoContext): { snapshot: OrgSnapshot; placed: Map<string, Placed>; foreign: number } {
  const snapshot = emptySnapshot({ id: 'file', name: 'file' });
  const placed = new Map<string, Placed>();
  resources.forEach((resource, index) => {
    const key = `#${index}`;
    const slot = resource.kind === 'blueprint' ? undefined : snapshotSlot(snapshot, resource.kind);
    if (slot && 'map' in slot) {
      const mapped = toSourceMapped(resource.value, ['permissions']);
      slot.map[key] = mapped.json;
      placed.set(key, Object.assign(mapped, { resource }));
      return;
    }
    // A mapping config file is an integration's `config`.
    const value = resource.kind === 'integration' && !resource.value.fields.has('config') ? located.object(resource.value.origin, [['config', resource.value]]) : resource.value;
    const mapped = toSourceMapped(value);
    if (resource.kind === 'blueprint') {
      const identifier = stringField(value, 'identifier') ?? key;
      mapped.json.identifier = identifier;
      snapshot.blueprints.push(mapped.json);
      if (!placed.has(identifier)) placed.set(identifier, Object.assign(mapped, { resource }));
      // The org's entities of this blueprint carry team values: the rules see them as the org's do.
      if (ctx.directOwnership.has(identifier)) snapshot.entities![identifier] = [{ identifier: '(org entity)', team: ['(org team)'] }];
      return;
    }
    mapped.json[resource.kind === 'integration' ? 'installationId' : 'identifier'] = key;
    (slot as { list: JsonObject[] }).list.push(mapped.json);
    placed.set(key, Object.assign(mapped, { resource }));
  });
  // Blueprints of the repository's other files: their facts (removed relations, $team mirrors) hold
  // here too; they are not placed, so what the rules say about them is reported in their own file.
  // A file of blueprints alone gets only those its blueprints reach (issue 33): with every one, each
  // file was judged with the whole repository, and a scan's time grew with its square. So does one
  // that also holds blueprint or page permissions (issue 41: a Terraform stack writes a blueprint's
  // permissions beside it): their rule reads only their team lists and the org's teams.
  let foreign = 0;
  const taken = new Set(snapshot.blueprints.map((b) => b.identifier));
  const reach = resources.length > 0 && resources.every((r) => READ_WITH_REACHED_BLUEPRINTS.has(r.kind)) ? reachedBlueprints(resources, ctx) : undefined;
  for (const blueprint of reach ? reachedInOrder(reach, ctx.repositoryBlueprints ?? []) : (ctx.repositoryBlueprints ?? [])) {
    if (resources.includes(blueprint)) continue;
    const identifier = stringField(blueprint.value, 'identifier');
    if (identifier === undefined || taken.has(identifier) || (reach && !reach.has(identifier))) continue;
    taken.add(identifier);
    snapshot.blueprints.push(plainBlueprint(blueprint));
    foreign++;
  }
  foreign += addMirrorHops(snapshot.blueprints, ctx.orgBlueprints);
  return { snapshot, placed, foreign };
}

/**
 * Resources whose rules need no repository blueprint beyond those they reach: blueprints, and
 * the permissions only team-permission-identifiers reads (team lists against the org's teams; an
 * action's permissions hold policies, judged with every relation the repository removes).
 */
const READ_WITH_REACHED_BLUEPRINTS: ReadonlySet<FileResource['kind']> = new Set(['blueprint', 'blueprint-permissions', 'page-permissions']);

/**
 * A repository blueprint as plain JSON for the files judged with it, made once (the catalogs only
 * read it), prototype-free and marked so, not walked again for each file. Without its calculations
 * (issue 41): only the calculation rule reads them, and what it finds in this blueprint is its own
 * file's finding, dropped in every other; judged again in each file that reaches the blueprint,
 * they were most of a scan's time.
 */
const plainBlueprints = new WeakMap<FileResource, JsonObject>();
function plainBlueprint(blueprint: FileResource): JsonObject {
  let json = plainBlueprints.get(blueprint);
  if (!json) {
    const { calculationProperties: _judgedInItsFile, ...context } = toSourceMapped(blueprint.value).json;
    plainBlueprints.set(blueprint, (json = dropPrototypes(context)));
    markPrototypeFree(json);
  }
  return json;
}

/** Where the first definition of each blueprint identifier stands in the repository's list, as the snapshot takes them. */
const firstDefinitions = new WeakMap<readonly FileResource[], Map<string, number>>();
function firstDefinition(blueprints: readonly FileResource[]): Map<string, number> {
  let index = firstDefinitions.get(blueprints);
  if (index) return index;
  firstDefinitions.set(blueprints, (index = new Map()));
  for (const [position, blueprint] of blueprints.entries()) {
    const identifier = stringField(blueprint.value, 'identifier');
    if (identifier !== undefined && !index.has(identifier)) index.set(identifier, position);
  }
  return index;
}

/**
 * The first definition of each reached identifier, in the repository's order: the blueprints the
 * loop over every repository blueprint would keep for this file, found without that loop (issue 41:
 * it ran once per judged file over every blueprint of the repository, a cost growing with files ×
 * blueprints). A later definition of an identifier is never kept (the first one's identifier is taken).
 */
function reachedInOrder(reach: ReadonlySet<string>, blueprints: readonly FileResource[]): FileResource[] {
  const index = firstDefinition(blueprints);
  const positions = [...reach].flatMap((identifier) => index.get(identifier) ?? []);
  return positions.sort((a, b) => a - b).map((position) => blueprints[position]!);
}

/**
 * The identifiers of the repository's (and the org's) blueprints that `resources` name, and those
 * these name in turn: every relation target, inheritance or mirror hop is a string equal to one.
 */
function reachedBlueprints(resources: readonly FileResource[], ctx: RepoContext): Set<string> {
  const blueprints = ctx.repositoryBlueprints ?? [];
  const repository = firstDefinition(blueprints);
  const org = ctx.orgBlueprints;
  const reached = new Set<string>();
  const written: LocatedJson[] = resources.map((resource) => resource.value);
  const fromOrg: JsonValue[] = [];
  const visit = (text: string) => {
    if (reached.has(text)) return;
    const position = repository.get(text);
    const inRepository = position !== undefined ? blueprints[position] : undefined;
    const inOrg = org?.get(text);
    if (!inRepository && !inOrg) return;
    reached.add(text);
    if (inRepository) written.push(inRepository.value);
    if (inOrg) fromOrg.push(inOrg);
  };
  while (written.length > 0 || fromOrg.length > 0) {
    if (written.length > 0) locatedStrings(written.pop()!, visit);
    else plainStrings(fromOrg.pop()!, visit);
  }
  return reached;
}

function locatedStrings(value: LocatedJson, visit: (text: string) => void): void {
  if (value.kind === 'scalar') {
    if (typeof value.value === 'string') visit(value.value);
    return;
  }
  for (const item of value.kind === 'array' ? value.items : value.fields.values()) locatedStrings(item, visit);
}

function plainStrings(value: JsonValue | undefined, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (typeof value === 'object' && value !== null) for (const item of Array.isArray(value) ? value : Object.values(value)) plainStrings(item, visit);
}

/**
 * The org's blueprints a mirror path of the file hops through (`workload.service.$team`, with
 * `workload` or `service` only in the org): added, not placed, so the path is followed to its end.
 */
function addMirrorHops(blueprints: JsonObject[], org: ReadonlyMap<string, JsonObject> | undefined): number {
  if (!org || org.size === 0) return 0;
  const byId = new Map(blueprints.map((b) => [String(b.identifier), b]));
  let added = 0;
  for (const blueprint of [...blueprints]) {
    for (const mirror of mirrorsOf(blueprint)) {
      let current: JsonObject | undefined = blueprint;
      for (const segment of mirror.path.split('.').slice(0, -1)) {
        if (segment.startsWith('$') || !current) break;
        const target = relationsOf(current)[segment]?.target;
        if (typeof target !== 'string') break;
        let next = byId.get(target);
        const fromOrg = org.get(target);
        if (!next && fromOrg) {
          blueprints.push((next = fromOrg));
          byId.set(target, fromOrg);
          added++;
        }
        current = next;
      }
    }
  }
  return added;
}

function fileCatalog(snapshot: OrgSnapshot, ctx: RepoContext): Catalog {
  const base = buildCatalog(snapshot, ctx.jq ? { jq: ctx.jq } : {});
  const removedRelations = mergeSets(ctx.removedByBlueprint, base.removedRelations);
  return catalogOf({
    ...base,
    teams: ctx.teams,
    migrated: ctx.migrated ?? false,
    stateUnknown: ctx.stateUnknown && unknownStateWords(ctx.stateUnknown),
    // The migration rewrites the org, never a file: a file's old shape is what its copy must still change.
    migrationRan: false,
    removedRelations,
    allRemovedRelations: base.allRemovedRelations.size === 0 ? ctx.removedRelations : new Set([...ctx.removedRelations, ...base.allRemovedRelations]),
    teamMirrors: mergeSets(ctx.teamMirrors, base.teamMirrors),
    judgeExpression: ctx.judgeExpression,
  });
}

/**
 * The org's facts per blueprint, with the files' own added (a file may define more than the org knows).
 * Most files add none: they then share the org's, with no copy per file (issue 33); the others read
 * the org's through (layered-sets.ts), never copied (issue 41). Rules only read them.
 */
function mergeSets(org: ReadonlyMap<string, ReadonlySet<string>> | undefined, files: ReadonlyMap<string, ReadonlySet<string>>): ReadonlyMap<string, ReadonlySet<string>> {
  if (!org) return files;
  return files.size === 0 ? org : new LayeredSets(org, files);
}

function placedFor(draft: FindingDraft, placed: ReadonlyMap<string, Placed>): Placed | undefined {
  const key = /#\d+/.exec(draft.resource.identifier)?.[0];
  return placed.get(key ?? draft.resource.identifier);
}

/**
 * How a resource is named in its file's findings: `action deploy`, `blueprint service`; a
 * mapping config's mappings by kind and blueprint, as the integration's own UI lists them.
 */
function resourceTitle(target: Placed, location: string): string | undefined {
  const { resource } = target;
  if (resource.kind === 'integration') {
    const index = /^config\.resources\[(\d+)\]/.exec(location)?.[1];
    const config = isObject(target.json.config) ? target.json.config : undefined;
    const entry = index !== undefined && Array.isArray(config?.resources) ? config.resources[Number(index)] : undefined;
    if (isObject(entry) && typeof entry.kind === 'string') {
      const mappingIndex = /\.mappings\[(\d+)\]/.exec(location)?.[1];
      const port = isObject(entry.port) && isObject(entry.port.entity) ? entry.port.entity.mappings : undefined;
      const mapping = Array.isArray(port) ? port[Number(mappingIndex ?? 0)] : port;
      const blueprint = isObject(mapping) && typeof mapping.blueprint === 'string' ? ` → blueprint ${mapping.blueprint}` : '';
      return `mapping of kind "${entry.kind}"${blueprint}`;
    }
  }
  const literal = resource.identifier !== undefined && !REFERENCE.test(resource.identifier) ? resource.identifier : undefined;
  const name = literal ?? resource.label;
  return name !== undefined ? `${resource.kind} ${name}` : undefined;
}

function mapFinding(draft: FindingDraft, target: Placed, judgement: FileJudgement): FindingDraft | undefined {
  const title = resourceTitle(target, draft.location);
  const found = originOf(target.origins, draft.location) ?? { origin: target.resource.value.origin, exact: false };
  switch (draft.category) {
    case 'ownership-inherited':
    case 'team-relation-removed':
      return inheritanceFinding(target, title, judgement.syntax, draft.category);
    case 'ownership-direct':
      return directOwnershipFinding(target, title, judgement.syntax);
    case 'relation-ownership':
      // A relation whose name does not say owner is one the rule itself leaves alone (its `review` says nothing
      // needs to move), and once the org has migrated the data move is the org's past, not a change to a file.
      if (draft.verdict === 'review' || judgement.ctx.migrated) return undefined;
      // A relation to _team is written for an org that has _team: the beta's, where the data must
      // move, or a migrated one, where nothing is left to move. No file saying which, a person decides.
      if (judgement.ctx.stateUnknown) {
        return manualFinding(
          { ...draft, reason: `${draft.reason} ${sentence(unknownStateWords(judgement.ctx.stateUnknown))}: if it has, there is nothing to move (give --snapshot or a live org to decide).`, verdict: judgeSite('state-unknown') },
          found.origin,
          found.exact,
          title,
        );
      }
      return manualFinding(draft, found.origin, found.exact, title);
    case 'team-permission-identifiers': {
      const { origin } = found;
      const entry = origin.entry ?? { key: 'teams', keySpan: origin.node.span, value: origin.node, span: origin.node.span };
      return settled(teamValuesFinding(entry, 'team-permission-identifiers', judgement.ctx, title, '`teams`'))[0];
    }
    default:
      return manualFinding(draft, found.origin, found.exact, title);
  }
}

const spanOf = (origin: Origin): Span => origin.entry?.span ?? origin.node.span;

/** A manual finding at its line: the rule's judgement, the file's text as evidence and rewrite. */
function manualFinding(draft: FindingDraft, origin: Origin, exact: boolean, title: string | undefined): FindingDraft {
  const rewrite = draft.rewrite !== undefined ? fileRewrite(draft, origin, exact) : undefined;
  // fileFinding leaves out what is undefined. The kit writes only proven rewrites: a suggested one (a guessed identifier) stays one in the file.
  const { category, reason, suggestion, verdict, rewriteProof, note, noteOnly } = draft;
  return fileFinding(spanOf(origin), title, { category, reason, suggestion, verdict, rewrite, ...(rewrite !== undefined && { rewriteProof }), note, noteOnly });
}

/** The rule's rewrite in the file's own text where its values can be placed, else as the rule wrote it. */
function fileRewrite(draft: FindingDraft, origin: Origin, exact: boolean): string {
  const rewrite = draft.rewrite!;
  const span = spanOf(origin);
  const node = origin.node;
  // Only a value written at the finding's own path can take its rewrite in place.
  if (!exact) return rewrite;
  const parsed = parsedJson(rewrite);
  if (node.kind === 'string' && node.value === draft.evidence) {
    // An object or array the rule offers for a string (the value moves to another key) is not the
    // string's new text: splicing it in would write JSON into the string. A jq list stays a jq list.
    if (isContainer(parsed) && containerKind(parsedJson(node.value)) !== containerKind(parsed)) return rewrite;
    return rewriteSpan(span, [{ node, value: rewrite }]);
  }
  if (parsed === undefined) return rewrite;
  const edits: Edit[] = [];
  if (!valueEdits(node, parsed, edits) || edits.length === 0) return rewrite;
  return rewriteSpan(span, edits);
}

const isContainer = (value: JsonValue | undefined): boolean => typeof value === 'object' && value !== null;
const containerKind = (value: JsonValue | undefined): string | undefined => (isContainer(value) ? (Array.isArray(value) ? 'array' : 'object') : undefined);

/** Edits that turn the written `node` into `value`, string by string; false when some change has no place in the text. */
function valueEdits(node: TreeNode, value: JsonValue, edits: Edit[]): boolean {
  // `jsonencode({…})`, `JSON.stringify({…})`: the value is written inside the call, and edited there.
  if (node.kind === 'call') {
    const inner = callValue(node);
    return inner !== undefined && valueEdits(inner, value, edits);
  }
  if (node.kind === 'string') {
    if (typeof value !== 'string') return false;
    if (value !== node.value) edits.push({ node, value });
    return true;
  }
  if (node.kind === 'list') {
    if (!Array.isArray(value) || value.length !== node.items.length) return false;
    return node.items.every((item, index) => valueEdits(item, value[index]!, edits));
  }
  if (node.kind === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).every(([key, child]) => {
      const entry = findEntry(node, key) ?? node.entries.find((e) => normalizeKey(e.key) === normalizeKey(key));
      if (!entry) return false;
      return child === undefined || valueEdits(entry.value, child, edits);
    });
  }
  return node.kind !== 'object' && spanText(node.span).trim() === JSON.stringify(value);
}

/**
 * `teamInheritance` kept in a file: the file must switch to `ownership` itself (today's repository
 * semantics). A copy that already declares ownership beside it is judged by its ownership: the
 * service ignores the inheritance then, and the migration changes nothing the copy says.
 */
function inheritanceFinding(target: Placed, title: string | undefined, syntax: Syntax, category: Category): FindingDraft | undefined {
  const origin = target.origins.get('teamInheritance');
  const entry = origin?.entry;
  if (!entry || target.json.ownership !== undefined) return undefined;
  const path = typeof target.json.teamInheritance === 'object' && target.json.teamInheritance !== null && !Array.isArray(target.json.teamInheritance) ? (target.json.teamInheritance.path as string | undefined) : undefined;
  // The beta case: inheritance over a direct `_team` relation becomes Direct ownership, the relation goes.
  const relationRemoved = category === 'team-relation-removed';
  const ownership = relationRemoved ? { type: 'Direct' as const } : path !== undefined ? { type: 'Inherited' as const, path } : undefined;
  // `team_inheritance = var.x`: the entry is the variable's line, where an ownership block has no place.
  const inPlace = entry.span.source === target.resource.value.origin.node.span.source && entry.key !== undefined && /inheritance/i.test(entry.key);
  const rewrite = ownership && inPlace ? ownershipRewrite(entry, syntax, ownership) : undefined;
  return fileFinding(entry.span, title, {
    category: 'external-ownership',
    reason: relationRemoved
      ? `This file keeps team inheritance over "${path}", a direct relation to _team: the migration removes that relation and sets Direct ownership, and the next apply would set the old fields again.`
      : `This file keeps the blueprint's team inheritance${path !== undefined ? ` over "${path}"` : ''}; the migration turns it into Inherited ownership in the service, and the next apply would set the old field again.`,
    suggestion:
      rewrite !== undefined
        ? `Replace it with \`${rewrite}\`${relationRemoved ? ` and delete relation "${path}"` : ''} (Terraform provider ≥ 2.1.4, Pulumi ≥ 2.1.4).`
        : 'Replace it with Inherited ownership over the same path.',
    ...(rewrite !== undefined ? { rewrite } : {}),
    verdict: judgeSite('kept-team-inheritance'),
  });
}

/**
 * Terraform and Pulumi re-send the whole blueprint on every apply; a JSON file (an integration's
 * default blueprints.json, an export, a one-off payload) is sent once, if at all, so a copy without
 * ownership strips nothing later and gets no advice.
 */
function appliedEveryTime(syntax: Syntax): boolean {
  return syntax === 'hcl' || syntax === 'js' || syntax === 'python';
}

function directOwnershipFinding(target: Placed, title: string | undefined, syntax: Syntax): FindingDraft | undefined {
  if (!appliedEveryTime(syntax)) return undefined;
  const identifier = String(target.json.identifier);
  return ownershipToAdd(target, title, syntax, { type: 'Direct' }, `The org's entities of "${identifier}" carry team values and it has no team inheritance, so the migration gives it Direct ownership; this copy has none, so its next apply sends the blueprint without ownership and strips it.`);
}

/**
 * A finding at the resource's first line (the block a linter points at for an attribute it lacks),
 * with the ownership to add beside its `identifier` as the rewrite (the fix kit places it there).
 * When the identifier is a variable (its line is in a *.tfvars file or a default), the finding gives
 * the block to add, with no rewrite to place in another file.
 */
function ownershipToAdd(target: Placed, title: string | undefined, syntax: Syntax, ownership: OwnershipValue, reason: string): FindingDraft | undefined {
  const entry: Entry | undefined = target.origins.get('identifier')?.entry;
  const own = target.resource.value.origin.node.span;
  const lineStart = own.source.text.lastIndexOf('\n', own.start - 1) + 1;
  const lineEnd = own.source.text.indexOf('\n', own.start);
  const header: Span = { ...own, start: lineStart, end: lineEnd < 0 ? own.source.text.length : Math.min(own.end, lineEnd) };
  const rewrite = entry && entry.span.source === own.source ? ownershipRewrite(entry, syntax, ownership) : undefined;
  const block = `ownership {type: "${ownership.type}"${ownership.path !== undefined ? `, path: "${ownership.path}"` : ''}}`;
  const suggestion = rewrite !== undefined ? `Add \`${rewrite}\` to the resource, beside its identifier` : `Add ${block} to the resource, written as its other attributes are`;
  return fileFinding(header, title, { category: 'external-ownership', reason, suggestion: `${suggestion} (Terraform provider ≥ 2.1.4, Pulumi ≥ 2.1.4).`, rewrite, verdict: judgeSite('missing-ownership') });
}
