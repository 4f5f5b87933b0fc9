import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateAction, validateWorkflow } from '@action-validator/core';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepOutputs } from '../support/action-step.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'action', 'run-audit.sh');
const INSTALL = join(ROOT, 'action', 'install.sh');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = yaml.load(ACTION_TEXT) as {
  inputs: Record<string, { default?: string; description: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const WORKFLOWS = readdirSync(join(ROOT, '.github', 'workflows')).filter((f) => /\.ya?ml$/.test(f));

/** The environment of a spawned run: nothing of this machine's CI or credentials leaks in. */
function cleanEnv(): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const key of ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_ACTIONS', 'SOURCE_DATE_EPOCH', 'PORT_TOKEN', 'PORT_CLIENT_ID', 'PORT_CLIENT_SECRET']) delete inherited[key];
  return inherited;
}

let TARBALL = '';
let FILES: string[] = [];
/** An empty folder where the packed tarball was installed, as a user installs it. */
let INSTALLED = '';
let BIN = '';

/** The README's install steps, one command a line, comments dropped. */
function installSteps(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').map((line) => line.split('#')[0]!.trim()).filter(Boolean);
}

/** The files a fresh clone holds: what git tracks, and what it would track (new files not yet committed), nothing it ignores. */
function freshClone(): string {
  const clone = mkdtempSync(join(tmpdir(), 'tma-clone-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(clone, file), { recursive: true });
  return clone;
}

let PACK_LOG = '';

// Packed as the README says, in a fresh clone: `npm ci && npm pack`, the build run by prepack. The
// clone's `npm ci` is this checkout's (the same lockfile: its node_modules are linked in), which
// keeps the suite offline and quick; what the README's line does after it runs as written. Apart
// from ROOT/dist, which other test files rebuild and spawn at the same time.
beforeAll(() => {
  const clone = freshClone();
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  const [pack] = installSteps();
  expect(pack).toBe('npm ci && npm pack');
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const packed = spawnSync('sh', ['-c', pack!.replace(/^npm ci && /, '')], { cwd: clone, encoding: 'utf8', env: cleanEnv() });
  PACK_LOG = `${packed.stdout}${packed.stderr}`;
  expect(packed.status, PACK_LOG).toBe(0);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string; dependencies: Record<string, string>; bin: Record<string, string> };
  TARBALL = join(clone, `teams-migration-audit-${pkg.version}.tgz`);
  FILES = execFileSync('tar', ['-tzf', TARBALL], { encoding: 'utf8' }).split('\n').filter(Boolean).map((path) => path.replace(/^package\//, ''));

  // Installed from the tarball into an empty folder. Offline (tests reach no registry): the
  // dependencies come from npm's cache, which `npm ci` of this checkout filled, pinned by the
  // checkout's own lockfile entries.
  INSTALLED = mkdtempSync(join(tmpdir(), 'tma-installed-'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const dependencies = { 'teams-migration-audit': `file:${TARBALL}` };
  const packages: Record<string, unknown> = {
    '': { name: 'user-project', dependencies },
    'node_modules/teams-migration-audit': { version: pkg.version, resolved: `file:${TARBALL}`, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith('node_modules/') && !entry.dev && !entry.devOptional) packages[path] = entry;
  writeFileSync(join(INSTALLED, 'package.json'), JSON.stringify({ name: 'user-project', private: true, dependencies }));
  writeFileSync(join(INSTALLED, 'package-lock.json'), JSON.stringify({ name: 'user-project', lockfileVersion: 3, requires: true, packages }));
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: INSTALLED, stdio: 'pipe' });
  BIN = join(INSTALLED, 'node_modules', '.bin', 'teams-migration-audit');
}, 180_000);

/** The installed tool, run from a folder of the user's with nothing of this repository in it. */
function tool(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(BIN, args, { cwd, env: { ...cleanEnv(), ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Run the action's audit script as its composite step does: inputs as AUDIT_* variables, the runner's files in a temporary folder. */
function runStep(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'tma-action-'));
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  writeFileSync(files.GITHUB_OUTPUT, '');
  const result = spawnSync('bash', [SCRIPT], {
    cwd: ROOT,
    env: { ...cleanEnv(), ...files, GITHUB_JOB: 'audit', AUDIT_ACTION_ROOT: ROOT, AUDIT_BIN: BIN, AUDIT_OUT: join(dir, 'out'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const outputs = stepOutputs(files.GITHUB_OUTPUT);
  return { status: result.status, stderr: result.stderr, outputs, dir, summary: existsSync(files.GITHUB_STEP_SUMMARY) ? readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') : '' };
}

describe('the packed tarball, installed in an empty folder', () => {
  it('ships the CLI, its templates, schemas, the demo org, the docs and the README, and no source map, test or source', () => {
    for (const path of ['dist/main.js', 'dist/cli.js', 'templates/report.hbs', 'templates/report.js', 'templates/report.css', 'schemas/report.schema.json', 'fixtures/demo-org.json', 'README.md', 'LICENSE', 'package.json', 'docs/README.md']) {
      expect(FILES, path).toContain(path);
    }
    expect(FILES.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(FILES.filter((f) => /^(test|src|bench|output|action)\//.test(f) || (f.startsWith('fixtures/') && f !== 'fixtures/demo-org.json'))).toEqual([]);
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string }).license;
    expect(license.startsWith(`${declared} License`)).toBe(true);
  });

  it("the README's install steps work on a fresh clone: npm pack builds the tool (prepack), and the tarball installs without an install script", () => {
    expect(PACK_LOG).not.toMatch(/not found|ERR!/);
    expect(FILES).toContain('dist/main.js');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // The build is in prepack: a tarball (or the action's install) would have npm warn about, or run, anything else.
    // Prepack also ships the lockfile as npm-shrinkwrap.json (postpack removes the copy): installed, the
    // tarball's dependencies are the versions it was tested with, not whatever their ranges allow that day.
    expect(pkg.scripts.prepack).toBe(`npm run build && node -e "require('fs').copyFileSync('package-lock.json', 'npm-shrinkwrap.json')"`);
    expect(FILES).toContain('npm-shrinkwrap.json');
    expect(existsSync(join(TARBALL, '..', 'npm-shrinkwrap.json'))).toBe(false);
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[script], script).toBeUndefined();
    const again = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', TARBALL], { cwd: INSTALLED, encoding: 'utf8', env: cleanEnv() });
    expect(again.status, again.stderr).toBe(0);
    expect(`${again.stdout}${again.stderr}`).not.toMatch(/install-scripts|install scripts/);
    const [, install, demo] = installSteps();
    expect(install).toBe(`npm install --global ./${TARBALL.split('/').at(-1)}`);
    expect(demo).toBe('teams-migration-audit analyze --demo');
  });

  it('engines names a maintained Node, and what CI and the action run is inside it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    // Node 20 left maintenance in April 2026; 22 and 24 are the maintained lines.
    expect(pkg.engines.node).toBe('>=22');
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(Number(setup?.with?.['node-version'])).toBeGreaterThanOrEqual(22);
    expect(action.inputs['setup-node']?.description).toContain('Node 22 or later');
    // The repository's own CI runs the suite on each maintained line.
    const tests = yaml.load(readFileSync(join(ROOT, '.github', 'workflows', 'test.yml'), 'utf8')) as { jobs: Record<string, { strategy?: { matrix?: { node?: number[] } }; steps: Step[] }> };
    const job = Object.values(tests.jobs)[0]!;
    expect(job.strategy?.matrix?.node).toEqual([22, 24]);
    expect(job.steps.some((step) => step.run?.includes('npm test'))).toBe(true);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('Node 22 or later');
  });

  it('--help answers, and its first analyze example is the demo', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tma-user-'));
    const help = tool(['--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('analyze');
    const analyzeHelp = tool(['analyze', '--help'], cwd);
    const examples = analyzeHelp.stdout.split('\n').filter((line) => line.trim().startsWith('$ '));
    expect(examples[0]?.trim()).toMatch(/^\$ teams-migration-audit analyze --demo\b/);
    expect(analyzeHelp.stdout).toContain('--ignore <pattern>');
    expect(tool(['snapshot', '--help'], cwd).stdout).toMatch(/--out <file>\s+where to write the snapshot \(required\)/);
  });

  it('analyze --demo writes the report, and every file its hints name exists', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tma-user-'));
    const run = tool(['analyze', '--demo'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, 'output', 'index.html'))).toBe(true);
    const wrote = /^wrote (.+)$/m.exec(run.stderr)?.[1]?.split(', ') ?? [];
    expect(wrote).toContain('output/index.html');
    for (const path of wrote) expect(existsSync(join(cwd, path)), path).toBe(true);
    // "fix kit: … in output/fixes … (see its README.md)"
    const kit = /fix kit: .* in (\S+) .*see its README\.md/.exec(run.stderr);
    expect(kit, run.stderr).not.toBeNull();
    expect(existsSync(join(cwd, kit![1]!, 'README.md'))).toBe(true);
    // The page names the demo, not a path inside node_modules.
    expect(readFileSync(join(cwd, 'output', 'index.html'), 'utf8')).toContain('from the bundled demo org');
  });

  it('with no org named, the hint it prints is a command that works', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tma-user-'));
    const run = tool(['analyze'], cwd);
    expect(run.code).toBe(2);
    const hinted = [...run.stderr.matchAll(/`(teams-migration-audit [^`]+)`/g)].map((m) => m[1]!);
    expect(hinted.length).toBeGreaterThan(0);
    for (const command of hinted) {
      const args = command.split(' ').slice(1);
      const again = tool(args, cwd);
      expect(again.code, `${command}: ${again.stderr}`).toBe(0);
    }
  });

  it('its README is a user manual: no link outside the package, none into developer notes', () => {
    const readme = readFileSync(join(INSTALLED, 'node_modules', 'teams-migration-audit', 'README.md'), 'utf8');
    expect(readme).not.toContain('../shared');
    expect(readme).not.toMatch(/\bbench\b|window-pacing|update:golden/);
    // It opens with the two commands, the demo and the tests.
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock.split('\n').filter(Boolean).map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test']);
  });
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
const anchorsOf = (markdown: string) =>
  new Set([...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')));


describe('the packed tarball\'s links (issue 42)', () => {
  it('every relative link of every Markdown file in it leads to a file in it, and to a heading there', () => {
    const dead: string[] = [];
    const files = new Set(FILES);
    const root = join(INSTALLED, 'node_modules', 'teams-migration-audit');
    for (const page of FILES.filter((path) => path.endsWith('.md'))) {
      const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path));
        const exists = files.has(resolved) || FILES.some((file) => file.startsWith(`${resolved.replace(/\/$/, '')}/`));
        if (!exists) dead.push(`${page}: ${target} (no ${resolved} in the package)`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(join(root, resolved), 'utf8')).has(anchor)) dead.push(`${page}: ${target} (no heading #${anchor})`);
      }
    }
    expect(dead).toEqual([]);
  });
});

describe('action.yml (composite GitHub Action)', () => {
  it('passes the action linter (@action-validator/core: the action and workflow schemas) for the action and every workflow', () => {
    expect(validateAction(ACTION_TEXT).errors).toEqual([]);
    expect(WORKFLOWS.length).toBeGreaterThan(0);
    for (const file of WORKFLOWS) expect(validateWorkflow(readFileSync(join(ROOT, '.github', 'workflows', file), 'utf8')).errors, file).toEqual([]);
    // The linter can fail: a misspelt key is an error.
    expect(validateAction(ACTION_TEXT.replace('runs:\n  using: composite', 'runs:\n  usin: composite')).errors.length).toBeGreaterThan(0);
  });

  it('pins every action it uses by commit, with the version in a comment, at current majors', () => {
    const texts = [ACTION_TEXT, ...WORKFLOWS.map((file) => readFileSync(join(ROOT, '.github', 'workflows', file), 'utf8'))];
    const uses = texts.flatMap((text) => [...text.matchAll(/^\s*(?:-\s*)?uses:\s*(\S+)(.*)$/gm)].map((m) => ({ ref: m[1]!, comment: m[2]!.trim() })));
    const remote = uses.filter((u) => !u.ref.startsWith('./'));
    expect(remote.length).toBeGreaterThan(3);
    for (const u of remote) {
      expect(u.ref, u.ref).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
      expect(u.comment, u.ref).toMatch(/^# v\d+\.\d+\.\d+$/);
    }
    const major = (name: string) => Number(/# v(\d+)/.exec(remote.find((u) => u.ref.startsWith(`${name}@`))?.comment ?? '')?.[1]);
    expect(major('github/codeql-action/upload-sarif')).toBeGreaterThanOrEqual(4);
    expect(major('actions/upload-artifact')).toBeGreaterThanOrEqual(5);
    expect(major('actions/setup-node')).toBeGreaterThanOrEqual(5);
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe(24);
    expect(setup?.if).toContain("inputs.setup-node == 'true'");
  });

  it('installs the packed tool, builds nothing, and wires every input into the scripts as data', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    for (const step of steps) expect(step.run ?? '').not.toMatch(/npm (ci|run build)|tsc/);
    const install = steps.find((s) => s.id === 'install') as Step;
    const audit = steps.find((s) => s.id === 'audit') as Step;
    expect(install.env?.AUDIT_PACKAGE).toBe('${{ inputs.package }}');
    const script = readFileSync(SCRIPT, 'utf8');
    const read = new Set([...script.matchAll(/\$\{(AUDIT_[A-Z_]+)/g)].map((m) => m[1]));
    expect(new Set(Object.keys(audit.env ?? {}))).toEqual(new Set([...read, 'AUDIT_ACTION_ROOT']));
    // Every input the steps name exists, and every input but those of other steps reaches the script.
    const named = new Set(JSON.stringify(steps).match(/inputs\.[a-z-]+/g)?.map((m) => m.slice('inputs.'.length)));
    for (const input of named) expect(Object.keys(action.inputs)).toContain(input);
    for (const input of Object.keys(action.inputs).filter((i) => !['upload-sarif', 'setup-node', 'package', 'integrity'].includes(i))) {
      expect(Object.values(audit.env ?? {}), input).toContain(`\${{ inputs.${input} }}`);
    }
    for (const input of Object.keys(action.inputs)) expect(named, input).toContain(input);
    // No input is expanded inside shell code: they travel as environment variables only.
    for (const step of steps) expect(step.run ?? '', step.id ?? step.uses ?? '').not.toMatch(/\$\{\{\s*inputs\./);
    expect(spawnSync('bash', ['-n', INSTALL]).status).toBe(0);
    // Never a registry name, nor a tarball nobody vouched for: a package needs its sha512, and a
    // wrong one installs nothing (one line, exit 2). Without a package the action runs its own commit.
    expect(action.inputs.package).toMatchObject({ required: false, default: '' });
    expect(install.env?.AUDIT_INTEGRITY).toBe('${{ inputs.integrity }}');
    const installing = (env: Record<string, string>) => spawnSync('bash', [INSTALL], { env: { ...cleanEnv(), AUDIT_ACTION_ROOT: ROOT, RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'tma-runner-')), ...env }, encoding: 'utf8' });
    const unvouched = installing({ AUDIT_PACKAGE: 'teams-migration-audit' });
    expect(unvouched.status).toBe(2);
    expect(unvouched.stderr).toMatch(/^teams-migration-audit action: a 'package' needs its 'integrity'/);
    const registryName = installing({ AUDIT_PACKAGE: 'teams-migration-audit', AUDIT_INTEGRITY: `sha512-${'A'.repeat(86)}==` });
    expect(registryName.stderr).toMatch(/^teams-migration-audit action: 'package' is neither a file of the checkout nor an https:\/\/ URL/);
    expect(installing({ AUDIT_INTEGRITY: `sha512-${'A'.repeat(86)}==` }).stderr).toMatch(/^teams-migration-audit action: 'integrity' checks the 'package' input, which is empty/);
    const order = steps.map((s) => s.uses?.split('@')[0] ?? s.id ?? s.run?.slice(0, 12));
    expect(order.indexOf('github/codeql-action/upload-sarif')).toBeGreaterThan(order.indexOf('audit'));
    expect(order.indexOf('actions/upload-artifact')).toBeGreaterThan(order.indexOf('audit'));
    expect(steps.at(-1)?.env?.AUDIT_EXIT).toBe('${{ steps.audit.outputs.exit-code }}');
    expect(steps.at(-1)?.run).toBe('exit "${AUDIT_EXIT:-3}"');
  });

  it('installs a package only when its sha512 is the integrity input, with no install script', () => {
    // npm stands in for the registry client (the suite reaches no registry): it records what it was asked.
    const runner = mkdtempSync(join(tmpdir(), 'tma-runner-'));
    const fakeBin = mkdtempSync(join(tmpdir(), 'tma-fake-npm-'));
    writeFileSync(join(fakeBin, 'npm'), `#!/bin/sh\necho "$@" > "${join(runner, 'npm-args')}"\nmkdir -p "${join(runner, 'teams-migration-audit-tool', 'bin')}"\nprintf '#!/bin/sh\\necho 0.1.0\\n' > "${join(runner, 'teams-migration-audit-tool', 'bin', 'teams-migration-audit')}"\nchmod +x "${join(runner, 'teams-migration-audit-tool', 'bin', 'teams-migration-audit')}"\n`);
    chmodSync(join(fakeBin, 'npm'), 0o755);
    const env = { ...cleanEnv(), PATH: `${fakeBin}:${process.env.PATH}`, AUDIT_ACTION_ROOT: ROOT, RUNNER_TEMP: runner, GITHUB_OUTPUT: join(runner, 'output') };
    const integrity = `sha512-${createHash('sha512').update(readFileSync(TARBALL)).digest('base64')}`;
    const wrong = spawnSync('bash', [INSTALL], { env: { ...env, AUDIT_PACKAGE: TARBALL, AUDIT_INTEGRITY: `sha512-${'A'.repeat(86)}==` }, encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(`teams-migration-audit action: the package's sha512 is ${integrity}, not the 'integrity' input; nothing was installed\n`);
    expect(existsSync(join(runner, 'npm-args'))).toBe(false);
    const right = spawnSync('bash', [INSTALL], { env: { ...env, AUDIT_PACKAGE: TARBALL, AUDIT_INTEGRITY: integrity }, encoding: 'utf8' });
    expect(right.status, right.stderr).toBe(0);
    // The verified copy is what npm installs, never the path or URL given.
    expect(readFileSync(join(runner, 'npm-args'), 'utf8').trim()).toBe(`install --global --prefix ${join(runner, 'teams-migration-audit-tool')} --ignore-scripts --no-audit --no-fund --loglevel=error ${join(runner, 'teams-migration-audit-tool', 'teams-migration-audit.tgz')}`);
    expect(readFileSync(join(runner, 'output'), 'utf8')).toBe(`bin=${join(runner, 'teams-migration-audit-tool', 'bin', 'teams-migration-audit')}\n`);
  });

  it('without a package, runs its own commit: dependencies from its lockfile (npm ci, no scripts), built there', () => {
    // The action's checkout as `uses:` lays it out: the repository's files at the pinned commit, no node_modules.
    const checkout = freshClone();
    const runner = mkdtempSync(join(tmpdir(), 'tma-runner-'));
    const run = spawnSync('bash', [join(checkout, 'action', 'install.sh')], {
      env: { ...cleanEnv(), AUDIT_ACTION_ROOT: checkout, AUDIT_PACKAGE: '', RUNNER_TEMP: runner, GITHUB_OUTPUT: join(runner, 'output'), npm_config_offline: 'true' },
      encoding: 'utf8',
      timeout: 280_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const bin = /^bin=(.+)$/m.exec(readFileSync(join(runner, 'output'), 'utf8'))?.[1];
    const demo = spawnSync(bin!, ['analyze', '--demo', '--out', join(runner, 'out'), '--quiet'], { cwd: runner, encoding: 'utf8' });
    expect(demo.status, demo.stderr).toBe(0);
    expect(existsSync(join(runner, 'out', 'index.html'))).toBe(true);
  }, 300_000);

  it('uploads SARIF only when asked, and says what the upload needs', () => {
    expect(action.inputs['upload-sarif']?.default).toBe('false');
    expect(action.inputs['upload-sarif']?.description).toMatch(/security-events write/);
    expect(action.inputs['upload-sarif']?.description).toMatch(/code scanning enabled/);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.if).toContain("inputs.upload-sarif == 'true'");
  });

  it('runs the audit, records its exit code, writes the SARIF and the step summary, and names its artifact apart per matrix job', () => {
    const run = runStep({ AUDIT_SNAPSHOT: 'fixtures/demo-org.json', AUDIT_FAIL_ON: 'manual', AUDIT_REPOS: 'fixtures/repo-public\n\n', AUDIT_JOB_INDEX: '3' });
    expect(run.status).toBe(0); // the step passes; the last step fails the job with the code
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.outputs['artifact-name']).toBe('teams-migration-audit-audit-3');
    expect(run.outputs.sarif).toBe(join(run.dir, 'out', 'report.sarif'));
    const sarif = JSON.parse(readFileSync(run.outputs.sarif ?? '', 'utf8')) as { version: string; runs: { results: { locations: { physicalLocation?: unknown }[] }[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results.length).toBeGreaterThan(0);
    // Code scanning rejects an upload with one result lacking a file: none does.
    for (const result of sarif.runs[0]?.results ?? []) expect(result.locations[0]?.physicalLocation).toBeDefined();
    expect(run.summary).toContain('## Teams migration audit: Acme Payments');
    expect(run.summary).toContain('**Gate: failed** (exit 1)');
    expect(run.stderr).toMatch(/^failing: /m);
    const report = JSON.parse(readFileSync(join(run.dir, 'out', 'report.json'), 'utf8')) as { findings: { resource: { type: string } }[] };
    expect(report.findings.some((f) => f.resource.type === 'file')).toBe(true);
  }, 90_000);

  it('passes inputs as data: a snapshot name with shell syntax is a file name, not a command', () => {
    const marker = join(tmpdir(), `tma-action-pwned-${process.pid}`);
    const run = runStep({ AUDIT_SNAPSHOT: `$(touch ${marker}).json`, AUDIT_FAIL_ON: 'none' });
    expect(run.status).toBe(0);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stderr).toContain(`$(touch ${marker}).json`);
    expect(existsSync(marker)).toBe(false);
    expect(run.outputs.sarif).toBeUndefined(); // nothing to upload
  });

  it("the README's CI section names every input of the action", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const docs = existsSync(join(ROOT, 'docs', 'ci.md')) ? readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8') : '';
    for (const input of Object.keys(action.inputs)) expect(`${readme}\n${docs}`, input).toContain(`\`${input}\``);
  });

  it("the README's CI section matches action.yml: its example sets real inputs, the required ones included, and with \"other inputs\" names each input once", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use in CI'), readme.indexOf('\n## ', readme.indexOf('## Use in CI') + 1));
    const example = yaml.load(/```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '') as { uses: string; with: Record<string, unknown> }[];
    const step = example.find((s) => s.uses?.includes('teams-migration-audit'));
    expect(step).toBeDefined();
    const shown = Object.keys(step!.with);
    const others = [.../Its other inputs are ([\s\S]*?)\(/.exec(section)![1]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!);
    expect([...shown, ...others].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, input] of Object.entries(action.inputs)) if (input.required) expect(shown, name).toContain(name);
  });
});
