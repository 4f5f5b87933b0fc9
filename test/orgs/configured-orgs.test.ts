import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orgsOf } from '../../src/orgs/org-config.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { loadFixture, run, tempDir } from '../live/harness.js';
import { startSandbox, type Sandbox } from '../sandbox/server.js';

const PROD_SECRET = 'prod-secret-value-0123456789';
const STAGING_TOKEN_NAME = 'STAGING_PORT_TOKEN';

/** Two orgs on the loopback sandbox: production by client id and secret, staging by token. */
async function withTwoOrgs<T>(body: (prod: Sandbox, staging: Sandbox, clock: ReturnType<typeof createFakeClock>) => Promise<T>): Promise<T> {
  const clock = createFakeClock();
  const fixture = await loadFixture();
  const prod = await startSandbox({ snapshot: { ...fixture, organization: { id: 'org_prod', name: 'Acme prod' } }, now: clock.now, idleTimeoutMs: 30_000, clientSecret: PROD_SECRET });
  const staging = await startSandbox({ snapshot: { ...fixture, organization: { id: 'org_staging', name: 'Acme staging' } }, now: clock.now, idleTimeoutMs: 30_000 });
  try {
    return await body(prod, staging, clock);
  } finally {
    await Promise.all([prod.close(), staging.close()]);
  }
}

const configText = (prod: Sandbox, staging: Sandbox) =>
  [
    'orgs:',
    '  - name: production',
    `    apiUrl: ${prod.url}`,
    '    clientIdEnv: PROD_PORT_CLIENT_ID',
    '    clientSecretEnv: PROD_PORT_CLIENT_SECRET',
    '  - name: staging',
    `    apiUrl: ${staging.url}`,
    `    tokenEnv: ${STAGING_TOKEN_NAME}`,
    '',
  ].join('\n');

const envOf = (prod: Sandbox, staging: Sandbox): Record<string, string> => ({ PROD_PORT_CLIENT_ID: prod.clientId, PROD_PORT_CLIENT_SECRET: prod.clientSecret, [STAGING_TOKEN_NAME]: staging.token });

async function writeConfig(text: string, name = 'orgs.yml'): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, text);
  return path;
}

describe('analyze --orgs FILE: several live orgs, credentials from the variables the file names (issue 41)', () => {
  it('reads each org live and writes the report merge gives of the same orgs read by separate runs, byte for byte', async () => {
    await withTwoOrgs(async (prod, staging, clock) => {
      const config = await writeConfig(configText(prod, staging));
      const out = await tempDir();
      const env = envOf(prod, staging);
      const together = await run(['analyze', '--orgs', config, '--out', out, '--format', 'json', '--quiet'], env, clock);
      expect([0, 1]).toContain(together.code);
      // Separate runs, one per org, as a CI matrix would run them, then merge.
      const separate: string[] = [];
      for (const [sandbox, credentials] of [
        [prod, { PORT_CLIENT_ID: prod.clientId, PORT_CLIENT_SECRET: prod.clientSecret }],
        [staging, { PORT_TOKEN: staging.token }],
      ] as const) {
        const alone = await tempDir();
        expect([0, 1]).toContain((await run(['analyze', '--api-url', sandbox.url, '--out', alone, '--format', 'json', '--quiet'], credentials, clock)).code);
        separate.push(join(alone, 'report.json'));
      }
      const gathered = await tempDir();
      const merged = await run(['merge', '--out', gathered, '--format', 'json', ...separate], {}, clock);
      expect(together.code).toBe(merged.code);
      const report = readFileSync(join(out, 'report.json'), 'utf8');
      expect(report).toBe(readFileSync(join(gathered, 'report.json'), 'utf8'));
      expect((JSON.parse(report) as { orgs: { organization: { id: string } }[] }).orgs.map((org) => org.organization.id)).toEqual(['org_prod', 'org_staging']);
      // Each org's own reports beside the merged ones, under its name; only reads were sent.
      expect(readFileSync(join(out, 'orgs', '1-production', 'report.json'), 'utf8')).toContain('"org_prod"');
      expect(readFileSync(join(out, 'orgs', '2-staging', 'report.json'), 'utf8')).toContain('"org_staging"');
      for (const sandbox of [prod, staging]) {
        expect(sandbox.requests.filter((request) => request.method !== 'GET' && !/\/(entities\/search|auth\/access_token)$/.test(request.path))).toEqual([]);
      }
      // No credential in any output or on stderr.
      for (const text of [together.stderr, together.stdout, report]) {
        for (const secret of [PROD_SECRET, staging.token]) expect(text).not.toContain(secret);
      }
    });
  });

  it('a rejected credential stops the run in one line naming the org and its variables, never the value', async () => {
    await withTwoOrgs(async (prod, staging, clock) => {
      const config = await writeConfig(configText(prod, staging));
      const env = { ...envOf(prod, staging), [STAGING_TOKEN_NAME]: 'wrong-staging-token-987654' };
      const result = await run(['analyze', '--orgs', config, '--out', await tempDir(), '--quiet'], env, clock);
      expect(result.code).toBe(2);
      // Production was read and analysed first (its gate's lines above); the run stops at staging.
      expect(result.stderr.split('\n').filter((line) => line.startsWith('teams-migration-audit:'))).toEqual([
        `teams-migration-audit: org "staging": the service rejected ${STAGING_TOKEN_NAME} (HTTP 401) at ${staging.url}: check that they are still valid and belong to an org in this region (--region eu or us, or --api-url); new ones are made in the app's Credentials menu`,
      ]);
      expect(result.stderr).not.toContain('wrong-staging-token');
    });
  });

  it('checks every variable before the first request: one line naming each that is not set', async () => {
    await withTwoOrgs(async (prod, staging, clock) => {
      const config = await writeConfig(configText(prod, staging));
      const result = await run(['analyze', '--orgs', config, '--out', await tempDir()], { PROD_PORT_CLIENT_ID: prod.clientId }, clock);
      expect([result.code, result.stderr]).toEqual([2, `teams-migration-audit: ${config}: environment variables not set: PROD_PORT_CLIENT_SECRET (org "production"), ${STAGING_TOKEN_NAME} (org "staging")\n`]);
      expect([...prod.requests, ...staging.requests]).toEqual([]);
    });
  });

  it('refuses a file that is not YAML or JSON in one line that quotes none of it', async () => {
    const config = await writeConfig('{"orgs": [{"name": "prod", "tokenEnv": "hunter2-pasted-secret" oops]}', 'orgs.json');
    const result = await run(['analyze', '--orgs', config, '--out', await tempDir()], {}, createFakeClock());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^teams-migration-audit: ${config}: not valid YAML or JSON: .+ \\(line 1, column \\d+\\)\\n$`));
    expect(result.stderr).not.toContain('hunter2');
  });

  it('refuses --api-url, --region, --config, --snapshot, --app-url and snapshot files beside --orgs', async () => {
    const config = await writeConfig('orgs: []\n');
    for (const [args, flag] of [
      [['--api-url', 'https://api.getport.io'], '--api-url'],
      [['--region', 'us'], '--region'],
      [['--config', 'c.json'], '--config'],
      [['--snapshot', 'x.json'], '--snapshot'],
      [['--app-url', 'https://app.example.com'], '--app-url'],
    ] as const) {
      const result = await run(['analyze', '--orgs', config, ...args, '--out', await tempDir()], {}, createFakeClock());
      expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(`leave out ${flag}`)]);
    }
    const files = await run(['analyze', 'a.json', '--orgs', config, '--out', await tempDir()], {}, createFakeClock());
    expect([files.code, files.stderr]).toEqual([2, expect.stringContaining('leave out the snapshot files')]);
    const stdout = await run(['analyze', '--orgs', await writeConfig('orgs: [{name: a, tokenEnv: A}]\n'), '--out', '-', '--format', 'json'], { A: 'token-a-123456' }, createFakeClock());
    expect([stdout.code, stdout.stderr]).toEqual([2, expect.stringContaining('several orgs need --out DIR')]);
  });
});

describe('orgsOf: the orgs file, checked whole', () => {
  const env = { ID: 'client-id', SECRET: 'client-secret-value', TOKEN: 'token-value-123' };
  const org = (fields: Record<string, unknown>) => ({ orgs: [{ name: 'prod', clientIdEnv: 'ID', clientSecretEnv: 'SECRET', ...fields }] });

  it('gives each org its address, app address and credentials, names the variables as their source', () => {
    const [eu, us] = orgsOf({ orgs: [{ name: 'prod', clientIdEnv: 'ID', clientSecretEnv: 'SECRET' }, { name: 'dev', region: 'US', tokenEnv: 'TOKEN', appUrl: 'https://app.example.com' }] }, 'o.yml', env);
    expect(eu).toEqual({ name: 'prod', addresses: { region: 'eu' }, connection: { baseUrl: new URL('https://api.getport.io'), credentials: { kind: 'client', clientId: 'client-id', clientSecret: 'client-secret-value', source: 'ID / SECRET' } } });
    expect(us).toEqual({ name: 'dev', addresses: { region: 'us', appUrl: 'https://app.example.com' }, connection: { baseUrl: new URL('https://api.us.getport.io'), credentials: { kind: 'token', token: 'token-value-123', source: 'TOKEN' } } });
    expect(orgsOf(org({ apiUrl: 'http://127.0.0.1:8080/v1' }), 'o.yml', env)[0]?.connection.baseUrl.href).toBe('http://127.0.0.1:8080/');
  });

  it.each([
    [{ orgs: [] }, 'o.yml: "orgs" must be a list of one org or more'],
    [{ orgs: [{ name: 'a', tokenEnv: 'TOKEN' }], extra: 1 }, 'o.yml: unknown key "extra" (the file holds "orgs" alone)'],
    [org({ clientSecret: 'pasted-secret' }), 'o.yml: org 1: unknown key "clientSecret" (known: name, region, apiUrl, appUrl, clientIdEnv, clientSecretEnv, tokenEnv)'],
    [{ orgs: [{ tokenEnv: 'TOKEN' }] }, 'o.yml: org 1: "name" is missing (each org\'s reports go under its name)'],
    [{ orgs: [{ name: 'a', tokenEnv: 'TOKEN' }, { name: 'A', tokenEnv: 'TOKEN' }] }, 'o.yml: org 2: the name "A" is org 1\'s already; give each org its own name'],
    [org({ clientSecretEnv: 'sk-pasted secret value' }), 'o.yml: org "prod": "clientSecretEnv" must name an environment variable (letters, digits and _), not hold its value: the file never carries credentials'],
    [org({ tokenEnv: 'TOKEN' }), 'o.yml: org "prod": give tokenEnv, or clientIdEnv and clientSecretEnv, not both'],
    [{ orgs: [{ name: 'a', clientIdEnv: 'ID' }] }, 'o.yml: org "a": give clientIdEnv and clientSecretEnv (or tokenEnv): the variables holding its credentials'],
    [org({ region: 'eu', apiUrl: 'https://api.getport.io' }), 'o.yml: org "prod": give region or apiUrl, not both'],
    [org({ region: 'mars' }), 'o.yml: org "prod": "region" must be "eu" or "us"'],
    [org({ apiUrl: 'http://api.example.com' }), expect.stringMatching(/^o\.yml: org "prod": apiUrl http:\/\/api\.example\.com: .*https/)],
    [org({ name: 7 }), 'o.yml: org 1: "name" must be a non-empty string'],
  ])('refuses %j in one line', (document, message) => {
    expect(() => orgsOf(document, 'o.yml', env)).toThrow(expect.objectContaining({ message }));
  });
});
