import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../src/api/retry-policy.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { clientWith } from '../helpers/fake-client.js';

/*
 * Issue 38 item 12: numbers under secret-named keys are secrets too, in every file written; and the
 * 429 limits are reached exactly, not one wait early or late.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-numbers-'));
const SECRETS = [918273645546372819, 4711000042, 123456];

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

describe('numbers under secret-named keys', () => {
  it('are redacted from the report, the fix kit, predicted-org.json and a rewritten snapshot', async () => {
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as OrgSnapshot;
    const service = org.blueprints.find((blueprint) => blueprint.identifier === 'service')!;
    Object.assign(service, { apiToken: SECRETS[0], webhook: { security: { secret: SECRETS[1] } } });
    Object.assign(org.actions![0]!, { invocation: { headers: { 'X-Api-Key': SECRETS[2] } } });
    const dir = tmp();
    const input = join(dir, 'org.json');
    writeFileSync(input, JSON.stringify(org));
    const out = join(dir, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', input, '--out', out, '--fail-on', 'none', '--format', 'json,html,md,sarif,junit']);
    expect(run.code).toBe(0);
    const snapshotOut = join(dir, 'rewritten.json');
    await runCliCaptured(['snapshot', '--snapshot', input, '--out', snapshotOut, '--quiet']);
    const written = `${allText(out)}\n${readFileSync(snapshotOut, 'utf8')}\n${run.stderr}`;
    // The service blueprint is copied whole into the kit, so its keys are there, with their values cut.
    expect(readFileSync(join(out, 'fixes', 'org', 'blueprint', 'service.json'), 'utf8')).toMatch(/"apiToken": "<redacted>"/);
    expect(readFileSync(snapshotOut, 'utf8')).toMatch(/"secret": "<redacted>"/);
    for (const secret of SECRETS) expect(written).not.toContain(String(secret));
  });
});

describe('the 429 limits, reached exactly', () => {
  const OK = { status: 200, body: { ok: true, blueprints: [] } };
  const asked = (seconds: number) => ({ status: 429, headers: { 'x-ratelimit-reset': String(seconds) } });
  const single = DEFAULT_RETRY_POLICY.maxRateLimitWaitMs / 1_000;

  it(`a wait of exactly ${single} s is waited; ${single + 1} s is not`, async () => {
    const at = clientWith([asked(single), OK]);
    await expect(at.client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(at.clock.sleeps).toEqual([single * 1_000]);
    const over = clientWith([asked(single + 1), OK]);
    await expect(over.client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(`asked to wait ${single + 1} s, over the ${single} s this tool waits`);
    expect(over.clock.sleeps).toEqual([]);
  });

  it(`${DEFAULT_RETRY_POLICY.maxRateLimitRetries} 429s in a row are waited out; one more gives up after exactly that many waits`, async () => {
    const times = DEFAULT_RETRY_POLICY.maxRateLimitRetries;
    const at = clientWith([...Array.from({ length: times }, () => asked(2)), OK]);
    await expect(at.client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(at.clock.sleeps).toHaveLength(times);
    const over = clientWith([...Array.from({ length: times + 1 }, () => asked(2)), OK]);
    await expect(over.client.get('/v1/blueprints', 'blueprints')).rejects.toThrow(`still rate limited (HTTP 429) after ${times} waits`);
    expect(over.clock.sleeps).toHaveLength(times);
    expect(over.fake.log).toHaveLength(times + 1);
  });

  it('waits that add up to exactly the total cap are waited; a second more is not', async () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxTotalRateLimitWaitMs: 20_000 };
    const at = clientWith([asked(10), asked(10), OK], { policy });
    await expect(at.client.get('/v1/blueprints', 'blueprints')).resolves.toEqual([]);
    expect(at.clock.sleeps).toEqual([10_000, 10_000]);
    const over = clientWith([asked(10), asked(11), OK], { policy });
    await expect(over.client.get('/v1/blueprints', 'blueprints')).rejects.toThrow('over the 20 s this tool waits in all');
    expect(over.clock.sleeps).toEqual([10_000]);
  });
});
