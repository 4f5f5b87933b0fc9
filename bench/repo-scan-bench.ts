/**
 * `npm run bench:repo-scan` (issues 25 and 41): a synthetic repository of 20,000 files, about 60 % of
 * a kind the scan reads, with as much to judge as a platform team's repository (issue 41): Terraform
 * stacks of blueprints (team inheritance, calculations on `.team`, one calculation text shared by
 * many blueprints as modules copy it, beside texts of each stack's own: a platform repository's calculations
 * are mostly distinct, some copied), permissions and entities with team titles, `port.yml` entity
 * files, blueprint JSON, page permissions, scripts writing entities through the API; the rest code,
 * config, docs. The repository is a git checkout (one commit), so git's rules decide its files, as
 * in a user's checkout.
 *
 * Ours: the whole command as a user runs it, `analyze --repo DIR --out OUT` (reports and fix kit
 * written), a process of its own. The floor: another process listing the same folder and reading
 * every file once in a synchronous loop (`readFileSync`, one after another, as `cat` does). Node's
 * start-up is in both. Taken in turn, PAIRS pairs (which goes first alternates), and the median of
 * the pairs' wall-time ratios is the figure: load on a shared machine hits both of a pair alike.
 * Goal: at most 3x the floor. The CPU ratio (each process's own count) is printed beside it. It prints how many calculations the repository holds and how many distinct texts
 * among them, and the load average.
 * Options: --files N (20,000) --pairs N (5) --keep DIR (generate the repository into DIR and leave it
 * there, to profile the scan or compare its findings across trees)
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { median, runAnalyze, runNode, verdict, type ProcessFigures } from './whole-process.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '20000' }, pairs: { type: 'string', default: '5' }, keep: { type: 'string' } } });
const FILES = Number(values.files);
const PAIRS = Number(values.pairs);
/** The goal of issues 25 and 41: a scan at most three times one read of every file. */
const GOAL = 3;
/** The floor's own process (bench/read-floor.ts, compiled beside this file). */
const FLOOR = fileURLToPath(new URL('./read-floor.js', import.meta.url));

const TEAMS = ['Platform Team', 'Payments', 'SRE On-Call', 'Data Science', 'Checkout', 'Search', 'Identity', 'Mobile'];
const team = (i: number) => TEAMS[i % TEAMS.length]!;
/** The calculation modules copy from one blueprint to the next: one text, many occurrences. */
const SHARED_CALCULATION = '.team | index(\\"Platform Team\\") != null';

const code = (i: number) =>
  Array.from({ length: 60 }, (_, line) => `export function handler${i}_${line}(input: { team?: string }) { return input.team ?? 'none-${line}'; }`).join('\n');
/**
 * A stack's own calculations: each text written for its service (its team, its property names),
 * as a platform team writes them, so the scan has as many distinct texts to judge as stacks.
 */
const stackCalculations = (i: number) => [
  `    on_call = { title = "On call", type = "string", calculation = "if (.team | index(\\"${team(i + 2)}\\")) != null then \\"${team(i + 2)} pages svc${i}\\" else .properties.escalation_${i} end" }`,
  `    owners_label = { title = "Owners", type = "string", calculation = "[.team[] | ascii_downcase] | join(\\", \\") + \\" for svc${i}\\"" }`,
  `    domain_team = { title = "Domain team", type = "string", calculation = ".relations.domain + \\"/\\" + (.team | first // \\"unowned-${i % 97}\\")" }`,
];
const terraformStack = (i: number) =>
  [
    `resource "port_blueprint" "svc${i}" {`,
    `  identifier = "svc${i}"`,
    `  title      = "Service ${i}"`,
    `  team_inheritance = { path = "domain" }`,
    `  relations = { "domain" = { target = "domain${i % 30}", required = false, many = false } }`,
    `  calculation_properties = {`,
    `    platform_owned = { title = "Platform owned", type = "boolean", calculation = "${SHARED_CALCULATION}" }`,
    `    owner_count    = { title = "Owners", type = "number", calculation = ".team | map(select(. == \\"${team(i)}\\")) | length" }`,
    ...stackCalculations(i),
    `  }`,
    `}`,
    ``,
    `resource "port_blueprint" "domain${i}" {`,
    `  identifier = "domain${i}"`,
    `  title      = "Domain ${i}"`,
    `  relations = { "teams" = { target = "_team", required = false, many = true } }`,
    `  team_inheritance = { path = "teams" }`,
    `}`,
    ``,
    `resource "port_blueprint_permissions" "svc${i}" {`,
    `  blueprint_identifier = port_blueprint.svc${i}.identifier`,
    `  entities = {`,
    `    "register" = { "teams" : ["${team(i)}", "${team(i + 3)}"], "ownedByTeam" : false }`,
    `    "update"   = { teams = ["${team(i + 1)}"] }`,
    `  }`,
    `}`,
    ``,
    `resource "port_entity" "svc${i}_main" {`,
    `  identifier = "svc${i}-main"`,
    `  blueprint  = port_blueprint.svc${i}.identifier`,
    `  teams      = ["${team(i)}"]`,
    `}`,
  ].join('\n');
const KINDS: Array<{ share: number; path: (i: number) => string; text: (i: number) => string }> = [
  { share: 0.36, path: (i) => `src/module${i % 200}/file${i}.ts`, text: code },
  { share: 0.09, path: (i) => `config/data${i % 50}/settings${i}.json`, text: (i) => JSON.stringify({ name: `pkg-${i}`, version: '1.0.0', owners: ['platform'], settings: Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`key${k}`, `value ${k}`])) }, null, 2) },
  { share: 0.07, path: (i) => `scripts/py${i % 40}/job${i}.py`, text: (i) => Array.from({ length: 50 }, (_, line) => `def job_${i}_${line}(team):\n    return team or "none"`).join('\n') },
  { share: 0.015, path: (i) => `bin/run${i}.sh`, text: (i) => `#!/bin/sh\necho "job ${i}"\n` },
  { share: 0.02, path: (i) => `infra/stack${i % 20}/port${i}.tf`, text: terraformStack },
  { share: 0.02, path: (i) => `services/svc${i}/port.yml`, text: (i) => `identifier: svc${i}\ntitle: Service ${i}\nblueprint: service\nteam: ${team(i)}\nproperties:\n  tier: gold\n` },
  { share: 0.005, path: (i) => `.port/blueprints/bp${i}.json`, text: (i) => JSON.stringify([{ identifier: `bp${i}`, title: `Blueprint ${i}`, teamInheritance: { path: 'service' }, calculationProperties: { mine: { title: 'Mine', type: 'boolean', calculation: '.team | index("Platform Team") != null' }, reviewers: { title: 'Reviewers', type: 'array', calculation: `[.team[] | select(. != "${team(i)}")] | map("review-${i}-" + .)` } } }], null, 2) },
  { share: 0.005, path: (i) => `payloads/page${i}-permissions.json`, text: (i) => JSON.stringify({ read: { users: [], roles: ['Admin'], teams: [team(i), team(i + 5)] } }, null, 2) },
  { share: 0.005, path: (i) => `scripts/api/entities${i}.py`, text: (i) => `import requests\n\nAPI = "https://api.getport.io/v1"\n\n\ndef upsert(token):\n    requests.post(\n        f"{API}/blueprints/service/entities?upsert=true",\n        headers={"Authorization": f"Bearer {token}"},\n        json={"identifier": "svc${i}", "title": "Service ${i}", "team": ["${team(i)}"]},\n    )\n` },
  { share: 0.005, path: (i) => `.github/workflows/ci${i}.yml`, text: (i) => `name: ci ${i}\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${i}\n` },
  { share: 0.385, path: (i) => `docs/section${i % 100}/page${i}.md`, text: (i) => `# Page ${i}\n\n${'Some prose about teams and services. '.repeat(40)}\n` },
];

/** Every calculation the generated files write (HCL and JSON quote them alike), to print how much there is to judge. */
const CALCULATION = /calculation"?\s*[=:]\s*"((?:[^"\\]|\\.)*)"/g;

/** Writes the repository; returns its calculations: all of them, and how many distinct texts. */
async function generate(root: string): Promise<{ calculations: number; distinct: number }> {
  const next = seededRandom(20_260_115);
  const writes: Array<[string, string]> = [];
  for (let i = 0; i < FILES; i++) {
    let roll = next();
    const kind = KINDS.find((k) => (roll -= k.share) < 0) ?? KINDS[KINDS.length - 1]!;
    writes.push([join(root, kind.path(i)), kind.text(i)]);
  }
  const texts = writes.flatMap(([, text]) => [...text.matchAll(CALCULATION)].map((match) => match[1]!));
  const dirs = new Set(writes.map(([path]) => dirname(path)));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  for (let start = 0; start < writes.length; start += 256) {
    await Promise.all(writes.slice(start, start + 256).map(([path, text]) => writeFile(path, text)));
  }
  return { calculations: texts.length, distinct: new Set(texts).size };
}

/** The repository as a user's checkout: one commit of every file, so git lists them (the scan asks git). */
function commit(root: string): void {
  const git = (...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${args[0]} in ${root}: ${run.error?.message ?? run.stderr.split('\n')[0]}`);
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench repository');
}

/** The floor's own count of what it read, to say it read the very files the scan lists. */
function floorCount(root: string): string {
  return spawnSync(process.execPath, [FLOOR, root], { encoding: 'utf8' }).stdout.trim();
}

const root = values.keep ?? (await mkdtemp(join(tmpdir(), 'tma-repo-bench-')));
const out = await mkdtemp(join(tmpdir(), 'tma-repo-bench-out-'));
try {
  if (values.keep !== undefined && (await readdir(root).catch(() => [])).length > 0) throw new Error(`--keep ${root}: not empty; give a new folder`);
  const judged = await generate(root);
  commit(root);
  const floors: ProcessFigures[] = [];
  const scans: ProcessFigures[] = [];
  const analyze = () => runAnalyze(['--repo', root, '--out', out, '--no-color', '-q']);
  const floor = () => runNode(FLOOR, [root]);
  for (let pair = 0; pair < PAIRS; pair++) {
    // Which goes first alternates: a pair's second run never always meets a warmer cache.
    if (pair % 2 === 0) {
      scans.push(analyze());
      floors.push(floor());
    } else {
      floors.push(floor());
      scans.push(analyze());
    }
  }
  const ratios = scans.map((scan, pair) => scan.wallMs / floors[pair]!.wallMs);
  const cpuRatios = scans.map((scan, pair) => scan.cpuMs / floors[pair]!.cpuMs);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { findings: unknown[] };
  const ratio = median(ratios);
  const seconds = (ms: number) => `${(ms / 1_000).toFixed(2)} s`;
  const wall = (figures: ProcessFigures[]) => seconds(median(figures.map((f) => f.wallMs)));
  const cpu = (figures: ProcessFigures[]) => seconds(median(figures.map((f) => f.cpuMs)));
  process.stdout.write(
    `repo-scan ${FILES} files: analyze --repo ${wall(scans)} (whole command, reports and fix kit written; CPU ${cpu(scans)}, peak ${Math.round(median(scans.map((f) => f.peakMb)))} MiB), ` +
      `floor ${wall(floors)} (another process listing the folder and reading every file once, synchronously: ${floorCount(root)}; CPU ${cpu(floors)}); ` +
      `${ratio.toFixed(2)}x (goal ≤ ${GOAL}x: ${verdict(ratio <= GOAL)}), median of ${PAIRS} wall-time ratios of pairs taken in turn [${ratios.map((r) => r.toFixed(2)).join(', ')}]; ` +
      `CPU ${median(cpuRatios).toFixed(2)}x (median of the pairs' CPU ratios, which load moves less), ` +
      `load average ${loadavg()[0]!.toFixed(1)} at the end; ${judged.calculations} calculations, ${judged.distinct} distinct texts; ${report.findings.length} findings\n`,
  );
} finally {
  await rm(out, { recursive: true, force: true });
  if (values.keep === undefined) await rm(root, { recursive: true, force: true });
}
