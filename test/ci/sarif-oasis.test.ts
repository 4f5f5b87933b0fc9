import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { snapshotLineOf } from '../../src/report/snapshot-lines.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { run as runLive, withSandbox } from '../live/harness.js';

/**
 * The full SARIF 2.1.0 JSON schema as the standard published it (draft-04, every object of the
 * format, additionalProperties false), read from the copy an npm package ships
 * (@microsoft/jest-sarif), so no hand-made subset decides what is valid.
 */
const SCHEMA = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
// CommonJS modules: their default export is the class and the plugin.
const Ajv = (AjvDraft04 as unknown as { default: typeof AjvDraft04.default }).default;
const addFormats = (ajvFormats as unknown as { default: typeof ajvFormats.default }).default;
// unicodeRegExp off: the published schema's `language` pattern has a stray `]` that only the `u` flag refuses.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(SCHEMA);

interface SarifLog {
  version: string;
  runs: { results: { locations: { physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[]; invocations: { toolExecutionNotifications: { message: { text: string } }[] }[] }[];
}

function expectValid(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  const ok = validate(log);
  expect(ok ? [] : validate.errors?.slice(0, 5)).toEqual([]);
  return log;
}

/** What code scanning needs of an upload: every result placed in a file, at a line. */
function expectEveryResultInAFile(log: SarifLog): void {
  for (const result of log.runs[0]?.results ?? []) {
    expect(result.locations[0]?.physicalLocation?.artifactLocation.uri).toBeTruthy();
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'tma-sarif-'));

describe('SARIF against the full OASIS 2.1.0 schema', () => {
  it('the schema is the full one and it rejects what the standard rejects', () => {
    expect(Object.keys(SCHEMA.definitions as object).length).toBeGreaterThan(50);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, invented: true }] })).toBe(false);
  });

  it('a snapshot run: valid, and every org finding placed in the snapshot file at its resource\'s line', async () => {
    const out = tmp();
    const snapshot = 'fixtures/demo-org.json';
    const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', out, '--format', 'sarif,json', '--fail-on', 'none', '--quiet']);
    expect(run.code).toBe(0);
    const log = expectValid(readFileSync(join(out, 'report.sarif'), 'utf8'));
    expect(log.runs[0]?.results.length).toBeGreaterThan(20);
    expectEveryResultInAFile(log);
    const text = readFileSync(snapshot, 'utf8').split('\n');
    for (const result of log.runs[0]?.results ?? []) {
      const place = result.locations[0]!.physicalLocation!;
      expect(place.artifactLocation.uri).toBe(snapshot);
      const identifier = (result as unknown as { properties: { resource: { identifier: string } } }).properties.resource.identifier.split('/').at(-1)!;
      // The line names the resource (integrations by installationId).
      expect(text[(place.region?.startLine ?? 0) - 1], identifier).toContain(JSON.stringify(identifier));
    }
  });

  it('a repository run: valid, every result in its file', async () => {
    const out = tmp();
    const run = await runCliCaptured(['analyze', '--repo', 'fixtures/repo-public', '--out', out, '--format', 'sarif', '--fail-on', 'none', '--quiet']);
    expect([0, 3]).toContain(run.code);
    const log = expectValid(readFileSync(join(out, 'report.sarif'), 'utf8'));
    expect(log.runs[0]?.results.length).toBeGreaterThan(0);
    expectEveryResultInAFile(log);
  });

  it('a live run: valid, and org findings (no file to place them in) are counted in a notification instead of rejected results', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const out = tmp();
      const live = await runLive(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'sarif,json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token }, clock);
      expect(live.code).toBe(0);
      const log = expectValid(readFileSync(join(out, 'report.sarif'), 'utf8'));
      expectEveryResultInAFile(log);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { findings: unknown[] };
      expect(report.findings.length).toBeGreaterThan(0);
      expect(log.runs[0]?.results).toEqual([]);
      expect(log.runs[0]?.invocations[0]?.toolExecutionNotifications.map((n) => n.message.text).join(' ')).toContain(`${report.findings.length} findings about the org read live`);
    });
  });

  it('--demo and a snapshot outside the working directory: the notification says so, never "read live"', async () => {
    const notification = async (args: string[]) => {
      const out = tmp();
      expect((await runCliCaptured([...args, '--out', out, '--format', 'sarif', '--fail-on', 'none', '--quiet'])).code).toBe(0);
      return expectValid(readFileSync(join(out, 'report.sarif'), 'utf8')).runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text).join(' ');
    };
    const demo = await notification(['analyze', '--demo']);
    expect(demo).toContain('findings about the bundled demo org');
    expect(demo).not.toContain('read live');
    const copy = join(tmp(), 'org.json');
    writeFileSync(copy, readFileSync('fixtures/demo-org.json'));
    const elsewhere = await notification(['analyze', '--snapshot', copy]);
    expect(elsewhere).toContain('read from a snapshot outside the working directory');
    expect(elsewhere).not.toContain('read live');
  });

  it('finds a resource\'s line in the snapshot text, and falls back to its section, then to line 1', () => {
    const text = '{\n  "blueprints": [\n    {\n      "identifier": "service"\n    }\n  ],\n  "actions": [\n    { "identifier": "service" }\n  ]\n}\n';
    const lineOf = snapshotLineOf(text);
    expect(lineOf({ resource: { type: 'blueprint', identifier: 'service' } })).toBe(4);
    expect(lineOf({ resource: { type: 'action', identifier: 'service' } })).toBe(8);
    expect(lineOf({ resource: { type: 'action', identifier: 'gone' } })).toBe(7);
    expect(lineOf({ resource: { type: 'page', identifier: 'p' } })).toBe(1);
  });
});
