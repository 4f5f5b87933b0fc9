import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { filesIn } from '../support/files-in.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import type { FindingDraft, Report } from '../../src/model/finding.js';
import { parseCode } from '../../src/repo/code-tree.js';
import { findDocuments } from '../../src/repo/file-resources.js';
import { redactFinding, secretFragments, textSecretFragments } from '../../src/repo/redact-findings.js';
import { sourceText } from '../../src/repo/source-text.js';

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
    const written = await filesIn(out);
    expect(written.sort()).toEqual(expect.arrayContaining(['index.html', 'report.json']));
    expect(written.length).toBeGreaterThanOrEqual(5);
    for (const name of written) {
      const text = await readFile(join(out, name), 'utf8');
      for (const secret of SECRETS) expect(text, `${name} quotes ${secret}`).not.toContain(secret);
    }
  });
});

describe('redactFinding', () => {
  const [action] = findDocuments(parseCode(sourceText('a.json', JSON.stringify(ACTIONS[0])), 'json'), { camelCase: false, problems: [] }).resources;
  const fragments = secretFragments(action!.value);

  test("cuts what the org's redaction cuts from secret-named values, templates kept", () => {
    expect([...fragments].filter((f) => f.includes('LEAKME'))).toEqual(['Bearer sk_live_LEAKME ', 'Bearer sk_live_LEAKME']);
  });

  test('from every text field, also where the rewrite changed the template or the text is JSON-escaped', () => {
    const finding: FindingDraft = {
      category: 'action-mapping',
      resource: { type: 'file', identifier: 'a.json', title: 'action notify' },
      location: 'a.json:1',
      evidence: '"Authorization": "Bearer sk_live_LEAKME {{ .entity.team[0] }}"',
      rewrite: '"Authorization": "Bearer sk_live_LEAKME {{ .entity.team[0] | ascii_downcase }}"',
      reason: 'reads {"url":"https://user:hunter2@hooks.example.com/x?token=SUPERSECRET123&team=a"}',
      suggestion: JSON.stringify({ h: 'Bearer sk_live_LEAKME "x"' }),
      note: 'sent as https://hooks.example.com/x?api_key=SUPERSECRET123&team=a',
    };
    const clean = redactFinding(finding, fragments);
    expect(clean.rewrite).toBe('"Authorization": "<redacted>{{ .entity.team[0] | ascii_downcase }}"');
    expect(clean.reason).toBe('reads {"url":"https://user:<redacted>@hooks.example.com/x?token=<redacted>&team=a"}');
    expect(clean.suggestion).toBe('{"h":"<redacted>\\"x\\""}');
    expect(clean.note).toBe('sent as https://hooks.example.com/x?api_key=<redacted>&team=a');
    for (const text of [clean.evidence, clean.rewrite, clean.reason, clean.suggestion, clean.note]) for (const secret of SECRETS) expect(text).not.toContain(secret);
    // The finding given is left as it was.
    expect(finding.rewrite).toContain('sk_live_LEAKME');
  });
});

describe('secrets in files that are not parsed into resources', () => {
  test('a workflow step with an inline client secret next to its team input keeps the finding, not the secret', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'tma-secret-wf-'));
    await mkdir(join(repo, '.github/workflows'), { recursive: true });
    await writeFile(
      join(repo, '.github/workflows/up.yml'),
      `on: push\njobs:\n  up:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: port-labs/port-github-action@v1\n        with: {clientSecret: InlineS3cret99, identifier: svc2, blueprint: service, team: '["Platform Team"]'}\n`,
    );
    const out = await mkdtemp(join(tmpdir(), 'tma-secret-wf-out-'));
    await runCli(['analyze', '--repo', repo, '--out', out, '--format', 'html,json,sarif,junit,md', '--fail-on', 'none'], io());
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.findings.map((f) => f.category)).toEqual(['external-ownership']);
    expect(report.findings[0]!.evidence).toContain('clientSecret: <redacted>');
    for (const name of await filesIn(out)) expect(await readFile(join(out, name), 'utf8'), name).not.toContain('InlineS3cret99');
  });

  test('short leftovers of a templated secret are not cut from the text', () => {
    expect([...textSecretFragments('"password": "p{{ .x }}q"\ntoken = "abc def"')]).toEqual(['abc def']);
  });
});
