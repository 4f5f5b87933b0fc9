import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'action', 'run-audit.sh');

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const action = yaml.load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

/** Run the action's script as its composite step does: inputs as AUDIT_* variables, the runner's files in a temporary folder. */
function runStep(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'tma-action-'));
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  writeFileSync(files.GITHUB_OUTPUT, '');
  const inherited = { ...process.env };
  for (const key of ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'SOURCE_DATE_EPOCH', 'PORT_TOKEN', 'PORT_CLIENT_ID', 'PORT_CLIENT_SECRET']) delete inherited[key];
  const result = spawnSync('bash', [SCRIPT], {
    cwd: ROOT,
    env: { ...inherited, ...files, AUDIT_ACTION_ROOT: PACKAGE, AUDIT_OUT: join(dir, 'out'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const outputs = Object.fromEntries(
    readFileSync(files.GITHUB_OUTPUT, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { status: result.status, stderr: result.stderr, outputs, dir, summary: existsSync(files.GITHUB_STEP_SUMMARY) ? readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') : '' };
}

let files: string[] = [];
/** A package of its own, built from src/ into a temporary folder, as the action's checkout and `npm pack` see it. */
let PACKAGE = '';

// Built apart from ROOT/dist, which other test files rebuild and spawn at the same time.
beforeAll(() => {
  PACKAGE = mkdtempSync(join(tmpdir(), 'tma-package-'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(PACKAGE, 'dist')], { stdio: 'pipe' });
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'templates', 'schemas']) cpSync(join(ROOT, entry), join(PACKAGE, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(PACKAGE, 'node_modules'));
  // --ignore-scripts: the build above is what prepare would run.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as {
    files: { path: string }[];
  }[];
  files = (packed[0]?.files ?? []).map((f) => f.path);
}, 120_000);

describe('action.yml (composite GitHub Action)', () => {
  it('runs the audit, records its exit code, writes the SARIF and the step summary, and still lets the upload steps run', () => {
    const run = runStep({ AUDIT_SNAPSHOT: 'fixtures/demo-org.json', AUDIT_FAIL_ON: 'manual', AUDIT_REPOS: 'fixtures/repo-public\n\n' });
    expect(run.status).toBe(0); // the step passes; the last step fails the job with the code
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.outputs.sarif).toBe(join(run.dir, 'out', 'report.sarif'));
    const sarif = JSON.parse(readFileSync(run.outputs.sarif ?? '', 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results.length).toBeGreaterThan(0);
    expect(run.summary).toContain('## Teams migration audit: Acme Payments');
    expect(run.summary).toContain('**Gate: failed** (exit 1)');
    // The repository input was scanned too.
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

  it('wires every input into the script, uploads SARIF and the reports, and ends with the audit exit code', () => {
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    const audit = steps.find((s) => s.id === 'audit') as Step;
    const script = readFileSync(SCRIPT, 'utf8');
    const read = new Set([...script.matchAll(/\$\{(AUDIT_[A-Z_]+)/g)].map((m) => m[1]));
    expect(new Set(Object.keys(audit.env ?? {}))).toEqual(read);
    // Every input the steps name exists, and every input but upload-sarif reaches the script.
    const named = new Set(JSON.stringify(steps).match(/inputs\.[a-z-]+/g)?.map((m) => m.slice('inputs.'.length)));
    for (const input of named) expect(Object.keys(action.inputs)).toContain(input);
    for (const input of Object.keys(action.inputs).filter((i) => i !== 'upload-sarif')) {
      expect(Object.values(audit.env ?? {}), input).toContain(`\${{ inputs.${input} }}`);
    }
    // No input is expanded inside shell code: they travel as environment variables only.
    for (const step of steps) expect(step.run ?? '', step.id ?? step.uses ?? '').not.toMatch(/\$\{\{\s*inputs\./);
    const order = steps.map((s) => s.uses?.split('@')[0] ?? s.id ?? s.run?.slice(0, 12));
    expect(order.indexOf('github/codeql-action/upload-sarif')).toBeGreaterThan(order.indexOf('audit'));
    expect(order.indexOf('actions/upload-artifact')).toBeGreaterThan(order.indexOf('audit'));
    expect(steps.at(-1)?.env?.AUDIT_EXIT).toBe('${{ steps.audit.outputs.exit-code }}');
    expect(steps.at(-1)?.run).toBe('exit "${AUDIT_EXIT:-3}"');
  });
});

describe('npm pack', () => {
  it('ships the CLI, its templates, schemas, README and LICENSE, and nothing from the tests or fixtures', () => {
    for (const path of ['dist/main.js', 'dist/cli.js', 'templates/report.hbs', 'templates/report.js', 'templates/report.css', 'schemas/report.schema.json', 'README.md', 'LICENSE', 'package.json']) {
      expect(files, path).toContain(path);
    }
    expect(files.filter((f) => /^(test|fixtures|src|bench|output|action)\//.test(f))).toEqual([]);
    const license = readFileSync(join(PACKAGE, 'LICENSE'), 'utf8');
    const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string }).license;
    expect(license.startsWith(`${declared} License`)).toBe(true);
  });

  it('has no source map that points at a file missing from the package', () => {
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const document = JSON.parse(readFileSync(join(PACKAGE, map), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      document.sources.forEach((source, index) => {
        const embedded = typeof document.sourcesContent?.[index] === 'string';
        const shipped = files.includes(normalize(join(dirname(map), source)));
        expect(embedded || shipped, `${map} → ${source}`).toBe(true);
      });
      // The embedded text is the source the map was made from.
      const source = join(PACKAGE, dirname(map), document.sources[0] ?? '');
      if (existsSync(source)) expect(document.sourcesContent?.[0]).toBe(readFileSync(source, 'utf8'));
    }
  });
});
