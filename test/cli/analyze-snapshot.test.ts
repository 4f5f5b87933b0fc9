import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'tma-cli-'));

function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const minimal = { format: 'org-snapshot/1', organization: { id: 'o1', name: 'Tiny' }, blueprints: [], entities: {} };

describe('analyze --snapshot', () => {
  it('writes report.json and index.html for the demo org', async () => {
    const out = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.format).toBe('impact-report/1');
    expect(report.organization).toEqual({ id: 'org_7Hq2LmXa91', name: 'Acme Payments' });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Acme Payments');
    expect(run.stderr).toMatch(/Acme Payments: \d+ automatic changes, \d+ manual items; gate passed/);
  });

  it('takes the snapshot as a positional source too, and refuses two different ones', async () => {
    const out = tmp();
    const run = await runCliCaptured(['analyze', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).organization.name).toBe('Acme Payments');
    const both = await runCliCaptured(['analyze', 'fixtures/demo-org.json', '--snapshot', 'other.json', '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('two snapshots given');
  });

  it('fails the default gate (manual) when manual findings remain', async () => {
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', tmp()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('gate FAILED');
  });

  it('passes a clean org', async () => {
    const dir = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'org.json', minimal), '--out', dir]);
    expect(run.code).toBe(0);
  });

  it('exits 3 when the snapshot says something could not be read, whatever the findings', async () => {
    const dir = tmp();
    const snapshot = { ...minimal, incomplete: [{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403' }] };
    const run = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'org.json', snapshot), '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.incomplete).toEqual([{ resource: 'page sre_dashboard permissions', reason: 'HTTP 403' }]);
  });

  it('exits 3 and says so when the snapshot has no entities to decide Direct ownership', async () => {
    const dir = tmp();
    const { entities: _omitted, ...withoutEntities } = minimal;
    const run = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'org.json', withoutEntities), '--out', dir]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('INCOMPLETE');
  });

  const badInputs: [string, unknown, RegExp][] = [
    ['bad JSON', '{"format": "org-snapshot/1",', /not valid JSON/],
    ['wrong format', { ...minimal, format: 'org-snapshot/2' }, /field "format": expected "org-snapshot\/1", got string "org-snapshot\/2"/],
    ['missing organization', { format: 'org-snapshot/1', blueprints: [] }, /field "organization" is missing/],
    ['blueprints not an array', { ...minimal, blueprints: {} }, /field "blueprints": expected an array, got an object/],
  ];
  /** Snapshots with a misfit inside: noted by default, exit 2 only with --strict. */
  const misfits: [string, unknown, RegExp][] = [
    ['blueprint without identifier', { ...minimal, scorecards: [], blueprints: [{ title: 'x' }] }, /field "blueprints\[0\]\.identifier": expected a string/],
    ['entities of the wrong shape', { ...minimal, scorecards: [], entities: { service: [{ identifier: 7 }] } }, /field "entities\.service\[0\]\.identifier": expected a string, got number 7/],
  ];
  const strictMisfits = misfits.map(([name, content, message]): [string, unknown, RegExp] => [`${name} (--strict)`, content, message]);
  it.each([...badInputs, ...strictMisfits])('rejects %s with exit 2 and one line naming file and field', async (name, content, message) => {
    const dir = tmp();
    const file = writeJson(dir, 'bad.json', content);
    const run = await runCliCaptured(['analyze', '--snapshot', file, '--out', dir, ...(name.endsWith('(--strict)') ? ['--strict'] : [])]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(file);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it.each(misfits)('notes %s without --strict, in report.json and on stderr, and still analyses', async (_name, content, message) => {
    const dir = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'bad.json', content), '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const expected = message.source.replace('field "', '^').replace('": ', ': ');
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(new RegExp(expected));
    expect(run.stderr).toMatch(new RegExp(`^note: ${expected.slice(1)}`, 'm'));
  });

  it('says in a note when the snapshot holds no scorecards, and only then', async () => {
    const dir = tmp();
    const old = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'old.json', minimal), '--out', dir, '--fail-on', 'none']);
    expect(old.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).notes).toEqual([expect.stringMatching(/^scorecards: .*not checked/)]);
    expect(old.stderr).toMatch(/^note: scorecards: /m);
    const current = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'new.json', { ...minimal, scorecards: [] }), '--out', dir, '--fail-on', 'none']);
    expect(current.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).notes).toBeUndefined();
  });

  it('keeps unknown extra fields instead of rejecting them', async () => {
    const dir = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', writeJson(dir, 'org.json', { ...minimal, scorecards: [], fetchedAt: 'x' }), '--out', dir]);
    expect(run.code).toBe(0);
  });

  it('explains both ways to name an org when none is given', async () => {
    const run = await runCliCaptured(['analyze', '--out', tmp()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--snapshot');
  });

  it('answers a usage mistake with exit 2 and exactly one line', async () => {
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--fail-on', 'bogus', '--out', tmp()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'bogus' is invalid");
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('rejects an unknown format with exit 2', async () => {
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--format', 'pdf', '--out', tmp()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown format "pdf"');
  });

  it('uses --teams-map to name identifiers the org does not know yet', async () => {
    const dir = tmp();
    const map = join(dir, 'teams.yaml');
    writeFileSync(map, 'Data Science: data_science\n');
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--teams-map', map, '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const unregister = report.findings.find((f: { location: string }) => f.location === 'permissions.entities.unregister.teams');
    expect(unregister.rewrite).toBe('["data_science"]');
  });

  it('says which teams-map entries it did not use, instead of dropping them silently', async () => {
    const dir = tmp();
    const map = join(dir, 'teams.yaml');
    writeFileSync(map, 'Payments: pay-ments\nData Sciense: data_science\n');
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--teams-map', map, '--out', dir, '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: teams map: "Payments" → "pay-ments" is ignored: the org\'s teams already give "payments"');
    expect(run.stderr).toContain('note: teams map: "Data Sciense" is not a team of this org');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    // The ignored identifier is named in the notes, and used by no rewrite.
    expect(JSON.stringify({ ...report, notes: undefined })).not.toContain('pay-ments');
    expect(report.notes.join('\n')).toContain('"Payments" → "pay-ments" is ignored');
  });

  it('reads a teams map saved with a byte order mark, and names a missing one in words', async () => {
    const dir = tmp();
    const map = join(dir, 'teams.yaml');
    writeFileSync(map, '\uFEFFData Science: data_science\n');
    const ok = await runCliCaptured(['analyze', 'fixtures/demo-org.json', '--teams-map', map, '--out', dir, '--fail-on', 'none']);
    expect(ok.code).toBe(0);
    const missing = await runCliCaptured(['analyze', 'fixtures/demo-org.json', '--teams-map', join(dir, 'nope.yaml'), '--out', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`teams-migration-audit: ${join(dir, 'nope.yaml')}: cannot read the teams map: no such file\n`);
  });

  it('rejects an invalid teams map with exit 2 and the YAML position', async () => {
    const dir = tmp();
    const map = join(dir, 'teams.yaml');
    writeFileSync(map, 'Platform Team: [unclosed\n');
    const run = await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--teams-map', map, '--out', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/teams\.yaml: not valid JSON or YAML: .*\(line \d+, column \d+\)/);
  });

  it('prints help that teaches the exit codes', async () => {
    const run = await runCliCaptured(['analyze', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--snapshot <file>');
    expect(run.stdout).toMatch(/3\s+analysis incomplete/);
  });
});
