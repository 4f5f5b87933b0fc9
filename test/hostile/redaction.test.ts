import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { credentialForms, credentialRedactor, redactCredentials } from '../../src/secrets/credentials.js';
import { writeReports, FORMATS } from '../../src/report/write-reports.js';
import { REDACTED, redactSecrets } from '../../src/sources/redact.js';
import { demoReport } from '../ci/helpers.js';
import { runWithin, scratchDir } from './helpers.js';

// Issue 16 item 10 (the org-data half, and the last pass over everything written).

describe('redactSecrets: short secret names and tokens in URLs', () => {
  it('cuts sig, code, key, auth and pat from query strings, keeping the rest of the URL', () => {
    const urls = {
      sas: 'https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=AbC%2Fsecret123&se=2030',
      fn: 'https://fn.azurewebsites.net/api/hook?code=FnKey_123456==&name=x',
      google: 'https://maps.googleapis.com/x?key=AIzaSyD-123&q=1',
      other: 'https://h.example/x?auth=a1b2c3d4&pat=ghp_abcdef123456',
    };
    expect(redactSecrets(urls)).toEqual({
      sas: `https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=${REDACTED}&se=2030`,
      fn: `https://fn.azurewebsites.net/api/hook?code=${REDACTED}&name=x`,
      google: `https://maps.googleapis.com/x?key=${REDACTED}&q=1`,
      other: `https://h.example/x?auth=${REDACTED}&pat=${REDACTED}`,
    });
  });

  it('cuts a token written as the user part of a URL', () => {
    expect(redactSecrets({ url: 'https://ghp_abcdef1234567890@github.com/org/repo.git' })).toEqual({ url: `https://${REDACTED}@github.com/org/repo.git` });
    expect(redactSecrets('git clone https://x-access-token:ghs_123456@github.com/o/r')).toBe(`git clone https://x-access-token:${REDACTED}@github.com/o/r`);
  });

  it('cuts short-named and key-ending headers of a webhook invocation', () => {
    const invocation = { type: 'WEBHOOK', headers: { auth: 'abc123xyz', 'X-Functions-Key': 'k-123456', 'X-Hub-Signature': 'sha1=ab', 'Content-Type': 'application/json' } };
    expect(redactSecrets(invocation)).toEqual({
      type: 'WEBHOOK',
      headers: { auth: REDACTED, 'X-Functions-Key': REDACTED, 'X-Hub-Signature': REDACTED, 'Content-Type': 'application/json' },
    });
  });

  it('leaves the same short names alone where they are ordinary names (negative cases)', () => {
    const blueprint = { schema: { properties: { code: { type: 'string', title: 'Code' }, key: { type: 'string' } } } };
    const mapping = { entity: { mappings: { properties: { code: '.code', key: '.key' } } } };
    const url = { url: 'https://h.example/x?page=2&sort=code', templated: 'https://h.example/x?code={{ .secrets.FN_KEY }}', mail: 'mailto:ops@example.com' };
    expect(redactSecrets(blueprint)).toEqual(blueprint);
    expect(redactSecrets(mapping)).toEqual(mapping);
    expect(redactSecrets(url)).toEqual(url);
  });
});

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.run-token-4f2a9c';
const CLIENT_ID = 'client-id-7d1e0b';
const SECRET = 'client/secret+with=chars';

describe('the run\'s own credentials', () => {
  it('are cut in every form they travel in, and only strings of 8 characters or more are cut', () => {
    const clean = credentialRedactor([TOKEN, CLIENT_ID, SECRET, 'short']);
    const basic = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64');
    const text = `echo: Authorization: Bearer ${TOKEN}; url ?s=${encodeURIComponent(SECRET)}; json "${JSON.stringify(SECRET).slice(1, -1)}"; Basic ${basic}; short stays`;
    expect(clean(text)).toBe(`echo: Authorization: Bearer ${REDACTED}; url ?s=${REDACTED}; json "${REDACTED}"; Basic ${REDACTED}=; short stays`);
    expect(credentialForms(['short'])).toEqual([]);
  });

  it('never reach any report file, whatever field carries them', async () => {
    const report: Report = demoReport();
    report.incomplete = [{ resource: `GET /v1/pages?token=${TOKEN}`, reason: `HTTP 502: gateway echoed "authorization: Bearer ${TOKEN}" and client ${CLIENT_ID} / ${encodeURIComponent(SECRET)}` }];
    report.notes = [`a note quoting ${SECRET}`];
    const out = scratchDir('credentials');
    await writeReports(redactCredentials(report, []), {
      out,
      formats: FORMATS,
      meta: { html: { generatedAt: '2026-01-02T03:04:05.000Z', source: 'live org' }, sarif: { toolVersion: '9.9.9' } },
      env: { PORT_CLIENT_ID: CLIENT_ID, PORT_CLIENT_SECRET: SECRET },
      credentials: [TOKEN],
    });
    const files = readdirSync(out);
    expect(files.sort()).toEqual(['index.html', 'report.json', 'report.junit.xml', 'report.sarif', 'summary.md']);
    for (const file of files) {
      const content = readFileSync(join(out, file), 'utf8');
      for (const secret of [TOKEN, CLIENT_ID, SECRET, encodeURIComponent(SECRET)]) expect({ file, leaked: content.includes(secret) }).toEqual({ file, leaked: false });
    }
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).incomplete[0].reason).toContain(`Bearer ${REDACTED}`);
  });

  it('never reach stderr, a report or a rewritten snapshot from a CLI run', async () => {
    const dir = scratchDir('credentials-cli');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as Record<string, unknown> & { blueprints: { relations?: Record<string, unknown> }[] };
    org.incomplete = [{ resource: 'pages', reason: `the gateway said: bad request GET /v1/pages authorization=Bearer ${TOKEN}` }];
    // A key holding the token puts it into a note: the note is printed and kept in report.notes.
    org.blueprints[0]!.relations = { ...org.blueprints[0]!.relations, [TOKEN]: { target: 5 } };
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const env = { PORT_TOKEN: TOKEN };
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'out'), '--format', 'json,md', '--fail-on', 'none'], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(REDACTED);
    expect(run.stderr).not.toContain(TOKEN);
    for (const file of ['report.json', 'summary.md']) expect(readFileSync(join(dir, 'out', file), 'utf8')).not.toContain(TOKEN);

    const rewrite = await runWithin(['snapshot', '--snapshot', join(dir, 'org.json'), '--out', join(dir, 'again.json')], env);
    expect(rewrite.code).toBe(3);
    expect(readFileSync(join(dir, 'again.json'), 'utf8')).not.toContain(TOKEN);
  });
});
