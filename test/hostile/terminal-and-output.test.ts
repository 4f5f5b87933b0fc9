import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSarif } from '../../src/report/sarif.js';
import { renderJunit } from '../../src/report/junit.js';
import { splitFileLocation } from '../../src/file-location.js';
import { REDRAW_LINE, terminalSafe, terminalWriter } from '../../src/terminal-text.js';
import { demoReport } from '../ci/helpers.js';
import { transpileForChild } from '../helpers/transpile.js';
import { readReport, runWithin, scratchDir, stderrLines } from './helpers.js';
import { afterNodeNote } from '../helpers/node-note.js';

// Issue 16 items 9 and 11: what reaches a terminal or CI log, and the output of a closed pipe or a
// file name with a newline.

/** Newline, carriage return, ESC (CSI and OSC 0 = window title, OSC 8 = hyperlink), BEL, C1 CSI, a bidi override. */
const HOSTILE = 'Acme\n::error file=x::forged\r\u001b[31mred\u001b]0;title\u0007\u001b]8;;https://evil\u001b\\link\u009b2J\u202eevil';

describe('terminalSafe', () => {
  it('shows every control character as an escape and keeps all other text', () => {
    expect(terminalSafe(HOSTILE)).toBe('Acme\\n::error file=x::forged\\r\\x1b[31mred\\x1b]0;title\\x07\\x1b]8;;https://evil\\x1b\\link\\x9b2J\\u202eevil');
    expect(terminalSafe('Plateforme équipe → 東京 ✓')).toBe('Plateforme équipe → 東京 ✓');
  });

  it('as a writer keeps our own line ends and the progress bar redraw, and nothing else', () => {
    const written: string[] = [];
    const write = terminalWriter((text) => written.push(text));
    write(`${REDRAW_LINE}[####] 3/4\n`);
    write(`name: ${HOSTILE}\n`);
    expect(written[0]).toBe(`${REDRAW_LINE}[####] 3/4\n`);
    expect(written[1]).toBe('name: Acme\n::error file=x::forged\\r\\x1b[31mred\\x1b]0;title\\x07\\x1b]8;;https://evil\\x1b\\link\\x9b2J\\u202eevil\n');
  });
});

/** No control character but our line ends, and no line that data began (each starts as ours do). */
function expectInertStderr(stderr: string): void {
  expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  for (const line of stderr.replace(/\n$/, '').split('\n')) expect(line).not.toMatch(/^::/);
}

describe('stderr of a run over hostile names', () => {
  it('escapes the org name and stale baseline ids, and says the same thing in one line each', async () => {
    const dir = scratchDir('terminal');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as { organization: { name: string } };
    org.organization.name = HOSTILE;
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    writeFileSync(
      join(dir, 'baseline.json'),
      JSON.stringify({ format: 'teams-migration-audit-baseline/1', accepted: [{ id: 'gone\n::warning::forged\u001b[2J', reason: 'r', by: 'b' }] }),
    );
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--baseline', join(dir, 'baseline.json'), '--out', join(dir, 'out'), '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expectInertStderr(run.stderr);
    const lines = stderrLines(run);
    expect(lines).toContainEqual(expect.stringMatching(/^.*1 stale baseline entry matches no finding .*: gone\\n::warning::forged\\x1b\[2J$/));
    expect(lines).toContainEqual(expect.stringMatching(/^Acme\\n::error file=x::forged\\r\\x1b\[31mred.*: \d+ automatic change/));
    // The report keeps the name as it is: escaping is for terminals, the HTML and JSON escape their own way.
    expect(readReport(join(dir, 'out')).organization.name).toBe(HOSTILE);
  });

  it('escapes repository file names in its notes', async () => {
    const repo = scratchDir('terminal-repo');
    // A binary script that names nothing the scan reads is skipped with a note (a binary JSON file would be a gap).
    writeFileSync(join(repo, 'evil\n::error::forged\u001b]0;t\u0007.py'), Buffer.from([0x7b, 0, 0, 0x7d]));
    const run = await runWithin(['analyze', '--repo', repo, '--out', join(scratchDir('terminal-repo-out'), 'out'), '--fail-on', 'none']);
    expect(run.code).toBe(0);
    expectInertStderr(run.stderr);
    expect(run.stderr).toMatch(/^note: .*evil\\n::error::forged\\x1b\]0;t\\x07\.py: skipped, a binary file$/m);
  });

  it('escapes the path in a one-line error', async () => {
    const run = await runWithin(['analyze', '--snapshot', 'nope\n::error::forged\u001b[2J.json', '--out', join(scratchDir('terminal-typo'), 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('teams-migration-audit: nope\\n::error::forged\\x1b[2J.json: cannot read the snapshot: no such file\n');
  });
});

describe('a repository file whose name holds a newline', () => {
  it('keeps a valid SARIF location with its line', () => {
    const name = 'infra/team\nmap.tf';
    const report = demoReport([
      { category: 'external-ownership', resource: { type: 'file', identifier: name }, location: `${name}:12`, evidence: 'x', reason: 'r', suggestion: 's', verdict: 'breaks' },
    ]);
    const sarif = JSON.parse(renderSarif(report, { toolVersion: '9.9.9' })) as { runs: { results: { locations: { physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] };
    const located = sarif.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation).filter((p) => p?.artifactLocation.uri.startsWith('infra/'));
    expect(located).toEqual([{ artifactLocation: { uri: 'infra/team%0Amap.tf' }, region: { startLine: 12 } }]);
    // Every other reader of a location splits it as SARIF does: the JUnit case, the page's file groups.
    expect(renderJunit(report)).toMatch(/ file="infra\/team&#10;map\.tf" line="12"/);
    expect(splitFileLocation(`${name}:12`)).toEqual({ path: name, line: 12 });
  });
});

describe('output to a pipe its reader closed (`--help | head`)', () => {
  let cli = '';
  beforeAll(() => {
    // The spawned CLI is what users run: transpiled apart, so the shared dist/ is left alone.
    cli = join(transpileForChild(['src/main.ts'], { asPackage: true }), 'src', 'main.js');
  });

  it('ends quietly with exit 0, no stack trace', async () => {
    // The reader of its stdout is gone before the CLI starts: the shell waits for "go", sent only
    // once the read end is closed, so every write fails with EPIPE by construction, not by timing.
    const child = spawn('sh', ['-c', 'read go; exec "$0" "$@"', process.execPath, cli, 'analyze', '--help'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy();
    child.stdin.end('go\n');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(afterNodeNote(stderr)).toBe('');
    expect(code).toBe(0);
  });
});
