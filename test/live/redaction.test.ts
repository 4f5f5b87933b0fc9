import { writeFile } from 'node:fs/promises';
import { filesIn } from '../support/files-in.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { isSecretName, REDACTED, redactSecrets } from '../../src/sources/redact.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture, readText, run, tempDir, withSandbox, withoutFetchNotes } from './harness.js';

describe('redactSecrets', () => {
  it.each(['secret', 'clientSecret', 'client_secret', 'token', 'accessToken', 'ACCESS_TOKEN', 'password', 'passwd', 'apiKey', 'X-Api-Key', 'api-key', 'privateKey', 'private_key', 'Authorization', 'proxy-authorization', 'Cookie'])(
    '%s is a secret name',
    (name) => expect(isSecretName(name)).toBe(true),
  );

  it.each(['identifier', 'title', 'team', 'url', 'body', 'headers', 'security', 'signatureHeaderName', 'method', 'keyword', 'owning_team'])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it('redacts secrets inside plain strings: URL passwords and secret-named query parameters', () => {
    const invocation = {
      url: 'https://hooks.example/notify/{{ .entity.identifier }}?token=abc123&channel=ops&api_key=k-9',
      mirror: 'https://deploy:hunter2@git.example/repo.git',
      query: '?owner={{ .entity.team }}&token={{ .secrets.TOKEN }}',
      quoted: '"url": "https://hooks.example/x?token=abc123"}',
    };
    expect(redactSecrets(invocation)).toEqual({
      url: `https://hooks.example/notify/{{ .entity.identifier }}?token=${REDACTED}&channel=ops&api_key=${REDACTED}`,
      mirror: `https://deploy:${REDACTED}@git.example/repo.git`,
      // a template names a secret without holding it, and rules read templates
      query: '?owner={{ .entity.team }}&token={{ .secrets.TOKEN }}',
      // a URL quoted in file text: the quote and brace after it are not part of the secret
      quoted: `"url": "https://hooks.example/x?token=${REDACTED}"}`,
    });
  });

  it('replaces the values at any depth, keeps the keys, objects under a secret-named key and {{ }} templates', () => {
    const input = {
      security: { secret: 's3cr3t', signatureHeaderName: 'X-Hub-Signature' },
      invocationMethod: {
        type: 'WEBHOOK',
        headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k-123', 'X-Team': '{{ .entity.team }}', 'X-Auth-Token': 'Token {{ .secrets.PAT }}' },
      },
      nested: [{ config: { password: 'hunter2', pin: 42, apiKeys: ['a', 'b'], token: '', tokenEnabled: true, privateKey: null } }],
      schema: { properties: { api_token: { type: 'string', title: 'API token' } } },
    };
    expect(redactSecrets(input)).toEqual({
      security: { secret: REDACTED, signatureHeaderName: 'X-Hub-Signature' },
      invocationMethod: {
        type: 'WEBHOOK',
        headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, 'X-Team': '{{ .entity.team }}', 'X-Auth-Token': `${REDACTED}{{ .secrets.PAT }}` },
      },
      nested: [{ config: { password: REDACTED, pin: 42, apiKeys: [REDACTED, REDACTED], token: '', tokenEnabled: true, privateKey: null } }],
      schema: { properties: { api_token: { type: 'string', title: 'API token' } } },
    });
    // Idempotent: redacting a redacted file changes nothing.
    expect(redactSecrets(redactSecrets(input))).toEqual(redactSecrets(input));
  });
});

/** The live fixture with a signing secret on its webhook and an Authorization header on its WEBHOOK action. */
async function fixtureWithSecrets(): Promise<OrgSnapshot> {
  const snapshot = await loadFixture();
  const webhook = snapshot.webhooks?.find((w) => w.identifier === 'pd') as JsonObject;
  webhook.security = { secret: 's3cr3t', signatureHeaderName: 'x-pagerduty-signature' };
  const action = snapshot.actions?.find((a) => a.identifier === 'notify') as JsonObject;
  const invocation = action.invocationMethod as JsonObject;
  invocation.headers = { Authorization: 'Bearer abc', 'X-Team': '{{ .entity.team }}' };
  return snapshot;
}

const SECRETS = ['s3cr3t', 'Bearer abc'];

interface Finding {
  category: string;
  resource: { type: string; identifier: string };
  location: string;
}
const where = (report: string) =>
  (JSON.parse(report) as { findings: Finding[] }).findings.map((f) => `${f.category} ${f.resource.type}:${f.resource.identifier} ${f.location}`);

describe('no webhook secret or Authorization header in snapshots, reports or output', () => {
  it('live: redacted at fetch time; rules still read the rest of the resource', async () => {
    const secretOrg = await fixtureWithSecrets();
    await withSandbox({ snapshot: secretOrg }, async (sandbox, clock) => {
      const dir = await tempDir();
      const env = { PORT_TOKEN: sandbox.token };
      const recorded = await run(['snapshot', '--out', join(dir, 'org.json'), '--api-url', sandbox.url], env, clock);
      const analyzed = await run(['analyze', '--api-url', sandbox.url, '--out', join(dir, 'out'), '--format', 'json,html,md,sarif,junit', '--fail-on', 'none'], env, clock);
      expect([recorded.code, analyzed.code]).toEqual([0, 0]);

      const file = await readText(join(dir, 'org.json'));
      const outputs = [recorded.stdout, recorded.stderr, analyzed.stdout, analyzed.stderr, file];
      for (const name of await filesIn(join(dir, 'out'))) outputs.push(await readText(join(dir, 'out', name)));
      const all = outputs.join('\n');
      for (const secret of SECRETS) expect(all).not.toContain(secret);

      // The keys and everything else stay.
      const snapshot = JSON.parse(file) as OrgSnapshot;
      expect(snapshot.webhooks?.[0]?.security).toEqual({ secret: REDACTED, signatureHeaderName: 'x-pagerduty-signature' });
      const notify = snapshot.actions?.find((a) => a.identifier === 'notify');
      expect((notify?.invocationMethod as JsonObject).headers).toEqual({ Authorization: REDACTED, 'X-Team': '{{ .entity.team }}' });
      const findings = where(await readText(join(dir, 'out', 'report.json')));
      expect(findings).toContain('webhook-mapping webhook:pd mappings[0].entity.team');
      expect(findings.filter((f) => f.startsWith('action-mapping automation:notify invocationMethod.headers'))).toEqual([
        'action-mapping automation:notify invocationMethod.headers.X-Team',
      ]);
      expect(findings.some((f) => f.includes('Authorization'))).toBe(false);

      // The recording analyzes to the same report as the live run.
      const offline = await run(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'offline'), '--format', 'json', '--fail-on', 'none'], {}, createFakeClock());
      expect(offline.code).toBe(0);
      expect(withoutFetchNotes(await readText(join(dir, 'offline', 'report.json')))).toEqual(withoutFetchNotes(await readText(join(dir, 'out', 'report.json'))));
    });
  });

  it('offline: analyze --snapshot and snapshot --snapshot redact a file that still holds secrets', async () => {
    const dir = await tempDir();
    const input = join(dir, 'with-secrets.json');
    await writeFile(input, JSON.stringify(await fixtureWithSecrets()));
    const clock = createFakeClock();
    const rewritten = await run(['snapshot', '--snapshot', input, '--out', join(dir, 'rewritten.json')], {}, clock);
    const analyzed = await run(['analyze', '--snapshot', input, '--out', join(dir, 'out'), '--format', 'json,html', '--fail-on', 'none'], {}, clock);
    expect([rewritten.code, analyzed.code]).toEqual([0, 0]);
    const all = [rewritten.stdout, rewritten.stderr, analyzed.stdout, analyzed.stderr, await readText(join(dir, 'rewritten.json'))];
    for (const name of await filesIn(join(dir, 'out'))) all.push(await readText(join(dir, 'out', name)));
    for (const secret of SECRETS) expect(all.join('\n')).not.toContain(secret);
    expect(await readText(join(dir, 'rewritten.json'))).toContain(`"secret": "${REDACTED}"`);
  });
});
