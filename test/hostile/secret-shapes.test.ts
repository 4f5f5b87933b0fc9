import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialRedactor } from '../../src/secrets/credentials.js';
import { REDACTED, RedactionTally, redactTokenShapes, redactTokenShapesDeep } from '../../src/secrets/token-shapes.js';
import { readReport, runWithin, scratchDir } from './helpers.js';

/*
 * Issue 23 item 5: secrets found by their value, not only by their key's name. Built from parts, so
 * no file of this repository holds a token-shaped string a scanner would flag.
 */
const GITHUB = `ghp_${'Zq3x'.repeat(9)}`;
const GITHUB_FINE = `github_pat_${'11AbCdEfG'.repeat(4)}`;
const AWS = `AKIA${'Q7RT'.repeat(4)}`;
const SLACK_PATH = `T0${'1A2B3C4D'}/B0${'5E6F7G8H'}/${'xYz9'.repeat(6)}`;
const SLACK = `https://hooks.slack.com/services/${SLACK_PATH}`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMxMjMifQ.${'s1gnatur3'.repeat(3)}`;
const BEARER = `Sup3rS3cretBearer${'9'.repeat(12)}`;
const SLACK_TOKEN = `xoxb-${'4815162342'}-${'aBcDeFgHiJkL'}`;
const GOOGLE = `AIza${'Sy0123456789'.repeat(3)}`.slice(0, 39);
const STRIPE = `sk_live_${'4eC39HqLyjWDarjt'.repeat(2)}`;
const PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIBOgIBAAJBAK'.repeat(4)}\n-----END RSA PRIVATE KEY-----`;

describe('redactTokenShapes', () => {
  it.each([
    ['a GitHub token', `token ${GITHUB} here`, `token ${REDACTED} here`],
    ['a fine-grained GitHub token', GITHUB_FINE, REDACTED],
    ['an AWS access key', `aws ${AWS}`, `aws ${REDACTED}`],
    ['a Slack webhook, host kept', `post to ${SLACK} now`, `post to https://hooks.slack.com/services/${REDACTED} now`],
    ['a JWT', `jwt=${JWT}`, `jwt=${REDACTED}`],
    ['a bearer header inside a string', `Authorization: Bearer ${BEARER}`, `Authorization: Bearer ${REDACTED}`],
    ['a basic header inside a string', `authorization: basic ${Buffer.from('user:password123456').toString('base64')}`, `authorization: basic ${REDACTED}`],
    ['a Slack token', `bot ${SLACK_TOKEN}`, `bot ${REDACTED}`],
    ['a Google API key', `key=${GOOGLE}`, `key=${REDACTED}`],
    ['a Stripe key', `stripe ${STRIPE}`, `stripe ${REDACTED}`],
    ['a private key', `pem: ${PRIVATE_KEY}`, `pem: ${REDACTED}`],
    ['an upper-case Slack webhook address, host kept', SLACK.toUpperCase(), `HTTPS://HOOKS.SLACK.COM/SERVICES/${REDACTED}`],
  ])('cuts %s', (_name, text, expected) => {
    const tally = new RedactionTally();
    expect(redactTokenShapes(text, tally)).toBe(expected);
    expect([...tally.values()]).toEqual([1]);
    // The value cut is recorded, without the prefix kept (a webhook's host), for every output to be cleaned of.
    const [secret] = [...tally.secrets];
    expect(tally.secrets.size).toBe(1);
    expect(text.toLowerCase()).toContain(secret!.toLowerCase());
    expect(expected).not.toContain(secret);
  });

  it.each([
    ['a template naming a secret', 'Authorization: Bearer {{ .secrets.PORT_TOKEN }}'],
    ['a short ghp_ word', 'ghp_short and AKIA1234'],
    ['an ordinary URL', 'https://hooks.example.com/services/team-a'],
    ['prose with the word token', 'Token rotation happens weekly'],
    ['a jq expression', '.entity.team | map(select(. == "eyJ")) | length'],
  ])('leaves %s alone (negative case)', (_name, text) => {
    expect(redactTokenShapes(text)).toBe(text);
  });

  it('walks keys and values of any depth without recursion, keeping key order', () => {
    let deep: unknown = GITHUB;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    let copy = redactTokenShapesDeep(deep);
    for (let level = 0; level < 100_000; level++) copy = (copy as unknown[])[0];
    expect(copy).toBe(REDACTED);
    expect(Object.keys(redactTokenShapesDeep({ b: 1, a: 2, [AWS]: 3 }))).toEqual(['b', 'a', REDACTED]);
  });

  it('gives back the value itself when nothing in it is a token shape, else a copy that leaves the value as it was', () => {
    const report = { findings: [{ id: '1', message: 'plain', tags: ['a'] }], notes: ['Token rotation happens weekly'] };
    expect(redactTokenShapesDeep(report)).toBe(report);
    const leaking = { findings: [{ id: '1', message: `token ${GITHUB}` }], notes: ['plain'] };
    const copy = redactTokenShapesDeep(leaking);
    expect(copy).not.toBe(leaking);
    expect(copy.findings[0]!.message).toBe(`token ${REDACTED}`);
    expect(leaking.findings[0]!.message).toBe(`token ${GITHUB}`);
    // A key of that shape is redacted too; an object that is not plain is still copied as a plain one.
    expect(Object.keys(redactTokenShapesDeep({ [GITHUB]: 1 }))).toEqual([REDACTED]);
    const dated = { at: new Date(0) };
    expect(redactTokenShapesDeep(dated)).not.toBe(dated);
  });

  it('is linear on hostile text', () => {
    const text = `${'eyJ'.repeat(50_000)} ${'Bearer '.repeat(50_000)} ${'-----BEGIN PRIVATE KEY-----'.repeat(5_000)}`;
    // CPU time, which a busy machine does not stretch: linear takes milliseconds, quadratic minutes.
    const started = process.cpuUsage();
    redactTokenShapes(text);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1_000).toBeLessThan(2_000);
  });
});

describe('the run\'s own token, echoed in part by a gateway', () => {
  it('is cut when 12 or more of its characters appear, at its start, middle or end', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.own-token-value-0123456789abcdef';
    const clean = credentialRedactor([token]);
    expect(clean(`invalid token "${token.slice(0, 20)}" (cut)`)).toBe(`invalid token "${REDACTED}" (cut)`);
    expect(clean(`got …${token.slice(-16)}`)).toBe(`got …${REDACTED}`);
    expect(clean(`mid ${token.slice(10, 30)} end`)).toBe(`mid ${REDACTED} end`);
    // Eleven characters from its middle are a common word or id, not the token (its ends: see issue 32 below).
    expect(clean(`short ${token.slice(5, 16)}`)).toBe(`short ${token.slice(5, 16)}`);
  });
});

describe('the run\'s own token, its first and last 8 characters echoed (issue 32)', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.Qk3vX9pLm2aTzR7wYc5NdE8fHs1uJg4Ko6Bi0Ve-xZq';
  const clean = credentialRedactor([token]);
  it('a gateway\'s "first 8 … last 8" is cut, and so is any 8 to 11 of its first or last characters', () => {
    expect(clean(`token ${token.slice(0, 8)}…${token.slice(-8)} rejected`)).toBe(`token ${REDACTED}…${REDACTED} rejected`);
    expect(clean(`starts ${token.slice(0, 10)}, ends ${token.slice(-11)}`)).toBe(`starts ${REDACTED}, ends ${REDACTED}`);
    // Seven are not: too common to mean the token.
    expect(clean(`short ${token.slice(0, 7)} ${token.slice(-7)}`)).toBe(`short ${token.slice(0, 7)} ${token.slice(-7)}`);
    // Inside the token, 8 to 11 characters in a row stay: only its ends are what gateways echo.
    expect(clean(`mid ${token.slice(40, 50)}`)).toBe(`mid ${token.slice(40, 50)}`);
  });
  it('another JWT sharing its header is cut whole, never in half (its shape would no longer match)', () => {
    const other = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlciJ9.Zz8yW1xV2uT3sR4qP5oN6mL7kJ8iH9gF0eD-cBa';
    expect(clean(`webhook signs with ${other} daily`)).toBe(`webhook signs with ${REDACTED} daily`);
  });

  it('ends that are plain words are not cut out of ordinary text (a client id that starts "platform-")', () => {
    const clientId = 'platform-ci-client-4f9d2c7e81';
    const words = credentialRedactor([clientId]);
    expect(words('team platform owns the pipeline')).toBe('team platform owns the pipeline');
    expect(words(`id ${clientId.slice(-8)} denied`)).toBe(`id ${REDACTED} denied`);
    // A credential under 16 characters is cut only whole.
    expect(credentialRedactor(['Ab3dEf7hJ9kL'])('x Ab3dEf7h y')).toBe('x Ab3dEf7h y');
  });
});

/** Every file under `dir`, as text. */
function allFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((path) => join(dir, path))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

describe('an org holding secrets under innocent keys', () => {
  it('no output holds them, the fix kit and predicted-org.json included, and the report says what was redacted', async () => {
    const dir = scratchDir('shapes');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as { actions: { invocationMethod: Record<string, unknown> }[] };
    const invocation = org.actions[0]!.invocationMethod;
    invocation.url = SLACK;
    invocation.body = {
      owners: '{{ .entity.team | join(",") }}',
      note: `deploy with ${GITHUB} and ${AWS}`,
      header: `Authorization: Bearer ${BEARER}`,
      jwt: JWT,
    };
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const out = join(dir, 'out');
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'json,html,sarif,junit,md']);
    expect(run.code).toBe(0);
    const files = allFiles(out);
    expect(files.map((file) => file.path)).toContain(join(out, 'fixes', 'predicted-org.json'));
    for (const { path, text } of files) {
      for (const secret of [SLACK_PATH, GITHUB, AWS, BEARER, JWT]) expect(text.includes(secret), `${secret} in ${path}`).toBe(false);
    }
    expect(readReport(out).notes).toContainEqual(expect.stringMatching(/^secrets redacted by their value \(whatever key held them\) in the org: 1 AWS access keys, 1 GitHub tokens, 1 JWTs, 1 Slack webhook URLs, 1 bearer or basic credentials; each is shown as <redacted>$/));
    // The rest of the resource is still read: the team template beside them is a finding as before.
    expect(readFileSync(join(out, 'fixes', 'predicted-org.json'), 'utf8')).toContain('https://hooks.slack.com/services/<redacted>');
  });
});

describe('a token in a repository file\'s name', () => {
  it('reaches no step summary, whatever --format asks for: the summary is redacted as summary.md is', async () => {
    const dir = scratchDir('shaped-name');
    const workflows = join(dir, 'repo', '.github', 'workflows');
    mkdirSync(workflows, { recursive: true });
    const step = 'jobs:\n  j:\n    steps:\n      - uses: port-labs/port-github-action@v1\n        with:\n          operation: UPSERT\n          team: ${{ steps.lookup.outputs.team }}\n';
    writeFileSync(join(workflows, `${GITHUB}.yml`), step);
    for (const format of ['json', 'json,md']) {
      const summary = join(dir, `summary-${format}.md`);
      const run = await runWithin(['analyze', '--repo', join(dir, 'repo'), '--out', join(dir, format), '--fail-on', 'none', '--format', format], { GITHUB_STEP_SUMMARY: summary });
      expect(run.code).toBe(0);
      const text = readFileSync(summary, 'utf8');
      // The file's finding is listed, its name cut: Markdown escapes the marker's brackets.
      expect(text, format).toContain('.github/workflows/&lt;redacted&gt;.yml:7');
      expect(text, format).not.toContain(GITHUB.slice('ghp_'.length));
    }
  });
});
