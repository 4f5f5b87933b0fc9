import type { RepoContext } from './context.js';
import { fileFinding, PASSED_IN, partitionFileTeamValues, rewriteSpan, UNTYPED_INPUTS_HINT, untypedInputsReason } from './findings.js';
import { viewed, type FileDraft, type FileSite, type FileSites, type ReadContext } from './file-sites.js';
import { isTeamInput, passedInput } from './workflow-team-inputs.js';
import { findEntry, spanLine, stringValue, treeChildren, type Entry, type StringNode, type TreeNode } from './tree.js';
import { appendAll } from '../model/arrays.js';
import { documentValue, parseCode } from './code-tree.js';
import { blockSource } from './embedded-mappings.js';
import { toSourceMapped } from './located-json.js';
import { SourceSyntaxError } from './source-text.js';
import { treeToJson, type Problems } from './tree-to-json.js';
import { isObject } from '../model/json.js';
import { parsedJson } from '../parse-json.js';
import { searchRules } from '../catalog/walk.js';
import { addTeamValues, teamStrings } from './repository-facts.js';
import { analyzeShell, callsServiceApi } from './api-scripts.js';

/** The service's GitHub action; its UPSERT operations write entities with a `team` input, its SEARCH operations send a query. */
const GITHUB_ACTION = 'port-labs/port-github-action';
const PORT_ACTION = /^port-labs\/port-github-action@/;
/** The service's report sender: it reads a blueprint's entities filtered by `filter_rule`, one search rule. */
const SENDER = 'port-labs/port-sender';
const SENDER_ACTION = /^port-labs\/port-sender@/;

/** Whether a workflow (or composite action) calls one of the service's actions or its API: only then is it parsed. */
export const callsServiceAction = (text: string): boolean => text.includes(GITHUB_ACTION) || text.includes(SENDER) || callsServiceApi(text);

/**
 * GitHub workflows (`.github/workflows/*.yml`): steps of the service's action that UPSERT
 * entities with a `team:` input. Literal titles break (the action sends them as `$team`); a
 * `${{ }}` or jq expression is for review, since what it yields is decided at run time.
 */
export function analyzeWorkflow(documents: readonly TreeNode[], ctx: ReadContext): FileSites {
  const sites: FileSite[] = [];
  const problems: Problems = [];
  for (const document of documents) {
    const jobs = stepLists(document);
    // Not a GitHub workflow or action (GitLab CI, Azure Pipelines, …): its scripts are strings anywhere.
    if (jobs.length === 0) {
      for (const script of apiScripts(document)) readRunScript(script, ctx, sites, problems);
      continue;
    }
    for (const job of jobs) {
      const steps = job.value.kind === 'object' ? findEntry(job.value, 'steps')?.value : undefined;
      if (steps?.kind !== 'list') continue;
      for (const step of steps.items) {
        if (step.kind !== 'object') continue;
        const run = findEntry(step, 'run')?.value;
        if (run?.kind === 'string' && callsServiceApi(run.value)) readRunScript(run, ctx, sites, problems);
        const uses = stringValue(findEntry(step, 'uses')?.value) ?? '';
        const inputs = findEntry(step, 'with')?.value;
        if (inputs?.kind !== 'object') continue;
        const title = `workflow step ${stringValue(findEntry(step, 'name')?.value) ?? `job ${job.key}`}`;
        if (SENDER_ACTION.test(uses)) {
          const rule = findEntry(inputs, 'filter_rule');
          if (rule?.value.kind === 'string') appendAll(sites, searchQuerySites(rule.value, ctx, title, problems, stringValue(findEntry(inputs, 'blueprint')?.value)));
          continue;
        }
        if (!PORT_ACTION.test(uses)) continue;
        // Without `operation` the action upserts (its default): such a step writes the team too.
        const operation = (stringValue(findEntry(inputs, 'operation')?.value) ?? 'UPSERT').toUpperCase();
        if (operation === 'SEARCH') {
          const query = findEntry(inputs, 'query');
          if (query?.value.kind === 'string') appendAll(sites, searchQuerySites(query.value, ctx, title, problems));
          continue;
        }
        if (operation !== 'UPSERT' && operation !== 'BULK_UPSERT') continue;
        const team = findEntry(inputs, 'team');
        if (ctx.gathering && team?.value.kind === 'string' && !/\$\{\{/.test(team.value.value)) addTeamValues(ctx.gathering, teamList(team.value.value), team.span);
        const entities = operation === 'BULK_UPSERT' ? findEntry(inputs, 'entities') : undefined;
        if (team && team.value.kind === 'string') sites.push({ kind: 'step-team', entry: team, text: team.value.value, title });
        else if (entities && entities.value.kind === 'string') sites.push({ kind: 'step-entities', entry: entities, text: entities.value.value, title });
      }
    }
  }
  return { sites, problems };
}

/**
 * A `run:` script that calls the service's API (`curl … -d '{…}'`): read as a shell script at the
 * file's own lines, into the workflow's sites and problems. Its findings carry no rewrite: the
 * block's text is the file's without its indentation, so a rewritten line could not be placed.
 */
function readRunScript(node: StringNode, ctx: ReadContext, sites: FileSite[], problems: Problems): void {
  const analysis = analyzeShell(blockSource(node), ctx);
  appendAll(sites, viewed(analysis.sites, { noRewrite: true }));
  appendAll(problems, analysis.problems);
}

/** The strings of a YAML tree that are scripts calling the service's API. */
function* apiScripts(node: TreeNode): Generator<StringNode> {
  if (node.kind === 'string' && callsServiceApi(node.value)) yield node;
  for (const child of treeChildren(node)) yield* apiScripts(child);
}

/** What holds steps: a workflow's jobs, or a composite action's `runs` (`action.yml`). */
function stepLists(document: TreeNode): Entry[] {
  if (document.kind !== 'object') return [];
  const jobs = findEntry(document, 'jobs')?.value;
  if (jobs?.kind === 'object') return jobs.entries;
  const runs = findEntry(document, 'runs');
  return runs?.value.kind === 'object' ? [{ ...runs, key: 'runs' }] : [];
}

/**
 * A SEARCH step's `query` input (the search body the action sends, `JSON.parse` of the input's
 * lines), or the report sender's `filter_rule` (one rule on `blueprint`'s entities). Its `$team`
 * rules are judged by the org's own search-rule judgement, in the repository's catalog; a query
 * built with `${{ }}` is no JSON until the workflow runs, and is not read.
 */
function searchQuerySites(node: StringNode, ctx: ReadContext, title: string, problems: Problems, blueprint?: string): FileSite[] {
  if (/\$\{\{/.test(node.value) || !/\$team/.test(node.value)) return [];
  let top;
  try {
    top = parseCode(blockSource(node), 'json');
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    problems.push({ line: spanLine(node.span), reason: `the step's search query is not JSON: ${error.message}` });
    return [];
  }
  const root = documentValue(top);
  const query = treeToJson(root, { node: root }, { camelCase: false, problems });
  if (query?.kind !== 'object') return [];
  const { json, origins } = toSourceMapped(query);
  // One rule written alone (`{property, operator, value}`) is a query of that rule.
  const rules = isObject(json) && json.property !== undefined ? [{ path: [], rule: json }] : [...searchRules(json, [])];
  if (ctx.gathering) {
    for (const { rule } of rules) if (rule.property === '$team') addTeamValues(ctx.gathering, teamStrings(rule.value), node.span);
  }
  return [{ kind: 'step-query', node, rules, origins, title, ...(blueprint !== undefined && !/\$\{\{/.test(blueprint) && { blueprint }) }];
}

/** A step's `team` input, judged with the scan's teams and the workflow inputs the org's actions fill with teams. */
export function teamInputFinding(entry: Entry, text: string, ctx: RepoContext, title: string): FileDraft | undefined {
  // What the workflow was given, alone or as a list (`'["${{ inputs.team }}"]'`, the action's documented form).
  const items = teamList(text);
  if (items.length > 0 && items.every((item) => PASSED_IN.test(item))) {
    const untyped = items.flatMap((item) => passedInput(item) ?? []).filter((input) => !isTeamInput(ctx.workflowTeamInputs, entry.span.source.path, input));
    if (untyped.length === 0) return undefined;
    return fileFinding(entry.span, title, {
      category: 'external-ownership',
      reason: `${untypedInputsReason("The step's team", untyped)}.`,
      suggestion: `${UNTYPED_INPUTS_HINT[0]!.toUpperCase()}${UNTYPED_INPUTS_HINT.slice(1)}.`,
      settles: 'untyped-workflow-input',
    });
  }
  if (/\$\{\{|\{\{/.test(text) || /^\s*\./.test(text)) {
    return fileFinding(entry.span, title, {
      category: 'external-ownership',
      reason: 'The step sets the entity\'s team from an expression; after the migration $team holds team identifiers, so it must yield identifiers, not titles.',
      suggestion: 'Make sure the expression yields team identifiers once the migration has run.',
      settles: 'not-run',
    });
  }
  const { titles, unknown } = partitionFileTeamValues(ctx.teams, items);
  if (titles.length === 0 && unknown.length === 0) return undefined;
  const known = titles.filter((t) => t.identifier !== undefined);
  const rewrite = known.length === titles.length && titles.length > 0 ? rewriteInput(entry, text, titles) : undefined;
  return fileFinding(entry.span, title, {
    category: 'external-ownership',
    reason:
      titles.length > 0
        ? `The step writes ${titles.length === 1 ? 'the team title' : 'team titles'} ${quoted(titles.map((t) => t.value))} into the entity's team; after the migration $team holds team identifiers.`
        : `The step writes ${quoted(unknown)} into the entity's team, which is neither a known team title nor a known identifier.`,
    suggestion:
      rewrite !== undefined
        ? `Write \`${rewrite}\`.`
        : titles.length > 0
          ? 'Replace each team title with its team identifier (pass --teams-map to tell them).'
          : `Check whether ${quoted(unknown)} is a team title or identifier (pass --teams-map to tell).`,
    settles: titles.length > 0 ? 'title-literals' : 'unknown-literals',
    ...(rewrite !== undefined ? { rewrite } : {}),
  });
}

/** Values as a finding quotes them: "a", "b". */
const quoted = (list: readonly string[]) => list.map((v) => JSON.stringify(v)).join(', ');

/** BULK_UPSERT's `entities` input: a JSON array of entities, each with its own `team`. */
export function bulkTeamsFinding(entry: Entry, text: string, ctx: RepoContext, title: string): FileDraft | undefined {
  // Not JSON: a `${{ }}` expression or a file reference, nothing literal to judge.
  const entities = parsedJson(text);
  if (!Array.isArray(entities)) return undefined;
  const values = entities.flatMap((entity: unknown) => teamStrings(isObject(entity) ? entity.team : undefined));
  const { titles, unknown } = partitionFileTeamValues(ctx.teams, values);
  if (titles.length === 0 && unknown.length === 0) return undefined;
  return fileFinding(entry.span, title, {
    category: 'external-ownership',
    reason:
      titles.length > 0
        ? `The step's entities carry ${titles.length === 1 ? 'the team title' : 'team titles'} ${quoted(titles.map((t) => t.value))}; after the migration $team holds team identifiers.`
        : `The step's entities carry ${quoted(unknown)} as team, which is neither a known team title nor a known identifier.`,
    suggestion:
      titles.length > 0
        ? `Replace each team title with its identifier${titles.every((t) => t.identifier !== undefined) ? ` (${titles.map((t) => `${JSON.stringify(t.value)} → ${JSON.stringify(t.identifier)}`).join(', ')})` : ' (pass --teams-map to tell them)'}.`
        : `Check whether ${quoted(unknown)} is a team title or identifier (pass --teams-map to tell).`,
    settles: titles.length > 0 ? 'title-literals' : 'unknown-literals',
  });
}

/** `team: "['a', 'b']"` (the action's documented form), `'["a"]'` or one plain name. */
function teamList(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed.replace(/'/g, '"'));
      if (Array.isArray(parsed)) return teamStrings(parsed);
    } catch {
      // not a list after all: judged as one value below
    }
  }
  return trimmed === '' ? [] : [trimmed];
}

function rewriteInput(entry: Entry, text: string, titles: readonly { value: string; identifier?: string }[]): string {
  let value = text;
  for (const title of titles) value = value.split(title.value).join(title.identifier!);
  return entry.value.kind === 'string' ? rewriteSpan(entry.span, [{ node: entry.value, value }]) : value;
}
