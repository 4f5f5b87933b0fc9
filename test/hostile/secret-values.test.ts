import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS, writeReports } from '../../src/report/write-reports.js';
import { checkSnapshot } from '../../src/sources/validate-snapshot.js';
import { demoReport } from '../ci/helpers.js';
import { readReport, runWithin, scratchDir } from './helpers.js';

// A note about a wrongly shaped value is made from the snapshot as read, before its secrets are
// redacted: the value it quotes may be one. Secrets are found by value: once redaction knows a value
// is a secret, no output (any report format, the fix kit, the step summary, stderr) may show it.

/** A URL's password, a numeric API key header, a value under `password`: each also where the shape check quotes it. */
const URL_PASSWORD = 'Pw-Leak-7f3a9c2e';
const HEADER_KEY = '739164820551';
const CALC_PASSWORD = 's3cr3t-calc-Value-99';
const SECRETS = [URL_PASSWORD, HEADER_KEY, CALC_PASSWORD];

interface Org {
  blueprints: Record<string, unknown>[];
  actions: Record<string, unknown>[];
}

/** The demo org with one action and one blueprint whose misfits quote the secrets, and a description repeating one. */
function orgWithQuotedSecrets(): Org {
  const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as Org;
  org.actions.push({
    identifier: 'notify_hook',
    title: 'Notify hook',
    // A v1 trigger is one of three words: this one is quoted whole in the note.
    trigger: `https://hook-user:${URL_PASSWORD}@hooks.example.com/x`,
    invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x', headers: { 'X-Api-Key': Number(HEADER_KEY) } },
  });
  // A calculation property is an object: the string in its place is quoted, and its key names it a secret.
  org.blueprints.push({ identifier: 'vault', title: 'Vault', description: `rotated from ${CALC_PASSWORD} last week`, calculationProperties: { password: CALC_PASSWORD } });
  return org;
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

/** Which secrets each text holds: none is the goal. */
function leaks(texts: { path: string; text: string }[]): string[] {
  return texts.flatMap(({ path, text }) => SECRETS.filter((secret) => text.includes(secret)).map((secret) => `${path}: ${secret}`));
}

describe('a secret quoted by a note on a wrongly shaped value', () => {
  it('reaches no report format, no fix kit file, no step summary and no stderr line', async () => {
    const dir = scratchDir('secret-values');
    writeFileSync(join(dir, 'org.json'), JSON.stringify(orgWithQuotedSecrets()));
    const summary = join(dir, 'summary.md');
    const out = join(dir, 'out');
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'html,json,sarif,junit,md'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(0);
    // The notes are still there, each naming its place, with the secret cut out.
    const notes = readReport(out).notes ?? [];
    expect(notes.filter((note) => /notify_hook|actions\[6\]|blueprints\[9\]/.test(note) || note.includes('calculationProperties.password'))).toEqual([
      'blueprints[9].calculationProperties.password: expected an object, got string "<redacted>"',
      // Redacted before it is cut at 60 characters, as every quoted value is: no part of the password is left.
      'actions[6].trigger: expected one of "CREATE", "DAY-2", "DELETE" or an object, got string "https://hook-user:<redacted>@hooks.example.com/x"',
      'actions[6].invocationMethod.headers.X-Api-Key: expected a string, got number <redacted>',
    ]);
    expect(filesUnder(out).map((file) => file.path.slice(out.length + 1)).sort()).toEqual(expect.arrayContaining(['index.html', 'report.json', 'report.junit.xml', 'report.sarif', 'summary.md']));
    expect(leaks([...filesUnder(out), { path: summary, text: readFileSync(summary, 'utf8') }, { path: 'stderr', text: run.stderr }, { path: 'stdout', text: run.stdout }])).toEqual([]);
  });

  it('is quoted as redaction leaves it, before the quote is cut short, and when too short to cut everywhere', () => {
    // 14 characters, cut by the 60-character quote after 10: too short for the by-value cut's echoed parts.
    const password = 'Zq8-Lk2-Mn5-Xw';
    const document = {
      format: 'org-snapshot/1',
      organization: { id: 'o', name: 'O' },
      blueprints: [{ identifier: 'b', calculationProperties: { apiKey: 'k9x2', plain: 'k9x2' } }],
      actions: [{ identifier: 'a', trigger: `https://${'u'.repeat(32)}:${password}@hooks.example.com/x` }],
    };
    expect(checkSnapshot(document, 'org.json').notes).toEqual([
      'blueprints[0].calculationProperties.apiKey: expected an object, got string "<redacted>"',
      // The same value under a plain key is no secret: quoted as it is (negative case).
      'blueprints[0].calculationProperties.plain: expected an object, got string "k9x2"',
      `actions[0].trigger: expected one of "CREATE", "DAY-2", "DELETE" or an object, got string "https://${'u'.repeat(32)}:<redacted>@`,
    ]);
  });

  it('is cut from the one-line error of --strict', async () => {
    const dir = scratchDir('secret-strict');
    const org = orgWithQuotedSecrets();
    // The blueprint is the first misfit: the line quotes its password. Then, without it, the action's trigger.
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--strict', '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('field "blueprints[9].calculationProperties.password": expected an object, got string "<redacted>"');
    org.blueprints.pop();
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const second = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--strict', '--out', join(dir, 'out')]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('got string "https://hook-user:<redacted>@');
    expect(leaks([{ path: 'stderr', text: run.stderr + second.stderr }])).toEqual([]);
  });

  it('is cut from a snapshot rewritten from it, and its notes on stderr', async () => {
    const dir = scratchDir('secret-snapshot');
    writeFileSync(join(dir, 'org.json'), JSON.stringify(orgWithQuotedSecrets()));
    const run = await runWithin(['snapshot', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'new.json')]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('X-Api-Key: expected a string, got number <redacted>');
    expect(leaks([{ path: 'new.json', text: readFileSync(join(dir, 'new.json'), 'utf8') }, { path: 'stderr', text: run.stderr }])).toEqual([]);
  });

  it('leaves a snapshot without secrets quoting its misfits as they are (negative case)', async () => {
    const dir = scratchDir('secret-none');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as Org;
    org.actions.push({ identifier: 'plain', title: 'Plain', trigger: 'https://hooks.example.com/x-7f3a9c2e-long-enough', invocationMethod: { type: 'WEBHOOK', headers: { 'X-Count': 739164820551 } } });
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const out = join(dir, 'out');
    await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'json']);
    expect((readReport(out).notes ?? []).filter((note) => note.startsWith('actions[6]'))).toEqual([
      'actions[6].trigger: expected one of "CREATE", "DAY-2", "DELETE" or an object, got string "https://hooks.example.com/x-7f3a9c2e-long-enough\"',
      'actions[6].invocationMethod.headers.X-Count: expected a string, got number 739164820551',
    ]);
  });
});

describe('the big reports, written in pieces', () => {
  it('hold no piece of a known secret: the report is cleaned before it is rendered, so no piece can split one', async () => {
    const report = demoReport();
    // Enough text that the page and report.json are written in many pieces, the secret at every offset.
    report.notes = Array.from({ length: 4000 }, (_, i) => `${'n'.repeat(i % 37)} quoting ${CALC_PASSWORD} and ${URL_PASSWORD}`);
    report.findings = report.findings.map((finding, i) => ({ ...finding, evidence: `${finding.evidence} (${CALC_PASSWORD.repeat(1 + (i % 3))})` }));
    const out = scratchDir('secret-pieces');
    await writeReports(report, {
      out,
      formats: FORMATS,
      meta: { html: { generatedAt: '2026-01-02T03:04:05.000Z', source: `snapshot with ${URL_PASSWORD}` }, sarif: { toolVersion: '9.9.9' } },
      env: {},
      credentials: SECRETS,
    });
    const files = filesUnder(out);
    expect(files.find((file) => file.path.endsWith('index.html'))!.text.length).toBeGreaterThan(4 * 32_768);
    expect(leaks(files)).toEqual([]);
    // Nor any 12 of a secret's characters in a row: no half of one was left at a piece's edge.
    expect(files.filter(({ text }) => text.includes(CALC_PASSWORD.slice(0, 12)) || text.includes(CALC_PASSWORD.slice(-12)))).toEqual([]);
    expect(readReport(out).notes!.filter((note) => note.endsWith(' quoting <redacted> and <redacted>'))).toHaveLength(4000);
  });
});
