import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import type { Report } from '../../src/model/finding.js';

const io = (): CliIo => ({ stdout: () => {}, stderr: () => {}, env: {}, now: () => new Date('2025-06-01T00:00:00Z') });

/** Two body templates on one line: a file location is `file:line`, so both meet at one location. */
const ACTIONS = `[
 {"identifier": "w1", "title": "W1", "trigger": {"type": "self-service", "operation": "DAY-2", "blueprintIdentifier": "service", "userInputs": {"properties": {}}},
  "invocationMethod": {"type": "WEBHOOK", "url": "https://hooks.example.com/x",
    "body": {"team": "{{ .entity.team[0] }}", "owner": "{{ .entity.team | index(\\"Payments\\") }}"}}}
]`;

describe('two findings on one line of a file', () => {
  test('become one finding that keeps the more severe verdict and both reasons, so the gate still fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-line-'));
    await mkdir(join(dir, 'repo/.port/resources'), { recursive: true });
    await writeFile(join(dir, 'repo/.port/resources/actions.json'), ACTIONS);
    await writeFile(
      join(dir, 'org.json'),
      JSON.stringify({ format: 'org-snapshot/1', organization: { id: 'o', name: 'O' }, blueprints: [], entities: {}, scorecards: [], teams: [{ name: 'Payments', identifier: 'payments' }] }),
    );
    const code = await runCli(['analyze', join(dir, 'org.json'), '--repo', join(dir, 'repo'), '--out', join(dir, 'out'), '--format', 'json'], io());
    const report = JSON.parse(await readFile(join(dir, 'out/report.json'), 'utf8')) as Report;
    const onLine = report.findings.filter((f) => f.location.endsWith('actions.json:4'));
    expect(onLine).toHaveLength(1);
    expect(onLine[0]).toMatchObject({ category: 'action-mapping', verdict: 'breaks' });
    expect(onLine[0]!.reason).toContain('index("Payments")');
    expect(onLine[0]!.reason).toContain('.entity.team[0]');
    expect(code).toBe(1);
  });
});
