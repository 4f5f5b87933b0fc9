import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { Report } from '../../src/model/finding.js';
import { OWN_OUTPUTS } from '../../src/output/own-outputs.js';
import { transpileForChild } from '../helpers/transpile.js';
import { committedCheckout, git, stepOutputs } from '../support/action-step.js';
import { afterNodeNote } from '../helpers/node-note.js';

// Issue 38: a pull request cannot turn a failing gate into a passing one by making the breaking file
// unreadable (padded, NUL-poisoned, not UTF-8, a link out) or by ignoring it, and the action uploads
// only what its run wrote. Each case runs the action's own script on a git checkout, as the step does.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'action', 'run-audit.sh');
const DEMO = join(ROOT, 'fixtures', 'demo-org.json');
const BREAKING = readFileSync(join(ROOT, 'fixtures', 'repo', 'terraform', 'permissions.tf'), 'utf8');
let BIN = '';

beforeAll(() => {
  // The CLI as a process of its own (transpiled apart, no build), behind a bin as the install step makes.
  const main = join(transpileForChild(['src/main.ts'], { asPackage: true }), 'src', 'main.js');
  BIN = join(mkdtempSync(join(tmpdir(), 'tma-gate-bin-')), 'teams-migration-audit');
  writeFileSync(BIN, `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`);
  chmodSync(BIN, 0o755);
});

/** The main branch: infra/main.tf writes team titles where identifiers go, so the gate fails. */
const checkout = (): string => committedCheckout('gate-checkout', { 'infra/main.tf': BREAKING });

/** A pull request's commit on top of main. */
function pullRequest(dir: string, change: (dir: string) => void): string {
  change(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'pull request');
  return dir;
}

/** The environment of a spawned step: nothing of this machine's CI or credentials. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key.startsWith('PORT_') || key.startsWith('GIT_') || key === 'RUNNER_TEMP') delete env[key];
  return env;
}

/** The audit step of action.yml in the checkout, as the runner runs it: inputs as AUDIT_* variables. */
function runStep(cwd: string, env: Record<string, string> = {}) {
  const runner = mkdtempSync(join(tmpdir(), 'tma-gate-runner-'));
  const files = { GITHUB_OUTPUT: join(runner, 'output'), GITHUB_STEP_SUMMARY: join(runner, 'summary.md'), RUNNER_TEMP: join(runner, 'temp') };
  mkdirSync(files.RUNNER_TEMP);
  writeFileSync(files.GITHUB_OUTPUT, '');
  const result = spawnSync('bash', [SCRIPT], {
    cwd,
    env: { ...cleanEnv(), ...files, GITHUB_ACTIONS: 'true', GITHUB_JOB: 'audit', AUDIT_ACTION_ROOT: ROOT, AUDIT_BIN: BIN, AUDIT_SNAPSHOT: DEMO, AUDIT_REPOS: 'infra', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const outputs = stepOutputs(files.GITHUB_OUTPUT);
  const summary = existsSync(files.GITHUB_STEP_SUMMARY) ? readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') : '';
  return { status: result.status, stderr: result.stderr, outputs, summary, runner };
}

const reportOf = (outputs: Record<string, string>) => JSON.parse(readFileSync(join(outputs.out!, 'report.json'), 'utf8')) as Report;

/** Every file under a folder, relative, links included (as links). */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the gate on a pull request that hides its breaking file', () => {
  it('fails on main: the file is read and its findings fail the gate', () => {
    const run = runStep(checkout());
    expect(run.status).toBe(0);
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(run.stderr).toMatch(/^::error file=infra\/main\.tf,line=\d+,/m);
  }, 120_000);

  const unreadable: [string, (dir: string) => void, string][] = [
    ['padded past 5 MB with a comment', (dir) => appendFileSync(join(dir, 'infra', 'main.tf'), `# ${'x'.repeat(5 * 1024 * 1024)}\n`), 'over the 5 MB limit; --max-file-size raises it'],
    ['poisoned with a NUL byte in a comment', (dir) => appendFileSync(join(dir, 'infra', 'main.tf'), '# \u0000\n'), 'a NUL byte: binary, not text'],
    ['re-encoded as UTF-16', (dir) => writeFileSync(join(dir, 'infra', 'main.tf'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(BREAKING, 'utf16le')])), 'UTF-16 text: only UTF-8 is read'],
    [
      'replaced by a link out of the checkout',
      (dir) => {
        const outside = join(mkdtempSync(join(tmpdir(), 'tma-gate-outside-')), 'main.tf');
        writeFileSync(outside, 'terraform {}\n');
        rmSync(join(dir, 'infra', 'main.tf'));
        symlinkSync(outside, join(dir, 'infra', 'main.tf'));
      },
      'a symbolic link to outside the repository',
    ],
  ];
  it.each(unreadable)('%s: incomplete (exit 3), named in the log, annotated, first in the summary and on the page', (_name, change, why) => {
    const run = runStep(pullRequest(checkout(), change));
    expect(run.outputs['exit-code'], run.stderr).toBe('3');
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: 'infra/main.tf', reason: expect.stringContaining(why) })]);
    expect(reportOf(run.outputs).gate?.result).toBe('incomplete');
    // The annotation comes before any other, on the file itself.
    const annotations = run.stderr.split('\n').filter((line) => line.startsWith('::error '));
    expect(annotations[0]).toMatch(/^::error file=infra\/main\.tf,title=teams-migration-audit%3A not read%2C no gate verdict::not read: infra\/main\.tf: could not be read \(.*\); the file was not checked$/);
    expect(annotations[0]).toContain(why);
    // The summary's first section is what could not be read.
    expect(run.summary.split('\n').find((line) => line.startsWith('### '))).toBe('### Incomplete');
    expect(run.summary).toContain('- infra/main.tf: could not be read');
    // The summary names the artifact the reports are uploaded in (issue 42).
    expect(run.summary).toContain(`in the artifact \`${run.outputs['artifact-name']}\``);
    expect(readFileSync(join(run.outputs.out!, 'index.html'), 'utf8')).toContain('infra/main.tf');
  }, 120_000);

  it('given bytes that are not UTF-8 in a comment: still read byte for byte, and its findings fail the gate', () => {
    const run = runStep(pullRequest(checkout(), (d) => appendFileSync(join(d, 'infra', 'main.tf'), Buffer.from([0x23, 0x20, 0xe9, 0xff, 0x0a]))));
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(reportOf(run.outputs).findings.some((f) => f.location.startsWith('infra/main.tf:'))).toBe(true);
  }, 120_000);

  it('--max-file-size raises the limit: the padded file is read again, and its findings fail the gate', () => {
    const dir = pullRequest(checkout(), (d) => appendFileSync(join(d, 'infra', 'main.tf'), `# ${'x'.repeat(5 * 1024 * 1024)}\n`));
    const run = spawnSync(BIN, ['analyze', '--snapshot', DEMO, '--repo', 'infra', '--out', join(mkdtempSync(join(tmpdir(), 'tma-gate-out-')), 'out'), '--max-file-size', '6MB', '--quiet'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    const bad = spawnSync(BIN, ['analyze', '--snapshot', DEMO, '--repo', 'infra', '--max-file-size', '5 parsecs'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(afterNodeNote(bad.stderr)).toMatch(/^teams-migration-audit: option '--max-file-size <size>' argument '5 parsecs' is invalid\. give a size/);
  }, 120_000);

  it('ignored by the pull request\'s .gitignore (braces too): git still tracks it, so it is scanned and the gate fails', () => {
    const dir = pullRequest(checkout(), (d) => writeFileSync(join(d, '.gitignore'), 'infra/{main,x}.tf\ninfra/main.tf\n*.tf\n'));
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(reportOf(run.outputs).findings.some((f) => f.location.startsWith('infra/main.tf:'))).toBe(true);
    // Nothing of the ignore file is echoed anywhere.
    for (const text of [run.stderr, run.summary, readFileSync(join(run.outputs.out!, 'report.json'), 'utf8'), readFileSync(join(run.outputs.out!, 'index.html'), 'utf8')]) expect(text).not.toContain('{main,x}');
  }, 120_000);
});

describe('what the action uploads', () => {
  it("uploads the step's copy, never the out folder, and knows the audit's own output names", async () => {
    const action = yaml.load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { uses?: string; with?: Record<string, string> }[] } };
    const upload = action.runs.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toBe('${{ steps.audit.outputs.upload }}');
    const script = (await import(join(ROOT, 'action', 'out-folder.mjs'))) as { OWN_OUTPUTS: Map<string, string> };
    expect([...script.OWN_OUTPUTS]).toEqual([...OWN_OUTPUTS]);
  });

  it('by default a fresh folder in the runner temp, outside the checkout; the artifact is the files the run wrote, copied without links', () => {
    const dir = pullRequest(checkout(), (d) => {
      // The old default folder, planted with a link to the checkout's git config.
      mkdirSync(join(d, 'teams-migration-audit'));
      symlinkSync('../.git/config', join(d, 'teams-migration-audit', 'leak'));
    });
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(run.outputs.out!.startsWith(join(run.runner, 'temp'))).toBe(true);
    expect(relative(dir, run.outputs.out!).startsWith('..')).toBe(true);
    const uploaded = tree(run.outputs.upload!);
    expect(uploaded).toEqual(tree(run.outputs.out!));
    expect(uploaded).toEqual(expect.arrayContaining(['index.html', 'report.json', 'report.sarif', 'report.junit.xml', 'summary.md', 'fixes/README.md']));
    for (const file of uploaded) expect(lstatSync(join(run.outputs.upload!, file)).isFile(), file).toBe(true);
    expect(uploaded.some((file) => file.includes('leak'))).toBe(false);
  }, 120_000);

  it('a folder named in out that already holds anything else is refused in one line (exit 2), and nothing is uploaded', () => {
    const dir = pullRequest(checkout(), (d) => {
      mkdirSync(join(d, 'teams-migration-audit'));
      symlinkSync('../.git/config', join(d, 'teams-migration-audit', 'leak'));
    });
    const run = runStep(dir, { AUDIT_OUT: 'teams-migration-audit' });
    expect(run.status).toBe(0);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stderr).toBe(
      `teams-migration-audit action: the out folder teams-migration-audit is refused: it holds "leak", which the audit does not write there; leave 'out' empty (a fresh folder in the runner's temp) or name a new folder\n`,
    );
    expect(run.outputs['artifact-name']).toBeUndefined();
    expect(run.outputs.upload).toBeUndefined();
    // A report name that is a link is foreign too.
    rmSync(join(dir, 'teams-migration-audit', 'leak'));
    symlinkSync('../.git/config', join(dir, 'teams-migration-audit', 'report.json'));
    expect(runStep(dir, { AUDIT_OUT: 'teams-migration-audit' }).stderr).toContain('it holds "report.json", which the audit does not write there');
  }, 120_000);

  it('an out folder reached through a link the checkout holds is refused in one line, and nothing is written where it points', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tma-gate-elsewhere-'));
    const dir = pullRequest(checkout(), (d) => symlinkSync(elsewhere, join(d, 'reports')));
    const run = runStep(dir, { AUDIT_OUT: 'reports/audit' });
    expect(run.status).toBe(0);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stderr).toBe(
      `teams-migration-audit action: the out folder reports/audit is refused: its path passes through "reports", a link in the checkout; leave 'out' empty (a fresh folder in the runner's temp) or name a new folder\n`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(run.outputs.upload).toBeUndefined();
    // The same folder named by its absolute path is refused too: it is still inside the checkout.
    expect(runStep(dir, { AUDIT_OUT: join(dir, 'reports', 'audit') }).outputs['exit-code']).toBe('2');
    // A real folder in the checkout is fine.
    expect(runStep(dir, { AUDIT_OUT: 'real/audit', AUDIT_FORMAT: 'json' }).outputs['exit-code']).toBe('1');
  }, 120_000);

  it('a folder of an earlier run is reused; what this run did not write is not uploaded', () => {
    const dir = checkout();
    const out = join(mkdtempSync(join(tmpdir(), 'tma-gate-own-')), 'audit');
    const first = runStep(dir, { AUDIT_OUT: out, AUDIT_FORMAT: 'json' });
    expect(first.outputs['exit-code']).toBe('1');
    // A regular file the audit never writes, inside its kit folder: not written by the next run, so not uploaded.
    writeFileSync(join(out, 'fixes', 'planted.txt'), 'not from this run');
    const second = runStep(dir, { AUDIT_OUT: out, AUDIT_FORMAT: 'json' });
    expect(second.outputs['exit-code'], second.stderr).toBe('1');
    expect(tree(second.outputs.upload!)).not.toContain('fixes/planted.txt');
    expect(tree(second.outputs.upload!)).toContain('report.json');
  }, 120_000);
});

/** A main branch holding one breaking file (path → text) and nothing else. */
const checkoutOf = (path: string, text: string): string => committedCheckout('gate-disguise', { [path]: text });

const PERMISSIONS_JSON = readFileSync(join(ROOT, 'fixtures', 'repo', 'payloads', 'page-permissions.json'), 'utf8');
const MAPPING_YAML = ['resources:', '  - kind: v1/pods', '    port:', '      entity:', '        mappings:', '          - identifier: .metadata.name', '            blueprint: \'"pod"\'', '            team: \'"SRE On-Call"\'', ''].join('\n');

describe('the gate on a pull request that disguises its breaking file', () => {
  it('fails on main: the breaking JSON payload and the breaking mapping are judged', () => {
    for (const [path, text] of [['infra/permissions.json', PERMISSIONS_JSON], ['infra/exporter/config.yaml', MAPPING_YAML]] as const) {
      const run = runStep(checkoutOf(path, text));
      expect(run.outputs['exit-code']).toBe('1');
      expect(reportOf(run.outputs).findings.some((f) => f.location.startsWith(`${path}:`))).toBe(true);
    }
  }, 120_000);

  const claims: [string, Record<string, unknown>][] = [
    ["a report's format (impact-report/1)", { format: 'impact-report/1' }],
    ["a SARIF log's $schema", { $schema: 'https://json.schemastore.org/sarif-2.1.0.json' }],
    ["an org snapshot's format", { format: 'org-snapshot/1' }],
    ["a baseline's format", { format: 'teams-migration-audit-baseline/1' }],
    ["a review state's format", { format: 'teams-migration-audit/review-state/1' }],
  ];
  it.each(claims)('a JSON file given %s is still judged: its findings fail the gate', (_name, claim) => {
    const dir = pullRequest(checkoutOf('infra/permissions.json', PERMISSIONS_JSON), (d) => writeFileSync(join(d, 'infra', 'permissions.json'), JSON.stringify({ ...claim, ...JSON.parse(PERMISSIONS_JSON) }, null, 2)));
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(reportOf(run.outputs).findings.some((f) => f.location.startsWith('infra/permissions.json:'))).toBe(true);
  }, 120_000);

  it("an honest report.json of an earlier run, committed to the repository, neither fails nor blocks the gate", () => {
    const earlier = runStep(checkout());
    expect(earlier.outputs['exit-code']).toBe('1');
    const dir = committedCheckout('gate-committed-report', { 'infra/audit/report.json': readFileSync(join(earlier.outputs.out!, 'report.json'), 'utf8'), 'infra/audit/report.sarif': readFileSync(join(earlier.outputs.out!, 'report.sarif'), 'utf8') });
    const run = runStep(dir);
    // The demo org fails the gate on its own; nothing of the committed report is a finding or a gap.
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    const report = reportOf(run.outputs);
    expect(report.findings.filter((f) => f.location.startsWith('infra/'))).toEqual([]);
    expect(report.incomplete).toEqual([]);
  }, 120_000);

  it('a mapping made invalid YAML is incomplete (exit 3), named and annotated, never a note', () => {
    const dir = pullRequest(checkoutOf('infra/exporter/config.yaml', MAPPING_YAML), (d) => appendFileSync(join(d, 'infra', 'exporter', 'config.yaml'), '            extra: [a, b\n'));
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('3');
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: expect.stringMatching(/^infra\/exporter\/config\.yaml:\d+$/), reason: expect.stringContaining('not valid YAML') })]);
    expect(run.stderr).toMatch(/^::error file=infra\/exporter\/config\.yaml,line=\d+,title=teams-migration-audit%3A not read/m);
  }, 120_000);

  it('a mapping given a {{ }} and made invalid YAML is read with its template actions blanked, or incomplete', () => {
    const templated = pullRequest(checkoutOf('infra/exporter/config.yaml', MAPPING_YAML), (d) => appendFileSync(join(d, 'infra', 'exporter', 'config.yaml'), '{{- if .Values.x }}\n            title: {{ .Values.title }}\n{{- end }}\n'));
    const read = runStep(templated);
    expect(read.outputs['exit-code'], read.stderr).toBe('1');
    expect(reportOf(read.outputs).findings.some((f) => f.location.startsWith('infra/exporter/config.yaml:'))).toBe(true);
    const broken = pullRequest(checkoutOf('infra/exporter/config.yaml', MAPPING_YAML), (d) => appendFileSync(join(d, 'infra', 'exporter', 'config.yaml'), '            title: {{ .Values.title }}\n            extra: [a, b\n'));
    expect(runStep(broken).outputs['exit-code']).toBe('3');
  }, 120_000);

  const leaveOuts = ['vendor', 'build', 'dist', 'generated', 'third_party', 'node_modules', '{{cookiecutter.slug}}'];
  it.each(leaveOuts)('a breaking file moved into %s/ is tracked, so git has it scanned: the gate fails', (folder) => {
    const dir = pullRequest(checkout(), (d) => {
      mkdirSync(join(d, 'infra', folder), { recursive: true });
      git(d, 'mv', 'infra/main.tf', `infra/${folder}/main.tf`);
    });
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('1');
    expect(reportOf(run.outputs).findings.some((f) => f.location.startsWith(`infra/${folder}/main.tf:`))).toBe(true);
  }, 120_000);
});

describe('an unreadable file accepted by the same pull request in its baseline', () => {
  it('is let through only as the baseline says, and every surface says the acceptance came from the baseline', () => {
    const first = runStep(pullRequest(checkout(), (d) => appendFileSync(join(d, 'infra', 'main.tf'), '# \u0000\n')));
    expect(first.outputs['exit-code']).toBe('3');
    const [item] = reportOf(first.outputs).incomplete;
    // The same pull request adds the baseline entry (a baseline is the repository's own word: a reviewer reads it).
    const dir = pullRequest(checkout(), (d) => {
      appendFileSync(join(d, 'infra', 'main.tf'), '# \u0000\n');
      writeFileSync(join(d, 'baseline.json'), JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted: [{ id: item!.id, reason: 'cannot be helped', by: 'pr-author' }] }));
    });
    const run = runStep(dir, { AUDIT_BASELINE: 'baseline.json' });
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: 'infra/main.tf', accepted: { reason: 'cannot be helped', by: 'pr-author' } })]);
    expect(run.stderr).toContain(`not read (accepted in the baseline, id ${item!.id}): infra/main.tf`);
    expect(run.summary).toContain('- infra/main.tf: could not be read');
    expect(run.summary).toMatch(/infra\/main\.tf: could not be read .*\(accepted in the baseline\)/);
    expect(readFileSync(join(run.outputs.out!, 'index.html'), 'utf8')).toContain('accepted in the baseline');
  }, 120_000);
});

describe('the gate on a pull request that moves its breaking file out of sight', () => {
  it('into a submodule (not checked out by the runner): incomplete (exit 3), the submodule named', () => {
    const sub = committedCheckout('gate-submodule', { 'main.tf': BREAKING });
    const dir = pullRequest(checkout(), (d) => {
      rmSync(join(d, 'infra', 'main.tf'));
      git(d, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'infra/mod');
    });
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('3');
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: 'infra/mod/', reason: expect.stringContaining('a git repository of its own') })]);
  }, 120_000);

  it('by making the scanned folder a link to an empty folder elsewhere: refused in one line (exit 2)', () => {
    const dir = pullRequest(checkout(), (d) => {
      rmSync(join(d, 'infra'), { recursive: true });
      symlinkSync(mkdtempSync(join(tmpdir(), 'tma-gate-empty-')), join(d, 'infra'));
    });
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('2');
    expect(afterNodeNote(run.stderr)).toMatch(/^teams-migration-audit: --repo infra: a symbolic link to \S+, outside the git checkout \S+ it is in; give the folder itself/);
    // A link that stays inside the checkout is read where it leads.
    const inside = pullRequest(checkout(), (d) => {
      git(d, 'mv', 'infra', 'real-infra');
      symlinkSync('real-infra', join(d, 'infra'));
    });
    expect(runStep(inside).outputs['exit-code']).toBe('1');
  }, 120_000);
});

describe('the gate on a pull request that re-encodes a mapping', () => {
  it('as UTF-16 without a byte-order mark (what a .gitattributes working-tree-encoding checks out): incomplete (exit 3), never a skipped binary', () => {
    const dir = pullRequest(checkoutOf('infra/exporter/config.yaml', MAPPING_YAML), (d) => writeFileSync(join(d, 'infra', 'exporter', 'config.yaml'), Buffer.from(MAPPING_YAML, 'utf16le')));
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('3');
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: 'infra/exporter/config.yaml', reason: expect.stringContaining('could not be read') })]);
  }, 120_000);
});

describe('the gate on a pull request that commits its breaking file through Git LFS', () => {
  it('the runner checks out the pointer only: incomplete (exit 3), the file named, never a pointer judged empty', () => {
    const dir = pullRequest(checkout(), (d) => {
      writeFileSync(join(d, '.gitattributes'), '*.tf filter=lfs diff=lfs merge=lfs -text\n');
      writeFileSync(join(d, 'infra', 'main.tf'), 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234\n');
    });
    const run = runStep(dir);
    expect(run.outputs['exit-code'], run.stderr).toBe('3');
    expect(reportOf(run.outputs).incomplete).toEqual([expect.objectContaining({ resource: 'infra/main.tf', reason: expect.stringContaining('a Git LFS pointer') })]);
  }, 120_000);
});
