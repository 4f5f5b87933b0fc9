import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { readText, run, tempDir, withSandbox, type Run } from './harness.js';

/*
 * Issue 31 item 3: access errors are input errors. A token that can read nothing is one line and
 * exit 2, not an empty "(organization not readable)" report; a 401 says where to look; a path
 * typo, an HTML page or a report passed as a snapshot each say what they are.
 */
const exists = (path: string) => access(path).then(() => true, () => false);
const errorLines = (result: Run) => result.stderr.split('\n').filter((line) => line.startsWith('teams-migration-audit:'));
const FORBIDDEN = { status: 403, body: JSON.stringify({ ok: false, error: 'forbidden', message: 'You are not allowed to do that' }) };

describe('a token that can read nothing', () => {
  it('403 on every read: one line, exit 2, naming the refused reads and the role they need; nothing written', async () => {
    await withSandbox({ answerAll: FORBIDDEN }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      const lines = errorLines(result);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^teams-migration-audit: PORT_TOKEN can read nothing at ${sandbox.url.replace(/[.]/g, '\\.')}: `));
      for (const read of ['organization', 'blueprints', 'actions', 'pages', 'integrations', 'webhooks', 'teams', 'scorecards', 'users']) expect(lines[0]).toContain(read);
      expect(lines[0]).toContain('HTTP 403');
      expect(lines[0]).toMatch(/Admin role/);
      // Not a report of nothing, nor a fix kit for it, nor notes about "the snapshot".
      expect(result.stderr).not.toContain('the snapshot');
      expect(result.stderr).not.toContain('not read:');
      expect(await exists(join(out, 'report.json'))).toBe(false);
      expect(await exists(join(out, 'fixes'))).toBe(false);
      // With --quiet that line is all there is.
      const quiet = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(quiet.stderr.trimEnd().split('\n')).toEqual(lines);
    });
  });

  it('snapshot with such a token: the same line, exit 2, no file', async () => {
    await withSandbox({ answerAll: FORBIDDEN }, async (sandbox, clock) => {
      const file = join(await tempDir(), 'org.json');
      const result = await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(2);
      expect(errorLines(result)).toHaveLength(1);
      expect(result.stderr).toContain('can read nothing');
      expect(await exists(file)).toBe(false);
    });
  });

  it('a token that reads some things and not others still gives a report: the refusals are gaps (exit 3), and no note speaks of "the snapshot"', async () => {
    const faults = ['/v1/scorecards', '/v1/pages?compact=false'].map((path) => ({ method: 'GET', path, status: 403 }));
    await withSandbox({ faults }, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock);
      expect(result.code).toBe(3);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as Report;
      expect(report.incomplete.map((item) => item.resource).sort()).toEqual(['pages', 'scorecards']);
      expect(JSON.stringify(report.notes ?? [])).not.toContain('the snapshot');
      expect(result.stderr).not.toContain('the snapshot');
    });
  });
});

describe('a rejected token says where to look', () => {
  it('401 with PORT_TOKEN: the region or URL it went to, and where a token is made', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], { PORT_TOKEN: 'expired-token' }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^teams-migration-audit: the service rejected PORT_TOKEN \(HTTP 401\) at http:\/\/127\.0\.0\.1:\d+: /);
      expect(result.stderr).toContain('Credentials');
      expect(result.stderr).toMatch(/--region (eu|us)|region/);
    });
  });

  it('401 with client credentials: the same hint', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: 'nope' }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^teams-migration-audit: the service rejected PORT_CLIENT_ID \/ PORT_CLIENT_SECRET \(HTTP 401\) at http:\/\/127\.0\.0\.1:\d+: .*Credentials/);
    });
  });
});

describe('a file that is not a snapshot says what it is', () => {
  it('a typo in the path: the name that exists beside it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'org-snapshot.json'), '{}');
    const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'org-snaphsot.json'), '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`teams-migration-audit: ${join(dir, 'org-snaphsot.json')}: cannot read the snapshot: no such file (did you mean ${join(dir, 'org-snapshot.json')}?)\n`);
  });

  it('a typo in a folder: says the folder is missing', async () => {
    const dir = await tempDir();
    const run = await runCliCaptured(['analyze', join(dir, 'ci', 'org.json'), '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`teams-migration-audit: ${join(dir, 'ci', 'org.json')}: cannot read the snapshot: no such file (there is no folder ${join(dir, 'ci')})\n`);
  });

  it('no similar name: no guess', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'teams.yaml'), 'a: b');
    const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out')]);
    expect(run.stderr).toBe(`teams-migration-audit: ${join(dir, 'org.json')}: cannot read the snapshot: no such file\n`);
  });

  it('the HTML report passed as a snapshot', async () => {
    const dir = await tempDir();
    const out = join(dir, 'out');
    expect((await runCliCaptured(['analyze', '--demo', '--out', out, '--quiet'])).code).toBe(0);
    const run = await runCliCaptured(['analyze', '--snapshot', join(out, 'index.html'), '--out', join(dir, 'again')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${join(out, 'index.html')}: cannot read the snapshot: it is an HTML page`);
    expect(run.stderr).toContain('snapshot --out');

    // And the JSON report beside it: it is a report, which --since takes.
    const report = await runCliCaptured(['analyze', join(out, 'report.json'), '--out', join(dir, 'again')]);
    expect(report.code).toBe(2);
    expect(report.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(report.stderr).toContain(`${join(out, 'report.json')}: it is a report this tool wrote (impact-report/1), not an org snapshot`);
    expect(report.stderr).toContain('--since');
  });

  it('other HTML and JSON that is neither keep their plain line', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'x'));
    await writeFile(join(dir, 'x', 'other.json'), JSON.stringify({ format: 'something/1' }));
    const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'x', 'other.json'), '--out', join(dir, 'out')]);
    expect(run.stderr).toBe(`teams-migration-audit: ${join(dir, 'x', 'other.json')}: field "format": expected "org-snapshot/1", got string "something/1"\n`);
  });
});
