import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { buildFixKit } from '../../src/fix/build-fix-kit.js';
import { writeFixKit } from '../../src/fix/write-fixes.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { openOutputSet } from '../../src/output/output-set.js';
import { StreamedContent } from '../../src/output/staged-digest.js';
import { analysableSnapshot } from '../../src/sources/validate-snapshot.js';
import { readSnapshotFile as readSnapshot } from '../../src/sources/snapshot-file.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

/** An org whose entities the migration changes: titles in `team`, a relation to `_team` inherited over. */
function org(): OrgSnapshot {
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_stream', name: 'Stream', featureFlags: [] },
    blueprints: [
      { identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} },
      { identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {} },
      { identifier: 'repo', title: 'Repo', schema: { properties: {} }, relations: { owners: { target: '_team', many: true, required: false } }, teamInheritance: { path: 'owners' } },
    ],
    teams: [{ name: 'Platform Team' }, { name: 'Payments' }],
    entities: {
      service: [
        { identifier: 's1', title: 'S1', team: ['Platform Team'], properties: { hook: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX', note: 'line\u2028break' } },
        { identifier: 's2', title: 'S2', team: [] },
      ],
      repo: [{ identifier: 'r1', relations: { owners: ['payments'] } }],
      _team: [{ identifier: 'platform', title: 'Platform Team' }],
    },
  };
}

/** predicted-org.json as writeFixKit writes `kit` (cleaned of `secrets`), in a folder of its own. */
async function writtenPredictedOrg(kit: ReturnType<typeof buildFixKit>, secrets?: readonly string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tma-stream-'));
  try {
    const outputs = await openOutputSet(dir);
    await writeFixKit(kit, join(dir, 'fixes'), outputs, 'r1', secrets);
    await outputs.commit();
    await outputs.close();
    return readFileSync(join(dir, 'fixes', 'predicted-org.json'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the predicted org, written entity by entity (issue 41)', () => {
  it('holds each entity as the migration leaves it, one per line, and leaves the snapshot as read', async () => {
    const catalog = buildCatalog(analysableSnapshot(org()), { jq, teamsMap: { Payments: 'payments' } });
    const before = JSON.stringify(catalog.snapshot);
    const file = buildFixKit({ catalog, report: analyze(catalog), jq }).files.find((f) => f.kind === 'predicted-org')!;
    const text = file.content;
    const predicted = JSON.parse(text) as OrgSnapshot;
    expect(predicted.entities?.service?.[0]?.team).toEqual(['platform']);
    // The relation to `_team` inherited over is gone, its teams are the entity's own.
    expect(predicted.entities?.repo?.[0]).toEqual({ identifier: 'r1', relations: {}, team: ['payments'] });
    expect(predicted.entities?._team?.map((entity) => entity.identifier)).toEqual(['platform', 'payments']);
    expect(predicted.migrationState).toEqual({ migrated: true, source: 'predicted' });
    expect(text.split('\n').filter((line) => line.startsWith('{"identifier":"s'))).toHaveLength(2);
    // Made twice (the test's `content` and the writer): the same text, and the snapshot untouched.
    expect([...file.pieces!()].join('')).toBe(text);
    expect(JSON.stringify(catalog.snapshot)).toBe(before);
  });

  it('is escaped and redacted piece by piece as a whole file was, and staged with the digest of what was written', async () => {
    const catalog = buildCatalog(analysableSnapshot(org()), { jq });
    const kit = buildFixKit({ catalog, report: analyze(catalog), jq });
    const written = await writtenPredictedOrg(kit);
    expect(written).toContain('https://hooks.slack.com/services/<redacted>');
    expect(written).toContain('line\\u2028break');
    expect(written).not.toContain('\u2028');
    expect(JSON.parse(written).entities.service[0].properties.note).toBe('line\u2028break');
  });

  it('holds no more than one record of the org at a time: a list of 600 actions is not one piece', () => {
    const snapshot = org();
    snapshot.actions = Array.from({ length: 600 }, (_, i) => ({ identifier: `act_${i}`, title: `Action ${i}`, trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service' } }));
    const catalog = buildCatalog(analysableSnapshot(snapshot), { jq });
    const file = buildFixKit({ catalog, report: analyze(catalog), jq }).files.find((f) => f.kind === 'predicted-org')!;
    const pieces = [...file.pieces!()];
    const actions = JSON.stringify((JSON.parse(pieces.join('')) as OrgSnapshot).actions);
    expect(actions.length).toBeGreaterThan(60_000);
    // The largest piece is one action (a few hundred characters), not the 60 KB list.
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(500);
    expect(pieces.join('')).toContain(`\n"actions":${actions},`);
  });

  it('holds no corrected body as text: each is made as it is written, the same bytes as its content', async () => {
    const catalog = buildCatalog(analysableSnapshot(await readSnapshot('fixtures/demo-org.json')), { jq });
    const kit = buildFixKit({ catalog, report: analyze(catalog), jq });
    const resources = kit.files.filter((file) => file.kind === 'resource');
    expect(resources.length).toBeGreaterThan(3);
    // What the kit holds as strings of its own besides names: nothing of a body (their text is 1,000s of characters).
    const held = resources.flatMap((file) => Object.entries(Object.getOwnPropertyDescriptors(file)).flatMap(([key, property]) => (typeof property.value === 'string' && key !== 'path' && key !== 'kind' ? [property.value] : [])));
    expect(held).toEqual([]);
    expect(resources.reduce((sum, file) => sum + file.content.length, 0)).toBeGreaterThan(1_000);
    const dir = mkdtempSync(join(tmpdir(), 'tma-bodies-'));
    try {
      const outputs = await openOutputSet(dir);
      await writeFixKit(kit, join(dir, 'fixes'), outputs, 'r1');
      await outputs.commit();
      await outputs.close();
      for (const file of resources) expect(readFileSync(join(dir, 'fixes', file.path), 'utf8')).toBe(file.content);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the run collect once the org is predicted, before the bodies add to it', async () => {
    const catalog = buildCatalog(analysableSnapshot(org()), { jq, teamsMap: { Payments: 'payments' } });
    const report = analyze(catalog);
    let settled = 0;
    const kit = buildFixKit({ catalog, report, jq, settle: () => settled++ });
    expect(settled).toBe(1);
    expect(kit.files.some((file) => file.kind === 'predicted-org')).toBe(true);
  });

  it('a streamed file: the text in runs of bytes (no megabyte string), and the digest of all of it once written', () => {
    const pieces = () => Array.from({ length: 3000 }, (_, i) => `${'x'.repeat(700)}${i}\n`);
    const content = new StreamedContent(pieces);
    expect(() => content.sha256).toThrow('known once it is written');
    const runs = [...content];
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.every((run) => Buffer.isBuffer(run))).toBe(true);
    expect(Buffer.concat(runs).toString('utf8')).toBe(pieces().join(''));
    expect(content.sha256).toBe(createHash('sha256').update(pieces().join('')).digest('hex'));
  });
});

describe('the org\'s secrets in the streamed predicted org', () => {
  const SECRET = 'Vault-Pw-4b8e1c7d9a';
  /** Entities that repeat a secret at many offsets, over several 32 KB runs: most of the text is the secret. */
  function orgRepeatingSecret(): OrgSnapshot {
    const snapshot = org();
    snapshot.entities!.service = Array.from({ length: 900 }, (_, i) => ({ identifier: `s${i}`, title: `S${i}${'y'.repeat(i % 41)}`, team: ['Platform Team'], properties: { note: SECRET.repeat(20) } }));
    return snapshot;
  }

  it('are cut from every run, whole: runs end only between pieces, so none splits a value a fixed-size cut would', async () => {
    const catalog = buildCatalog(analysableSnapshot(orgRepeatingSecret()), { jq });
    const kit = buildFixKit({ catalog, report: analyze(catalog), jq });
    const file = kit.files.find((f) => f.kind === 'predicted-org')!;
    const text = [...file.pieces!()].join('');
    // A cut every 32 KB of text would fall inside one of the secrets: the case a streamed scrub must survive.
    const RUN = 32_768;
    const straddled = Array.from({ length: Math.floor(text.length / RUN) }, (_, k) => (k + 1) * RUN).filter((at) => text.slice(at - SECRET.length + 1, at + SECRET.length - 1).includes(SECRET));
    expect(straddled.length).toBeGreaterThan(0);
    const written = await writtenPredictedOrg(kit, [SECRET]);
    // Not the secret, nor any 12 of its characters in a row: no half of one was left at a run's edge.
    expect(written).not.toContain(SECRET.slice(0, 12));
    expect(written).not.toContain(SECRET.slice(-12));
    const notes = (JSON.parse(written) as OrgSnapshot).entities!.service!.map((entity) => (entity.properties as { note: string }).note);
    expect(notes).toEqual(Array.from({ length: 900 }, () => '<redacted>'.repeat(20)));
  });

  it('leaves the kit as it was when the run knows no secret (negative case)', async () => {
    const catalog = buildCatalog(analysableSnapshot(orgRepeatingSecret()), { jq });
    const kit = buildFixKit({ catalog, report: analyze(catalog), jq });
    expect((await writtenPredictedOrg(kit)).split(SECRET)).toHaveLength(900 * 20 + 1);
  });
});
