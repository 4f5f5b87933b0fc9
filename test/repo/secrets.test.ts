import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import type { Report } from '../../src/model/finding.js';

const SECRETS = ['hunter2', 'SUPERSECRET123', 'sk_live_LEAKME'];

/** A WEBHOOK action kept in a repository, with a password, a token and a bearer key next to team reads. */
const ACTIONS = [
  {
    identifier: 'notify',
    title: 'Notify',
    trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
    invocationMethod: {
      type: 'WEBHOOK',
      url: 'https://user:hunter2@hooks.example.com/x?token=SUPERSECRET123&team={{ .entity.team[0] }}',
      headers: { Authorization: 'Bearer sk_live_LEAKME {{ .entity.team[0] }}' },
    },
  },
];

const io = (): CliIo => ({ stdout: () => {}, stderr: () => {}, env: {}, now: () => new Date('2025-06-01T00:00:00Z') });

describe('secrets in repository files', () => {
  test('never reach any report format, while the team reads beside them are still found', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'tma-secret-repo-'));
    await mkdir(join(repo, '.port/resources'), { recursive: true });
    await writeFile(join(repo, '.port/resources/actions.json'), JSON.stringify(ACTIONS, null, 2));
    const out = await mkdtemp(join(tmpdir(), 'tma-secret-out-'));
    await runCli(['analyze', '--repo', repo, '--out', out, '--format', 'html,json,sarif,junit,md', '--fail-on', 'none'], io());

    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    const files = report.findings.filter((f) => f.resource.type === 'file');
    // Both lines read .entity.team: the findings stay, only the secrets go.
    expect(files.map((f) => f.location.replace(/^.*:/, ''))).toEqual(['15', '17']);
    expect(files.map((f) => f.evidence)).toEqual([
      '"url": "https://user:<redacted>@hooks.example.com/x?token=<redacted>&team={{ .entity.team[0] }}"',
      '"Authorization": "<redacted>{{ .entity.team[0] }}"',
    ]);
    const written = await readdir(out);
    expect(written.sort()).toEqual(expect.arrayContaining(['index.html', 'report.json']));
    expect(written.length).toBeGreaterThanOrEqual(5);
    for (const name of written) {
      const text = await readFile(join(out, name), 'utf8');
      for (const secret of SECRETS) expect(text, `${name} quotes ${secret}`).not.toContain(secret);
    }
  });
});
