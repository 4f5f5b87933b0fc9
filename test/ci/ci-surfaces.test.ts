import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { incompleteLines, parserErrorLine } from '../../src/cli-text.js';
import { ensureWritableDir, ensureWritableFile } from '../../src/output/output-path.js';
import { cell } from '../../src/report/markdown.js';
import { parseFormats } from '../../src/report/write-reports.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { demoSnapshotJson } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO = 'fixtures/demo-org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-surface-'));

/** The CLI in-process (the same code main.js runs). */
const cli = (args: string[], env: Record<string, string> = {}) => runCliCaptured(args, env);
/** A snapshot that is not there: a check that runs before the org is read answers first, whatever the machine's speed. */
const UNREAD = '/nonexistent/org-snapshot.json';
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('output paths fail fast (one line, exit 2)', () => {
  // A recursive mkdir under /proc spun for ever: a hang fails on the test's timeout.
  it('--out under /proc fails with one line instead of hanging, before the org is read', async () => {
    const run = await cli(['analyze', '--snapshot', UNREAD, '--out', '/proc/nope/out', '--fail-on', 'none']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(['teams-migration-audit: --out /proc/nope/out: cannot create /proc/nope (ENOENT)']);
  });

  it('--out that is a file, and --write-baseline that is a directory, each fail with one line', async () => {
    const dir = tmp();
    const file = join(dir, 'taken');
    writeFileSync(file, 'x');
    const out = await cli(['analyze', '--snapshot', DEMO, '--out', join(file, 'out')]);
    expect(out.code).toBe(2);
    expect(lines(out.stderr)).toEqual([`teams-migration-audit: --out ${join(file, 'out')}: ${file} exists and is not a directory`]);
    const baseline = await cli(['analyze', '--snapshot', DEMO, '--out', join(dir, 'o'), '--write-baseline', dir]);
    expect(baseline.code).toBe(2);
    expect(lines(baseline.stderr)).toEqual([`teams-migration-audit: --write-baseline ${dir}: is a directory, expected a file path`]);
  });

  it('--fix-out is checked the same way, before the org is read', async () => {
    const run = await cli(['analyze', '--snapshot', UNREAD, '--out', tmp(), '--fix-out', '/proc/nope/fixes']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(['teams-migration-audit: --fix-out /proc/nope/fixes: cannot create /proc/nope (ENOENT)']);
  });

  it('snapshot --out is checked before the org is read', async () => {
    const run = await cli(['snapshot', UNREAD, '--out', '/proc/nope/org.json']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(['teams-migration-audit: --out /proc/nope/org.json: cannot create /proc/nope (ENOENT)']);
  });

  it('ensureWritableDir creates missing levels and refuses a folder it cannot write', async () => {
    const dir = tmp();
    await ensureWritableDir(join(dir, 'a', 'b'), '--fix-out');
    expect(() => readFileSync(join(dir, 'a', 'b'))).toThrow(/EISDIR/);
    await expect(ensureWritableDir('/proc', '--fix-out')).rejects.toThrow(/^--fix-out \/proc: cannot write files there/);
    await expect(ensureWritableFile(join(dir, 'a'), '--write-baseline')).rejects.toThrow('is a directory');
    if (process.getuid?.() !== 0) {
      // Permissions do not stop root; the /proc case above covers a folder that takes no files.
      const locked = join(dir, 'locked');
      execFileSync('mkdir', [locked]);
      chmodSync(locked, 0o500);
      await expect(ensureWritableDir(join(locked, 'x'), '--out')).rejects.toThrow(/EACCES/);
    }
  });
});

describe('CI surfaces', () => {
  it('stderr names each unreadable resource, up to ten, then a count', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ resource: `page p${i} permissions`, reason: 'HTTP 403' }));
    expect(incompleteLines(items.slice(0, 1))).toEqual(['not read: page p0 permissions: HTTP 403']);
    const all = incompleteLines(items);
    expect(all).toHaveLength(11);
    expect(all[9]).toBe('not read: page p9 permissions: HTTP 403');
    expect(all[10]).toBe('not read: …and 2 more (see report.json "incomplete")');

    const dir = tmp();
    const snapshot = demoSnapshotJson();
    snapshot.incomplete = [{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403' }];
    writeFileSync(join(dir, 'org.json'), JSON.stringify(snapshot));
    const run = await cli(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out'), '--format', 'json']);
    expect(run.code).toBe(3);
    expect(lines(run.stderr)).toContain('not read: page sre_dashboard permissions: HTTP 403');
  });

  it('summary.md lists the top items with their value under --fail-on none, links the report, and its verdict counts add up', async () => {
    const dir = tmp();
    // A relative --out, as a CI job gives it: run from a scratch folder (the forks pool gives each file its own process).
    const out = 'audit/summary';
    const before = process.cwd();
    process.chdir(dir);
    let run: Awaited<ReturnType<typeof cli>>;
    try {
      run = await cli(['analyze', '--snapshot', join(ROOT, DEMO), '--out', out, '--format', 'html,json,md', '--fail-on', 'none'], {
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/platform',
        GITHUB_RUN_ID: '42',
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      });
    } finally {
      process.chdir(before);
    }
    expect(run.code).toBe(0);
    const md = readFileSync(join(dir, out, 'summary.md'), 'utf8');
    const report = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as { findings: { kind: string; verdict?: string; rewrite?: string }[]; summary: { manual: number } };
    const rows = md.split('\n').filter((line) => /^\| [0-9]+ \|/.test(line));
    expect(rows.length).toBe(10);
    // A row says when it fails this gate (none does here) and carries a value where one was computed.
    expect(rows.some((row) => row.includes('fails the gate'))).toBe(false);
    const firstWithRewrite = report.findings.find((f) => f.kind === 'manual' && f.verdict === 'breaks' && f.rewrite);
    expect(firstWithRewrite).toBeDefined();
    expect(rows.some((row) => row.endsWith(`| ${cell(firstWithRewrite!.rewrite!)} |`))).toBe(true);
    expect(md).toContain(`Full report: ${out}/index.html (in the artifacts of [this run](https://github.com/acme/platform/actions/runs/42)).`);

    const count = (label: string) => Number(new RegExp(`^\\| ${label} \\| (\\d+) \\|$`, 'm').exec(md)?.[1]);
    // Unaffected references are counted as checked and fine, not as manual items: no row of their own.
    expect(md).not.toMatch(/^\| unaffected \|/m);
    const byVerdict = ['breaks', 'needs review', 'needs action'].map(count);
    expect(byVerdict.every(Number.isInteger)).toBe(true);
    expect(byVerdict.reduce((a, b) => a + b, 0)).toBe(report.summary.manual);
    expect(count('total')).toBe(report.summary.manual);
    expect(count('needs action')).toBe(report.findings.filter((f) => f.kind === 'manual' && f.verdict === undefined).length);
  });

  it('--help has an Environment section on every command, and snapshot has examples', async () => {
    for (const args of [['--help'], ['analyze', '--help'], ['snapshot', '--help']]) {
      const run = await cli(args);
      expect(run.code).toBe(0);
      for (const name of ['Environment:', 'PORT_TOKEN', 'PORT_CLIENT_ID, PORT_CLIENT_SECRET', 'SOURCE_DATE_EPOCH', 'NO_COLOR']) expect(run.stdout, args.join(' ')).toContain(name);
      // The step summary is analyze's; snapshot writes none, so its help does not offer one.
      if (args[0] === 'snapshot') expect(run.stdout).not.toContain('GITHUB_STEP_SUMMARY');
      else expect(run.stdout, args.join(' ')).toContain('GITHUB_STEP_SUMMARY');
    }
    expect((await cli(['snapshot', '--help'])).stdout).toMatch(/Examples:\n {2}\$ .*snapshot --region eu --out org\.json/);
  });

  it('--app-url sets the report\'s service links, and a bad one fails before anything is read', async () => {
    const dir = tmp();
    const run = await cli(['analyze', '--snapshot', DEMO, '--out', dir, '--fail-on', 'none', '--quiet', '--app-url', 'https://port.example.com']);
    expect(run.code).toBe(0);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('"serviceUrl":"https://port.example.com/self-serve?action=deploy_service"');
    expect(html).not.toContain('https://app.getport.io/');
    const bad = await cli(['analyze', '--snapshot', DEMO, '--out', join(dir, 'bad'), '--app-url', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(lines(bad.stderr)).toEqual(['teams-migration-audit: --app-url must be an http(s) address, got "ftp://x"']);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
  });

  it('parser errors carry the tool prefix and a --help hint; --format is case-insensitive', async () => {
    const run = await cli(['analyze', '--no-such-flag']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(["teams-migration-audit: unknown option '--no-such-flag' (see --help)"]);
    expect(parserErrorLine("error: missing required argument 'x'\n")).toBe("teams-migration-audit: missing required argument 'x' (see --help)\n");
    expect(parserErrorLine("error: unknown option '--\u001b]0;x\u0007'\n")).not.toMatch(/[\u001b\u0007]/);
    expect(parseFormats('HTML, Json,SARIF')).toEqual(['html', 'json', 'sarif']);
    const dir = tmp();
    expect((await cli(['analyze', '--snapshot', DEMO, '--out', dir, '--format', 'JSON', '--fail-on', 'none', '--quiet'])).code).toBe(0);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toContain('"impact-report/1"');
  });
});
