import { constants, type Dirent } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import type { Catalog } from '../catalog/catalog.js';
import { TEAM_BLUEPRINT, type EntityRecord, type TeamRecord } from '../model/snapshot.js';
import { InputError } from '../errors.js';
import type { FindingDraft, IncompleteItem } from '../model/finding.js';
import { analyzeJsonPayload, analyzeScript, analyzeShell, callsServiceApi } from './api-scripts.js';
import { filesContext, repoContext, type RepoContext } from './context.js';
import { repositoryCatalog, repositoryStateNote } from './repository-catalog.js';
import { emptyFacts, type RepositoryFacts } from './repository-facts.js';
import type { TeamsMap } from '../catalog/teams.js';
import { analyzeEntityFile, analyzeMappingConfig } from './gitops.js';
import { mappingFileProviders, type ScannedMappingFile } from './mapping-files.js';
import { policyRules } from './gitignore.js';
import { gitTopOf, listCheckout, type GitLister } from './file-set.js';
import { analyzePulumi, isPulumiProgram } from './pulumi.js';
import { isPulumiManifest, pulumiManifestFacts, pulumiProject, pulumiProjects } from './pulumi-manifest.js';
import { neededWith, providerAdvice, type ProviderFacts } from './provider-version.js';
import { SourceSyntaxError, sourceText, type SourceText } from './source-text.js';
import { analyzeTerraform } from './terraform.js';
import { NO_SITES, type FileSites, type ReadContext } from './file-sites.js';
import { judgeReadings } from './judge.js';
import { MAX_MODULE_CALLS, moduleInstances, terraformValues, type ConfigurationFile, type TerraformValues } from './terraform-values.js';
import { parseCode } from './code-tree.js';
import { parseYaml } from './yaml-tree.js';
import { MAPPING_HINT, mappingConfigs } from './embedded-mappings.js';
import { analyzeWorkflow, callsServiceAction } from './workflows.js';
import { workflowTeamInputs } from './workflow-team-inputs.js';
import { toSourceMapped } from './located-json.js';
import { redactFinding, textSecretFragments } from './redact-findings.js';
import { redactSecrets } from '../sources/redact.js';
import { NotRegularFileError, readRegularFileSync, TooLarge } from '../read-regular-file.js';
import { appendAll } from '../model/arrays.js';

/** Larger files are generated or data, never hand-written IaC (issue 5). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface RepoScan {
  findings: FindingDraft[];
  /** Files or parts the scan could not read: the run is incomplete (exit 3). */
  incomplete: IncompleteItem[];
  /** Files skipped on purpose (binary, too large, links out of the tree): shown, not failing. */
  notes: string[];
  /** Mapping configs that may be an org's git integration mapping, with their verdicts. */
  mappingFiles: ScannedMappingFile[];
  /**
   * Without an org: the teams the repositories' files name (their catalogs' teams and `_team`
   * entities), so the fix kit's predicted org holds the teams the files will be judged by again.
   */
  describedTeams?: { teams: TeamRecord[]; teamEntities: EntityRecord[] };
}

export interface ScanOptions {
  catalog?: Catalog;
  /**
   * The run's own inputs and outputs (`--snapshot`, `--out`, `--baseline`, `--write-baseline`,
   * `--teams-map`): files, or directories skipped whole. Never scanned, and never mentioned.
   */
  ownPaths?: readonly string[];
  /** `--ignore`: gitignore patterns left out of every checkout, beside its own `.gitignore` files. */
  ignore?: readonly string[];
  /**
   * Whether `catalog` is an org the run was given (`--snapshot`, live) rather than the empty stand-in
   * of a repository-only run; by default, told by the stand-in's organization id.
   */
  orgGiven?: boolean;
  /** `--max-file-size`: larger files are not read, and the run is incomplete (default MAX_FILE_BYTES). */
  maxFileBytes?: number;
  /** How a git checkout's files are listed (tests replace it to make git fail). */
  git?: GitLister;
}

type FileKind = 'terraform' | 'tfvars' | 'entity-file' | 'mapping-config' | 'workflow' | 'yaml' | 'json' | 'js' | 'python' | 'shell' | 'package-manifest';

/** What a file is, from its path alone: files of no kind are never read. */
export function classifyPath(path: string): FileKind | undefined {
  const name = posix.basename(path);
  if (name.endsWith('.tf')) return 'terraform';
  if (name.endsWith('.tfvars')) return 'tfvars';
  // A workflow may be called port.yml too: where it is says what it is.
  if (/(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path)) return 'workflow';
  if (name === 'port.yml' || name === 'port.yaml') return 'entity-file';
  if (/^port-app-config\.(ya?ml|json)$/.test(name)) return 'mapping-config';
  if (isPulumiManifest(path)) return 'package-manifest';
  if (/\.ya?ml$/.test(name)) return 'yaml';
  if (name.endsWith('.json')) return 'json';
  if (/\.(m|c)?[jt]sx?$/.test(name) && !name.endsWith('.d.ts')) return 'js';
  if (name.endsWith('.py')) return 'python';
  if (/\.(sh|bash|zsh)$/.test(name)) return 'shell';
  return undefined;
}

/** The organization id of the empty snapshot analysed when only `--repo` is given (src/repo/report-input.ts). */
export const REPOSITORY_ONLY_ORG = 'repository-only';

/** The org that decides how files are judged: the one given, never the empty stand-in of a repository-only run. */
function deciding(catalog: Catalog | undefined, orgGiven: boolean | undefined): Catalog | undefined {
  if (!catalog) return undefined;
  return (orgGiven ?? catalog.organization.id !== REPOSITORY_ONLY_ORG) ? catalog : undefined;
}

/** The `--teams-map` a repository-only run's stand-in catalog was built with: its teams are those of the map alone. */
function mappedTeams(catalog: Catalog | undefined): TeamsMap {
  const map: Record<string, string> = {};
  for (const team of catalog?.teams.byTitle.values() ?? []) if (team.source === 'teams map' && team.identifier !== undefined) map[team.title] = team.identifier;
  return map;
}

/** Scan local checkouts. Analysis is pure (per-format analyzers); only this function reads files. */
export async function scanRepositories(dirs: readonly string[], options: ScanOptions = {}): Promise<RepoScan> {
  const org = deciding(options.catalog, options.orgGiven);
  const ctx = repoContext(org);
  const jq = options.catalog?.jq;
  const teamsMap = org ? {} : mappedTeams(options.catalog);
  const scan: RepoScan = { findings: [], incomplete: [], notes: [], mappingFiles: [] };
  const own = await ownPathSet(options.ownPaths ?? []);
  const repos: ({ name: string } & Awaited<ReturnType<typeof readRepository>>)[] = [];
  // Every file of a kind the scan reads, kept or not: a Pulumi project is told by its Pulumi.yaml.
  const paths: string[] = [];
  const prefixes = displayRoots(dirs);
  for (const [index, dir] of dirs.entries()) repos.push({ name: prefixes[index]!, ...(await readRepository(dir, prefixes[index]!, scan, own, paths, options)) });
  const files = repos.flatMap((repo) => repo.files);
  // A repository describes an org: every file is read for its sites and for what it says of that
  // org (resources, teams, migration state) before any is judged; a blueprint written in one file
  // holds for the resources of every other (its removed relations, its $team mirrors).
  const { values: terraformValues, instances, notes: moduleNotes } = configurationValues(files);
  appendAll(scan.notes, moduleNotes);
  const read = repos.map((repo) => {
    const facts = emptyFacts();
    const readFiles = repo.files.map((file) => readFile(file, { gathering: facts, terraformValues }, instances));
    for (const file of readFiles) for (const { sites } of 'readings' in file ? file.readings : []) for (const site of sites) if (site.kind === 'resources') appendAll(facts.resources, site.resources);
    return { repo, facts, files: readFiles };
  });
  const repositoryBlueprints = read.flatMap(({ facts }) => facts.resources.filter((resource) => resource.kind === 'blueprint'));
  // The actions that dispatch workflows, the org's and those the repositories keep: they tell which workflow inputs hold teams.
  const repositoryActions = read.flatMap(({ facts }) => facts.resources.filter((resource) => resource.kind === 'action').map((resource) => toSourceMapped(resource.value).json));
  const workflowInputs = workflowTeamInputs([...(org?.actions.values() ?? []), ...repositoryActions]);
  // Without an org the repository's own catalog decides, built as an org's is; with one, the org does.
  const judging = read.map(({ repo, facts, files: readFiles }) => {
    const own = repositoryCatalog(repo.name, facts, { ...(jq && { jq }), teamsMap });
    // A file not read says nothing of the state, and may have said it: named, never taken for "before".
    const unread = [...repo.unread, ...readFiles.flatMap((file) => ('error' in file ? [file.source.path] : []))].sort();
    const judged: RepoContext = { ...(org ? ctx : { ...filesContext(own.catalog), ...(!own.state.known && { stateUnknown: { unread } }) }), repositoryBlueprints, terraformValues, workflowTeamInputs: workflowInputs };
    return { repo, facts, own, unread, judged, files: readFiles };
  });
  // Every file's sites judged at once (judge.ts): jq's work planned over the whole scan.
  const readings = judging.flatMap(({ judged, files: readFiles }) =>
    readFiles.flatMap((file) => ('readings' in file ? file.readings.map((reading) => ({ sites: reading.sites, problems: reading.problems, ctx: reading.terraformValues === terraformValues ? judged : { ...judged, terraformValues: reading.terraformValues } })) : [])),
  );
  const judgedReadings = judgeReadings(readings);
  let next = 0;
  // Keyed by tool and directory: a Terraform configuration and a Pulumi project side by side get one note each.
  const providers = new Map<string, ProviderFacts[]>();
  const projects = pulumiProjects(paths);
  for (const { repo, facts, own, unread, judged, files: readFiles } of judging) {
    if (!org) describeTeams(scan, own.catalog, own.titles);
    // A file that stopped its parser is named as not read: not read whole either.
    scan.notes.push(filesReadNote(repo.name, { ...repo.counts, read: repo.counts.read - (unread.length - repo.unread.length) }));
    scan.notes.push(repositoryStateNote(repo.name, own.state, org && { migrated: org.migrated, name: org.organization.name }, unread));
    scan.notes.push(...teamIdentifierNotes(facts, org ? org.migrated : own.catalog.migrated));
    for (const file of readFiles) {
      const findings = 'readings' in file ? distinctFindings(judgedReadings.slice(next, (next += file.readings.length))) : [];
      const provider = reportFile(file, findings, judged, scan);
      if (!provider) continue;
      const key = provider.tool === 'pulumi' ? `pulumi\u0000${pulumiProject(file.source.path, projects)}` : `terraform\u0000${posix.dirname(file.source.path)}`;
      const listed = providers.get(key);
      if (listed) listed.push(provider);
      else providers.set(key, [provider]);
    }
  }
  scan.notes.push(...providerAdviceNotes(providers));
  return scan;
}

/** How many files a repository's scan found, how many of them are of kinds it judges, and how many of those it read. */
interface FileCounts {
  found: number;
  judged: number;
  read: number;
}

/**
 * One line per repository saying how much the scan saw (issue 41): a clean scan of 246 files and
 * one of 2 read alike otherwise. Found: every file in the folders the scan goes into (ignored
 * folders are not gone into), the run's own files aside; judged: those of a kind it reads that no
 * ignore rule leaves out; read: those read whole (the others are named in the notes or in what
 * could not be read, or are links to folders, whose files are counted where they are).
 */
function filesReadNote(name: string, { found, judged, read }: FileCounts): string {
  return `files of repository ${name === '' ? '.' : name}: ${found} found, ${judged} of kinds the scan judges, ${read} read whole`;
}

/** The teams a repository's catalog holds and the titles its files write, added to what the scan hands the fix kit (first name wins). */
function describeTeams(scan: RepoScan, catalog: Catalog, titles: readonly string[]): void {
  const described = (scan.describedTeams ??= { teams: [], teamEntities: [] });
  for (const team of [...(catalog.snapshot.teams ?? []), ...titles.map((name) => ({ name }))]) if (!described.teams.some((t) => t.name === team.name)) described.teams.push(team);
  for (const entity of catalog.entities.get(TEAM_BLUEPRINT) ?? []) if (!described.teamEntities.some((e) => e.identifier === entity.identifier)) described.teamEntities.push(entity);
}

/**
 * `port_team.<x>.identifier` is null until the org has migrated (the provider fills it from the
 * `_team` entity): right after the migration, an empty team list before it. One note per
 * configuration, never a finding: the value is right, only when it is applied matters.
 */
function teamIdentifierNotes(facts: RepositoryFacts, migrated: boolean): string[] {
  if (migrated) return [];
  const byConfiguration = new Map<string, string>();
  for (const read of facts.teamIdentifierReads) if (!byConfiguration.has(read.configuration)) byConfiguration.set(read.configuration, read.at);
  return [...byConfiguration].map(
    ([configuration, at]) =>
      `review: Terraform configuration ${configuration === '.' ? '.' : `${configuration}/`}: it reads port_team.<name>.identifier (${at}), which the provider leaves null until the org has migrated: apply it with the migration, not before, or the teams it sets are emptied`,
  );
}

/** Provider advice: one line per Terraform configuration (a directory), not per file or finding. */
function providerAdviceNotes(configurations: ReadonlyMap<string, ProviderFacts[]>): string[] {
  return [...configurations]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([key, facts]) => {
      const configuration = key.slice(key.indexOf('\u0000') + 1);
      return providerAdvice(configuration === '.' ? '' : configuration, facts) ?? [];
    });
}

/**
 * Each Terraform configuration's variables (defaults, *.tfvars) and locals, for the references its
 * files make; and, for a module folder the repository calls, each call's values.
 */
function configurationValues(files: readonly CandidateFile[]): { values: Map<string, TerraformValues>; instances: Map<string, TerraformValues[]>; notes: string[] } {
  const byDirectory = new Map<string, ConfigurationFile[]>();
  for (const { kind, source } of files) {
    if (kind !== 'terraform' && kind !== 'tfvars') continue;
    let top;
    try {
      top = parseCode(source, 'hcl');
    } catch (error) {
      if (error instanceof SourceSyntaxError) continue; // reported when the file itself is judged
      throw error;
    }
    const dir = posix.dirname(source.path);
    byDirectory.set(dir, [...(byDirectory.get(dir) ?? []), { path: source.path, top }]);
  }
  const values = new Map([...byDirectory].map(([dir, configuration]) => [dir, terraformValues(configuration)]));
  const { instances, calls } = moduleInstances([...byDirectory.values()].flat(), values);
  const notes = [...calls]
    .filter(([, count]) => count > MAX_MODULE_CALLS)
    .map(([folder, count]) => `${folder}/: a module the configurations call ${count} times; its files were judged with the first ${MAX_MODULE_CALLS} calls' values`);
  return { values, instances, notes };
}

interface CandidateFile {
  kind: FileKind;
  source: SourceText;
}

/** A file read: one reading per module call that instantiates it (one for any other file), or the syntax error that stopped it. */
type ReadFile = CandidateFile & ({ readings: (FileSites & { terraformValues: ReadContext['terraformValues'] })[] } | { error: SourceSyntaxError });

/**
 * Read one file for its sites and facts. A file of a module folder the repository calls is read
 * once per call, with that call's values, as Terraform instantiates it.
 */
function readFile(file: CandidateFile, ctx: ReadContext, instances: ReadonlyMap<string, TerraformValues[]>): ReadFile {
  const dir = posix.dirname(file.source.path);
  const calls = file.kind === 'terraform' ? instances.get(dir) : undefined;
  const contexts = calls ? calls.map((values) => ({ ...ctx, terraformValues: new Map([...(ctx.terraformValues ?? []), [dir, values]]) })) : [ctx];
  try {
    return { ...file, readings: contexts.map((each) => ({ ...analyzeFile(file.kind, file.source, each), terraformValues: each.terraformValues })) };
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    return { ...file, error };
  }
}

/** The findings of a file's readings, each found once: what does not depend on a module call's values is found in every call. */
function distinctFindings(readings: readonly FindingDraft[][]): FindingDraft[] {
  if (readings.length === 1) return readings[0]!;
  const seen = new Set<string>();
  return readings.flat().filter((finding) => {
    const key = `${finding.location}\u0000${finding.category}\u0000${finding.evidence}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** A file's findings, gaps and notes into the scan; a Terraform or Pulumi file's provider facts are returned for its configuration's advice. */
function reportFile(file: ReadFile, judged: readonly FindingDraft[], ctx: RepoContext, scan: RepoScan): ProviderFacts | undefined {
  const shown = file.source.path;
  if ('error' in file) {
    const { error } = file;
    const column = error.column !== undefined ? `, column ${error.column}` : '';
    scan.incomplete.push({ resource: `${shown}:${error.line}`, reason: `could not be read (line ${error.line}${column}): ${error.message}; the file was not checked` });
    return undefined;
  }
  // Every analyzer quotes file text: secret-named values, URL passwords and secret query parameters
  // never leave the scan. Looked for only in files with findings: the search over every file's
  // text was the largest single cost of a scan of 20,000 files (issue 25 item 4).
  const secrets = judged.length > 0 ? textSecretFragments(file.source.text) : new Set<string>();
  const findings = judged.map((finding) => redactFinding(finding, secrets));
  appendAll(scan.findings, findings);
  const providers = file.kind === 'mapping-config' ? mappingFileProviders(shown) : undefined;
  if (providers !== undefined) scan.mappingFiles.push({ path: shown, providers, findings });
  const [first] = file.readings;
  for (const problem of first!.problems) scan.incomplete.push({ resource: `${shown}:${problem.line}`, reason: String(redactSecrets(problem.reason)) });
  return first!.provider && neededWith(first!.provider, ctx.directOwnership);
}

/** Real paths of the run's own files and directories; those that do not exist yet hold nothing to skip. */
async function ownPathSet(paths: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const path of paths) {
    try {
      real.push(await realpath(resolve(path)));
    } catch (error) {
      // Not there (an --out or --write-baseline before its first run): nothing to skip. Anything
      // else would let the run's own files be scanned as the user's, so it stops the run.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new InputError(`${path}: cannot resolve it to keep it out of the repository scan: ${(error as Error).message}`, { cause: error });
      }
    }
  }
  return real;
}

function isOwnPath(path: string, own: readonly string[]): boolean {
  return own.some((p) => path === p || path.startsWith(p.endsWith(sep) ? p : p + sep));
}

/** The prefix of every path in findings: the directory as given, or its name when given absolute. */
export function displayRoot(dir: string): string {
  const root = isAbsolute(dir) ? basename(dir) : dir.split(sep).join('/');
  return posix.normalize(root).replace(/\/+$/, '').replace(/^\.$/, '');
}

/**
 * Each `--repo` directory's prefix (displayRoot), distinct: directories given absolute whose
 * names collide (`/ci/team-a/infra`, `/ci/team-b/infra`) keep as many parent folders as tell them
 * apart (`team-a/infra`, `team-b/infra`), so their findings and patches never share a path.
 */
export function displayRoots(dirs: readonly string[]): string[] {
  const roots = dirs.map(displayRoot);
  const segments = dirs.map((dir) => resolve(dir).split(sep).filter(Boolean));
  for (let depth = 2; ; depth++) {
    const taken = new Map<string, number>();
    for (const root of roots) taken.set(root, (taken.get(root) ?? 0) + 1);
    const colliding = roots.map((root, index) => isAbsolute(dirs[index]!) && taken.get(root)! > 1 && segments[index]!.length >= depth);
    if (!colliding.includes(true)) return roots;
    colliding.forEach((widen, index) => {
      if (widen) roots[index] = segments[index]!.slice(-depth).join('/');
    });
  }
}

/**
 * The git checkout a `--repo` path lies in when a link on the way leads out of it (`infra -> /tmp/empty`
 * committed by a change): the scan would read another folder than the checkout's. Undefined when no
 * link is on the way, or it stays inside.
 */
async function linkedOutOfCheckout(dir: string, root: string): Promise<string | undefined> {
  let real = resolve(dir);
  while ((await realpath(real).catch(() => undefined)) !== real) {
    if (dirname(real) === real) return undefined;
    real = dirname(real);
  }
  if (real === resolve(dir)) return undefined;
  const top = await gitTopOf(real);
  if (top === undefined || isOwnPath(root, [top])) return undefined;
  return top;
}

/** A repository's files to judge, how many it found and read, and those of a kind it judges it could not read. */
async function readRepository(dir: string, prefix: string, scan: RepoScan, own: readonly string[], paths: string[], options: ScanOptions): Promise<{ files: CandidateFile[]; counts: FileCounts; unread: string[] }> {
  let root: string;
  try {
    if (!(await stat(dir)).isDirectory()) throw new InputError(`--repo ${dir}: not a directory`);
    root = await realpath(dir);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`--repo ${dir}: ${code === 'ENOENT' ? 'no such directory' : (error as Error).message}`, { cause: error });
  }
  const away = await linkedOutOfCheckout(dir, root);
  if (away) throw new InputError(`--repo ${dir}: a symbolic link to ${root}, outside the git checkout ${away} it is in; give the folder itself (a change could point it at an empty folder to pass the gate)`);
  // `--out .` must not hide the whole checkout: only own paths strictly inside the root are skipped whole
  // (the reports such a run writes into the root are judged as any file: a report holds nothing the scan finds).
  // One outside the root holds none of its files: not matched against each of them.
  const ownInside = own.filter((path) => path !== root && isOwnPath(path, [root]));
  const policy = policyRules(options.ignore ?? []);
  if ('negated' in policy) throw new InputError(`--ignore ${policy.negated}: a negated pattern leaves nothing out; give the paths to skip`);
  if ('invalid' in policy) throw new InputError(`--ignore ${policy.invalid}: ${policy.why}`);
  // Git's own view in a checkout (tracked files always, untracked ones it does not ignore); elsewhere the .gitignore files.
  // Files of no kind the scan reads are dropped by the listing, and counted here; the run's own files are never mentioned.
  const notOwn = (path: string) => ownInside.length === 0 || !isOwnPath(join(root, path), ownInside);
  let unwanted = 0;
  const listing = await listCheckout(root, prefix, policy, {
    ...(options.git && { git: options.git }),
    unwanted: (path) => {
      if (classifyPath(path) !== undefined) return false;
      if (notOwn(path)) unwanted++;
      return true;
    },
  });
  const entries = listing.entries;
  appendAll(scan.notes, listing.notes);
  for (const { path, why } of listing.unreadIgnoreFiles) {
    scan.incomplete.push({ resource: posix.join(prefix, path), reason: `could not be read (${ERRNO_WORDS[why] ?? why}); files it ignores may have been scanned` });
  }
  // A submodule or clone inside holds files this checkout's scan cannot see (often not even checked
  // out): a gap, never a note, or a change could move a breaking file into one and pass the gate.
  for (const folder of listing.nestedRepositories) {
    scan.incomplete.push({ resource: `${posix.join(prefix, folder)}/`, reason: 'a git repository of its own (a submodule or a clone inside): its files were not checked; scan it with a --repo of its own' });
  }
  for (const folder of listing.unlisted) {
    const shown = posix.join(prefix, relative(root, folder).split(sep).join('/')) || '.';
    scan.incomplete.push({ resource: `${shown}/`, reason: 'the folder could not be listed (permission denied or gone); the files in it were not checked' });
  }
  await noteSkippedEntries(entries, root, prefix, scan);
  const templated = new Set<string>();
  // In path order, as listCheckout gives them.
  const files = entries.filter((entry) => entry.dirent.isFile() || entry.dirent.isSymbolicLink());
  const wanted = files.flatMap(({ path: file, tracked }) => {
    const kind = classifyPath(file);
    if (!kind || !notOwn(file)) return [];
    // A project template (cookiecutter, copier) names its folders with placeholders: its files become
    // files to migrate only once rendered, in the project made from it. One git tracks is judged all
    // the same (a change could move a breaking file into such a folder): read whole, or a gap.
    if (!tracked && /\{\{|\{%/.test(file)) {
      templated.add(file.slice(0, file.search(/[^/]*(\{\{|\{%)/)) || '.');
      return [];
    }
    return [{ file, kind, shown: prefix ? posix.join(prefix, file) : file }];
  });
  for (const folder of [...templated].sort()) scan.notes.push(`${posix.join(prefix, folder)}: skipped, a project template (its paths hold {{ }} placeholders); its files are checked in the projects made from it`);
  // Each file in as few calls as the checks allow, one after another and synchronously (issue 41):
  // 32 asynchronous reads in flight cost several times a plain read loop over a checkout the
  // system has just written. Each file's notes and gaps go to the scan as it is read, in path order.
  const candidates: CandidateFile[] = [];
  const unread: string[] = [];
  let readWhole = 0;
  for (const { file, kind, shown } of wanted) {
    const gaps = scan.incomplete.length;
    const text = await readCandidate({ root, file, kind, shown, own: ownInside, maxFileBytes: options.maxFileBytes ?? MAX_FILE_BYTES }, scan);
    if (text === undefined) {
      if (scan.incomplete.length > gaps) unread.push(shown);
      continue;
    }
    readWhole++;
    // A JSON file that calls itself a report, a SARIF log or a snapshot is judged all the same: only
    // the files this run was given are ours, by path (a pull request could add a `format` to any file).
    paths.push(shown);
    // Told by its text once, and not kept through both passes (issue 33): most of a repository's code.
    if (!holdsNothing(kind, text)) candidates.push({ kind, source: sourceText(shown, text) });
  }
  return { files: candidates, unread, counts: { found: unwanted + files.filter(({ path }) => notOwn(path)).length, judged: wanted.length, read: readWhole } };
}

/**
 * What the listing holds but the scan does not read, said rather than dropped: named pipes, sockets
 * and devices (never opened: a pipe would wait for a writer), and links to folders, which are not
 * followed, so the files behind them are scanned only where the folder itself is in the repository.
 */
async function noteSkippedEntries(entries: readonly { path: string; dirent: Pick<Dirent, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'> }[], root: string, prefix: string, scan: RepoScan): Promise<void> {
  const notes: string[] = [];
  for (const { path, dirent } of entries) {
    const shown = prefix ? posix.join(prefix, path) : path;
    if (dirent.isFIFO() || dirent.isSocket() || dirent.isCharacterDevice() || dirent.isBlockDevice()) {
      notes.push(`${shown}: skipped, ${dirent.isFIFO() ? 'a named pipe' : dirent.isSocket() ? 'a socket' : 'a device'}, not a regular file`);
    } else if (dirent.isSymbolicLink()) {
      const target = await realpath(join(root, path)).catch(() => undefined);
      if (target === undefined || !(await stat(target).catch(() => undefined))?.isDirectory()) continue;
      const inside = relative(root, target);
      notes.push(
        inside.startsWith('..') || isAbsolute(inside)
          ? `${shown}: a symbolic link to a folder outside the repository, not followed; the files there were not scanned`
          : `${shown}: a symbolic link to a folder, not followed; its files are scanned at ${posix.join(prefix, inside.split(sep).join('/')) || '.'}`,
      );
    }
  }
  appendAll(scan.notes, notes.sort());
}

/** What reading one file may add to the scan's notes and gaps. */
type FileSink = Pick<RepoScan, 'notes' | 'incomplete'>;

/** One file the scan wants to read, and what bounds the read. */
interface Candidate {
  root: string;
  file: string;
  kind: FileKind;
  shown: string;
  own: readonly string[];
  maxFileBytes: number;
}

/**
 * Read a file the scan wants. One it would judge but cannot read whole (too large, binary, not
 * UTF-8, not permitted, a link out of the checkout) is a gap that keeps the gate from passing
 * (exit 3), never a note: a pull request could otherwise hide a breaking file by padding it.
 */
async function readCandidate(candidate: Candidate, scan: FileSink): Promise<string | undefined> {
  const unread = (why: string) => {
    scan.incomplete.push({ resource: candidate.shown, reason: `could not be read (${why}); the file was not checked` });
    return undefined;
  };
  try {
    return await readCandidateText(candidate, scan, unread);
  } catch (error) {
    // A file that cannot be read is a gap in the scan, named in the report (exit 3), never the end of the run.
    if (error instanceof NotRegularFileError) {
      scan.notes.push(`${candidate.shown}: skipped, ${error.kind}, not a regular file`);
      return undefined;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    return unread(ERRNO_WORDS[code] ?? code);
  }
}

const ERRNO_WORDS: Readonly<Record<string, string>> = { EACCES: 'permission denied', EPERM: 'not permitted', ENOENT: 'it vanished during the scan', EIO: 'an I/O error', ELOOP: 'too many symbolic links' };

async function readCandidateText({ root, file, shown, kind, own, maxFileBytes }: Candidate, scan: FileSink, unread: (why: string) => undefined): Promise<string | undefined> {
  const path = join(root, file);
  // The open file itself gives its kind and size (read-regular-file.ts), one stat for both checks.
  // Opened without following a link where the system can (issue 33: no lstat first for every
  // file); a link is refused (ELOOP) and checked for where it points before it is read.
  let bytes: Buffer | TooLarge | undefined;
  if (CAN_REFUSE_LINKS) {
    try {
      bytes = readRegularFileSync(path, maxFileBytes, { followLinks: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    }
  } else if (!(await lstat(path)).isSymbolicLink()) bytes = readRegularFileSync(path, maxFileBytes);
  if (bytes === undefined) {
    const target = await realpath(path).catch((error: NodeJS.ErrnoException) => unread(`a broken symbolic link: ${ERRNO_WORDS[error.code ?? ''] ?? error.code ?? error.message}`));
    if (target === undefined) return undefined;
    const inside = relative(root, target);
    if (inside.startsWith('..') || isAbsolute(inside)) return unread('a symbolic link to outside the repository');
    if (!(await stat(target)).isFile()) return undefined; // a link to a directory inside the root: its files are scanned there
    if (isOwnPath(target, own)) return undefined;
    bytes = readRegularFileSync(path, maxFileBytes);
  }
  if (bytes instanceof TooLarge) return unread(`${bytes.size} bytes, over the ${sizeText(maxFileBytes)} limit; --max-file-size raises it`);
  const text = bytes.toString('utf8');
  // Other bytes than UTF-8 (a Latin-1 comment) are read as they are, byte for byte (the patch keeps
  // them): the file is still judged whole. UTF-16 and binary files are not text the scan can read.
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  const binary = !utf16 && bytes.includes(0);
  // A Git LFS pointer stands for a file the checkout did not fetch (a runner's default): its text says
  // nothing of the file a deploy uses, so judging it would pass whatever the file holds.
  if (LFS_POINTER.test(text)) return unread('a Git LFS pointer: the file itself was not checked out; fetch LFS files before the scan');
  if (!binary && !utf16) return text;
  // A file whose text names nothing the scan looks for is skipped as before, with a note. Asked of
  // the text without its NUL bytes: UTF-16 without a byte-order mark (what a .gitattributes
  // working-tree-encoding checks out) reads as ASCII then, and a mapping in it is not missed.
  if (holdsNothing(kind, text.replace(/\0/g, ''))) {
    scan.notes.push(`${shown}: skipped, ${binary ? 'a binary file' : 'UTF-16 text'}`);
    return undefined;
  }
  return unread(binary ? 'a NUL byte: binary, not text' : 'UTF-16 text: only UTF-8 is read');
}

/** The first line of every Git LFS pointer file (the LFS specification, v1). */
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\r?\n/;

/** A byte limit in words: "5 MB" for whole megabytes, else bytes. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes}-byte`;
}

/** Whether a file can be opened refusing a symbolic link (O_NOFOLLOW: not on Windows). */
const CAN_REFUSE_LINKS = constants.O_NOFOLLOW !== undefined;

/**
 * Files whose text alone says there is nothing in them to read, whatever the org: scripts that
 * neither use the Pulumi SDK nor call the API, workflows and other YAML that name neither the
 * service's GitHub action nor a mapping.
 */
function holdsNothing(kind: FileKind, text: string): boolean {
  switch (kind) {
    case 'js':
    case 'python':
      return !isPulumiProgram(text) && !callsServiceApi(text);
    case 'shell':
      return !callsServiceApi(text);
    case 'workflow':
      return !callsServiceAction(text);
    case 'yaml':
      return !MAPPING_HINT.test(text) && !callsServiceAction(text);
    default:
      return false;
  }
}

/** A template engine's action: Helm and Go's `{{ }}`, Jinja's `{% %}`. */
const TEMPLATE_ACTION = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

/** The text with each template action turned into as many spaces (its line breaks kept): every offset and line stays where it was. */
function blankTemplateActions(text: string): string {
  return text.replace(TEMPLATE_ACTION, (action) => action.replace(/[^\n]/g, ' '));
}

/** Dispatch one file to its analyzer. A file whose text holds nothing to read (holdsNothing) is not parsed: past that test, each case has work. */
export function analyzeFile(kind: FileKind, source: SourceText, ctx: ReadContext): FileSites {
  if (holdsNothing(kind, source.text)) return NO_SITES();
  switch (kind) {
    case 'terraform':
      return analyzeTerraform(source, ctx);
    case 'tfvars':
      return NO_SITES(); // values of the configuration's variables: judged where the .tf files use them
    case 'entity-file': {
      // A GitOps entity file, or a chart's values named port.yaml that hold the exporter's mapping.
      const documents = parseYaml(source);
      const problems: FileSites['problems'] = [];
      const configs = MAPPING_HINT.test(source.text) ? mappingConfigs(documents, problems) : [];
      if (configs.length === 0) return analyzeEntityFile(documents, ctx);
      const mapping = analyzeMappingConfig(configs, ctx);
      return { ...mapping, problems: [...problems, ...mapping.problems] };
    }
    case 'mapping-config':
      return source.path.endsWith('.json') ? analyzeMappingConfig(parseCode(source, 'json').items, ctx, 'json') : analyzeMappingConfig(parseYaml(source), ctx);
    case 'workflow':
      // Only steps of the service's actions are read.
      return analyzeWorkflow(parseYaml(source), ctx);
    case 'yaml': {
      // Helm values, an exporter's config.yaml, an Argo CD application, a composite action: read only
      // for a mapping inside, or for steps of the service's GitHub action.
      const mapping = MAPPING_HINT.test(source.text);
      const steps = callsServiceAction(source.text);
      // A file that names a mapping's keys but is no YAML is a gap (exit 3), never a note: a change
      // could otherwise hide a breaking mapping behind one syntax error. A chart's template is YAML
      // once rendered: it is read with its `{{ }}` actions blanked, and is a gap only if still no YAML.
      let documents;
      try {
        documents = parseYaml(source);
      } catch (error) {
        if (!(error instanceof SourceSyntaxError) || !/\{\{|\{%/.test(source.text)) throw error;
        documents = parseYaml(sourceText(source.path, blankTemplateActions(source.text)));
      }
      const problems: FileSites['problems'] = [];
      const configs = mapping ? mappingConfigs(documents, problems) : [];
      const parts = [configs.length > 0 ? analyzeMappingConfig(configs, ctx) : NO_SITES(), steps ? analyzeWorkflow(documents, ctx) : NO_SITES()];
      return { sites: parts.flatMap((part) => part.sites), problems: [...problems, ...parts.flatMap((part) => part.problems)] };
    }
    case 'json':
      return analyzeJsonPayload(source, ctx);
    case 'js':
    case 'python': {
      const language = kind === 'js' ? 'js' : 'python';
      return isPulumiProgram(source.text) ? analyzePulumi(source, language, ctx) : analyzeScript(source, language, ctx);
    }
    case 'shell':
      return analyzeShell(source, ctx);
    case 'package-manifest': {
      // Read only for the Port Pulumi package's version: a manifest holds no Port resources.
      const provider = pulumiManifestFacts(source);
      return provider ? { ...NO_SITES(), provider } : NO_SITES();
    }
  }
}
