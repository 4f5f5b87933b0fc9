import { writeFile } from 'node:fs/promises';
import { filesIn } from '../support/files-in.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../helpers/fake-clock.js';
import { readText, run, tempDir, withSandbox } from './harness.js';

const oneLine = (text: string) => text.trim().split('\n').length === 1;

describe('credentials', () => {
  it('with neither a snapshot nor credentials, exits 2 with a hint that shows both ways', async () => {
    const result = await run(['analyze', '--out', await tempDir()], {}, createFakeClock());
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toBe(true);
    for (const way of ['--snapshot FILE', 'PORT_TOKEN', 'PORT_CLIENT_ID and PORT_CLIENT_SECRET', '--config FILE']) {
      expect(result.stderr).toContain(way);
    }
  });

  it('a rejected PORT_TOKEN exits 2 with one line and never echoes the token', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', await tempDir()], { PORT_TOKEN: 'wrong-token-123' }, clock);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').filter((l) => l.startsWith('teams-migration-audit:'))).toEqual([
        `teams-migration-audit: the service rejected PORT_TOKEN (HTTP 401) at ${sandbox.url}: check that they are still valid and belong to an org in this region (--region eu or us, or --api-url); new ones are made in the app's Credentials menu`,
      ]);
      expect(result.stderr).not.toContain('wrong-token-123');
    });
  });

  it('rejected client credentials exit 2 with one line and never echo the secret', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const env = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: 'not-the-secret-456' };
      const result = await run(['snapshot', '--out', join(await tempDir(), 'o.json'), '--api-url', sandbox.url, '--quiet'], env, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`teams-migration-audit: the service rejected PORT_CLIENT_ID / PORT_CLIENT_SECRET (HTTP 401) at ${sandbox.url}: check that they are still valid and belong to an org in this region (--region eu or us, or --api-url); new ones are made in the app's Credentials menu\n`);
    });
  });

  it('rejected credentials from --config name the config file, not the environment variables', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const config = join(await tempDir(), 'config.json');
      await writeFile(config, JSON.stringify({ CLIENT_ID: sandbox.clientId, CLIENT_SECRET: 'not-the-secret-789' }));
      const result = await run(['analyze', '--config', config, '--api-url', sandbox.url, '--out', await tempDir(), '--quiet'], {}, clock);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`teams-migration-audit: the service rejected CLIENT_ID / CLIENT_SECRET of the config file ${config} (HTTP 401) at ${sandbox.url}: check that they are still valid and belong to an org in this region (--region eu or us, or --api-url); new ones are made in the app's Credentials menu\n`);
      expect(result.stderr).not.toContain('PORT_CLIENT');
      expect(result.stderr).not.toContain('not-the-secret-789');
    });
  });

  it('half a client credential pair is a usage error', async () => {
    const result = await run(['analyze', '--out', await tempDir()], { PORT_CLIENT_ID: 'x' }, createFakeClock());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('set both PORT_CLIENT_ID and PORT_CLIENT_SECRET');
  });

  it('a config.json that is not JSON is named in one line that does not quote its content', async () => {
    const config = join(await tempDir(), 'config.json');
    await writeFile(config, '{"CLIENT_ID": "id", "CLIENT_SECRET": "hunter2-secret" oops}');
    const result = await run(['analyze', '--config', config, '--out', await tempDir()], {}, createFakeClock());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`teams-migration-audit: ${config}: the config file is not valid JSON\n`);
  });

  it('a bad --region or --concurrency is a usage error', async () => {
    const clock = createFakeClock();
    expect((await run(['analyze', '--region', 'mars', '--out', await tempDir()], { PORT_TOKEN: 't' }, clock)).code).toBe(2);
    const concurrency = await run(['analyze', '--concurrency', '0', '--out', await tempDir()], { PORT_TOKEN: 't' }, clock);
    expect(concurrency.code).toBe(2);
    expect(concurrency.stderr).toContain('--concurrency must be a whole number from 1 to 32');
  });

  it.each(['0', '-1', '1.5', 'abc', '', '1e1', '33'])('--concurrency "%s" is a one-line usage error whatever the source', async (value) => {
    const clock = createFakeClock();
    const snapshot = new URL('../../fixtures/demo-org.json', import.meta.url).pathname;
    const runs = [
      await run(['analyze', '--snapshot', snapshot, '--out', await tempDir(), '--concurrency', value], {}, clock),
      await run(['analyze', '--repo', await tempDir(), '--out', await tempDir(), '--concurrency', value], {}, clock),
      await run(['snapshot', '--snapshot', snapshot, '--out', join(await tempDir(), 'o.json'), '--concurrency', value], {}, clock),
      await run(['analyze', '--out', await tempDir(), '--concurrency', value], { PORT_TOKEN: 't' }, clock),
    ];
    for (const result of runs) {
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`teams-migration-audit: --concurrency must be a whole number from 1 to 32, got "${value}"\n`);
    }
  });
});

describe('no secret in any output', () => {
  it('keeps the token, client secret and exchanged tokens out of stdout, stderr, reports, snapshots and the request log', async () => {
    await withSandbox({ token: 'static-bearer-SECRET-1', clientSecret: 'client-SECRET-2', failEvery: 7, faults: [{ method: 'GET', path: '/v1/teams', status: 401, times: 1 }] }, async (sandbox, clock) => {
      const dir = await tempDir();
      const outputs: string[] = [];
      const clientEnv = { PORT_CLIENT_ID: sandbox.clientId, PORT_CLIENT_SECRET: sandbox.clientSecret };
      const runs = [
        await run(['analyze', '--api-url', sandbox.url, '--out', join(dir, 'b'), '--fail-on', 'none'], clientEnv, clock),
        await run(['analyze', '--api-url', sandbox.url, '--out', join(dir, 'a'), '--fail-on', 'none'], { PORT_TOKEN: sandbox.token }, clock, { isTTY: true }),
        await run(['snapshot', '--out', join(dir, 'org.json'), '--api-url', sandbox.url], clientEnv, clock),
        await run(['analyze', '--api-url', sandbox.url, '--out', join(dir, 'c')], { PORT_TOKEN: 'static-bearer-SECRET-wrong' }, clock),
      ];
      // The client run meets the one 401 (and recovers); the PORT_TOKEN runs then complete.
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 2]);
      for (const result of runs) outputs.push(result.stdout, result.stderr);
      for (const sub of ['a', 'b']) for (const file of await filesIn(join(dir, sub))) outputs.push(await readText(join(dir, sub, file)));
      outputs.push(await readText(join(dir, 'org.json')), JSON.stringify(sandbox.requests));

      const secrets = ['static-bearer-SECRET', 'client-SECRET-2', ...sandbox.issuedTokens()];
      expect(sandbox.issuedTokens().length).toBeGreaterThan(1);
      const all = outputs.join('\n');
      expect(all.length).toBeGreaterThan(1_000);
      for (const secret of secrets) expect(all).not.toContain(secret);
    });
  });
});
