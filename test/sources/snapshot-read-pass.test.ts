import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { RedactionTally } from '../../src/secrets/token-shapes.js';
import { redactSecrets, redactSnapshot } from '../../src/sources/redact.js';
import { loadSnapshotFile } from '../../src/sources/snapshot-file.js';
import { checkSnapshot } from '../../src/sources/validate-snapshot.js';

// Issue 41: the snapshot file's check and secrets in the pass that reads it, not in walks of their own.

const dir = mkdtempSync(join(tmpdir(), 'tma-read-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const GITHUB_TOKEN = `ghp_${'A'.repeat(36)}`;
const SLACK_HOOK = 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX';
const demo = () => JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as Record<string, unknown>;

/** The demo org with secrets where they are redacted by key, by value and inside URLs, some of them in values of the wrong shape. */
function hostileOrg(): Record<string, unknown> {
  const org = demo();
  return {
    ...org,
    actions: [
      ...(org.actions as unknown[]),
      { identifier: 'leak', title: `Leak ${GITHUB_TOKEN}`, invocationMethod: { type: 'WEBHOOK', url: `${SLACK_HOOK}?token=abc123`, headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz', auth: 7 }, secret: 12345 } },
      'https://user:pw123@host.example/x',
      42,
    ],
    constructor: [{ token: 't0ken-value-123456' }],
    webhooks: [{ identifier: GITHUB_TOKEN, title: 'w', security: { secret: 's3cr3t' } }, { identifier: GITHUB_TOKEN, title: 'w2' }],
    integrations: { password: 5 },
    customThing: `see https://u:p4ss@x.example/?api_key=zzz ${GITHUB_TOKEN}`,
    emptyList: [],
    emptyObject: {},
  };
}

/** Many actions, so a member spans many batches of the reader. */
function manyActions(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    identifier: `a${index}`,
    title: index % 7 === 0 ? `uses ${GITHUB_TOKEN}` : `Action ${index}`,
    invocationMethod: { type: 'WEBHOOK', url: index % 5 === 0 ? `https://u:pw${index}@h.example/` : 'https://h.example/', headers: { 'X-Api-Key': `key-${index}` } },
    ...(index % 11 === 0 && { userInputs: { properties: { p: { type: 'string', format: 7 } } } }),
  }));
}

function fileOf(text: string): string {
  const path = join(dir, `s${files++}.json`);
  writeFileSync(path, text);
  return path;
}

/** The old order, walk after walk: the whole text parsed, checked, then redacted. */
function walkByWalk(text: string): { snapshot: string; notes: string[] } {
  const checked = checkSnapshot(JSON.parse(text.replace(/^\uFEFF/, '')), 'org.json');
  const redactionNotes: string[] = [];
  const snapshot = redactSnapshot(checked.snapshot, redactionNotes);
  return { snapshot: JSON.stringify(snapshot), notes: [...checked.notes, ...redactionNotes] };
}

async function inOnePass(text: string) {
  const loaded = await loadSnapshotFile(fileOf(text), { redact: true });
  const redactionNotes: string[] = [];
  const snapshot = redactSnapshot(loaded.snapshot, redactionNotes, loaded.redacted);
  return { snapshot: JSON.stringify(snapshot), notes: [...loaded.notes, ...redactionNotes], redacted: loaded.redacted };
}

describe('the snapshot file checked and redacted as it is read', () => {
  it('finds and cuts what the walks found and cut, notes quoting values as redaction leaves them, and says which members it did', async () => {
    const text = `\uFEFF${JSON.stringify(hostileOrg())}`;
    const expected = walkByWalk(text);
    const pass = await inOnePass(text);
    expect(pass.snapshot).toBe(expected.snapshot);
    expect(pass.notes.map((note) => note.replace(/^org\.json/, ''))).toEqual(expected.notes);
    // The note on a value of the wrong shape is the check's, made from the value as read (as before the pass),
    // and quotes it as redaction leaves it: `auth` is a secret header (test/hostile/secret-values.test.ts).
    expect(pass.notes).toContainEqual('actions[6].invocationMethod.headers.auth: expected a string, got number <redacted>');
    expect(pass.notes).toContainEqual(expect.stringMatching(/^secrets redacted by their value .* in the org: 4 GitHub tokens, 1 Slack webhook URLs/));
    // Every list or object at the top, but the entities and the recording's own gaps (kept as read) and the organization (whose required fields the check reads whole).
    const containers = Object.entries(hostileOrg()).filter(([key, value]) => typeof value === 'object' && value !== null && !['entities', 'incomplete', 'organization'].includes(key));
    expect([...pass.redacted!.keys].sort()).toEqual(containers.map(([key]) => key).sort());
    expect(pass.snapshot).not.toContain('pw123');
    expect(pass.snapshot).not.toContain(GITHUB_TOKEN);
  });

  it('agrees with the walks on members of many batches, and on a member named twice at the top level', async () => {
    const org = { ...demo(), actions: manyActions(2_000) };
    for (const text of [JSON.stringify(org), `${JSON.stringify(org).slice(0, -1)},"actions":[{"identifier":"only","title":"${GITHUB_TOKEN}"}]}`, `${JSON.stringify(org).slice(0, -1)},"actions":[]}`]) {
      const expected = walkByWalk(text);
      const pass = await inOnePass(text);
      expect(pass.snapshot).toBe(expected.snapshot);
      expect(pass.notes).toEqual(expected.notes);
      expect(pass.redacted?.keys.has('actions')).toBe(true);
    }
  });

  it('leaves every object of a member prototype-free, a `__proto__` key an own key with its value redacted', async () => {
    const text = `${JSON.stringify(demo()).slice(0, -1)},"actions":[{"identifier":"p","__proto__":{"token":"t0ken-value-123456","admin":true}}],"pagePermissions":{"__proto__":{"read":{"__proto__":{"password":"pw-999"}}}}}`;
    const loaded = await loadSnapshotFile(fileOf(text), { redact: true });
    expect(JSON.stringify(loaded.snapshot)).toBe(walkByWalk(text).snapshot);
    const actions = loaded.snapshot.actions as unknown as Record<string, Record<string, unknown>>[];
    const permissions = loaded.snapshot.pagePermissions as unknown as Record<string, Record<string, Record<string, unknown>>>;
    for (const object of [actions[0]!, actions[0]!.__proto__!, permissions, permissions.__proto__!, permissions.__proto__!.read!]) expect(Object.getPrototypeOf(object)).toBeNull();
    expect(Object.keys(actions[0]!)).toEqual(['identifier', '__proto__']);
    expect(actions[0]!.__proto__).toEqual({ token: '<redacted>', admin: true });
    expect(Object.keys(permissions.__proto__!.read!)).toEqual(['__proto__']);
    expect(JSON.stringify(loaded.snapshot)).not.toContain('pw-999');
  });

  it('leaves the file to the walks when a member nests too deep or names a key twice across its batches', async () => {
    const deep = `${'{"a":'.repeat(120)}"${GITHUB_TOKEN}"${'}'.repeat(120)}`;
    const deepOrg = `${JSON.stringify(hostileOrg()).slice(0, -1)},"late":[${deep},{"k":"${GITHUB_TOKEN}"}]}`;
    const permissions = Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`a${index}`, { execute: { roles: ['Admin'], token: `t-${index}` } }]));
    const { actionPermissions: _, ...withoutPermissions } = demo();
    const twice = `${JSON.stringify(withoutPermissions).slice(0, -1)},"actionPermissions":${JSON.stringify(permissions).slice(0, -1)},"a0":{"execute":{"teams":"not a list"}}}}`;
    for (const text of [deepOrg, twice]) {
      const expected = walkByWalk(text);
      const pass = await inOnePass(text);
      expect(pass.snapshot).toBe(expected.snapshot);
      expect(pass.notes.map((note) => note.replace(/^[^:]*\.json/, ''))).toEqual(expected.notes.map((note) => note.replace(/^org\.json/, '')));
      expect(pass.redacted).toBeUndefined();
    }
  });
});

describe('redactSecrets walks own keys only', () => {
  it('copies no key a polluted Object.prototype would lend an object, and in place redacts what it walks', () => {
    const record = { url: 'https://u:pw-own@x.example/', plain: 'kept' };
    Object.defineProperty(Object.prototype, 'token', { value: 'lent-0123456789', enumerable: true, configurable: true, writable: true });
    try {
      const tally = new RedactionTally();
      const copy = redactSecrets(record, false, '', tally) as Record<string, unknown>;
      expect(Object.keys(copy)).toEqual(['url', 'plain']);
      expect(copy).toEqual({ url: 'https://u:<redacted>@x.example/', plain: 'kept' });
      expect([...tally.secrets]).toEqual(['pw-own']);
    } finally {
      delete (Object.prototype as Record<string, unknown>).token;
    }
    const fresh = JSON.parse('{"headers":{"X-Api-Key":"k-1","Accept":"json"},"list":[{"password":"p-1"},"ok"]}') as JsonValue;
    const same = redactSecrets(fresh, false, '', new RedactionTally(), true);
    expect(same).toBe(fresh);
    expect(JSON.stringify(same)).toBe('{"headers":{"X-Api-Key":"<redacted>","Accept":"json"},"list":[{"password":"<redacted>"},"ok"]}');
  });
});

describe('the shape check walks own keys only', () => {
  it('notes nothing a polluted Object.prototype would lend every object', () => {
    const document = demo();
    const notes = checkSnapshot(document, 'org.json').notes;
    Object.defineProperty(Object.prototype, 'teams', { value: 'lent', enumerable: true, configurable: true, writable: true });
    try {
      expect(checkSnapshot(document, 'org.json').notes).toEqual(notes);
    } finally {
      delete (Object.prototype as Record<string, unknown>).teams;
    }
  });
});
