import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSnapshotFile } from '../../src/sources/snapshot-file.js';
import { dropPrototypes, dropTreePrototypes } from '../../src/model/json.js';
import { redactSnapshot } from '../../src/sources/redact.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

const everyObject = (value: unknown, into: object[] = []): object[] => {
  if (typeof value === 'object' && value !== null) {
    if (!Array.isArray(value)) into.push(value);
    for (const child of Object.values(value)) everyObject(child, into);
  }
  return into;
};

describe('prototype safety in the pass that reads the entities (issue 41)', () => {
  it('a parsed tree loses every prototype, and dropPrototypes then leaves it alone', () => {
    const tree = JSON.parse('{"b": [{"identifier": "x", "relations": {"constructor": ["t"], "__proto__": ["u"]}}]}') as Record<string, unknown>;
    expect(dropTreePrototypes(tree)).toBe(true);
    expect(everyObject(tree).every((object) => Object.getPrototypeOf(object) === null)).toBe(true);
    expect(Object.keys((tree.b as { relations: object }[])[0]!.relations)).toEqual(['constructor', '__proto__']);
    // Remembered as prototype-free: not walked again (an object added later by hand is not its business).
    const added = { later: true };
    (tree.b as unknown[]).push(added);
    dropPrototypes({ entities: tree });
    expect(Object.getPrototypeOf(added)).toBe(Object.prototype);
  });

  it('a tree deeper than it goes is left to dropPrototypes, which still makes all of it prototype-free', () => {
    let deep: unknown = { leaf: {} };
    for (let i = 0; i < 600; i++) deep = { next: deep };
    expect(dropTreePrototypes(deep)).toBe(false);
    dropPrototypes({ entities: deep });
    expect(everyObject(deep).every((object) => Object.getPrototypeOf(object) === null)).toBe(true);
  });

  it('a redacted snapshot: resources are prototype-free copies, entities lose theirs in place', () => {
    const snapshot = JSON.parse('{"format": "org-snapshot/1", "organization": {"id": "o", "name": "O"}, "blueprints": [{"identifier": "toString", "relations": {}}], "entities": {"toString": [{"identifier": "e", "team": ["x"]}]}}') as OrgSnapshot;
    const redacted = redactSnapshot(snapshot);
    expect(everyObject(redacted).filter((object) => object !== redacted).every((object) => Object.getPrototypeOf(object) === null)).toBe(true);
    expect(redacted.entities).toBe(snapshot.entities);
  });
});

describe('prototype safety while a snapshot file is read (issue 41: in the reading pass)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tma-proto-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const SNAPSHOT = {
    format: 'org-snapshot/1',
    organization: { id: 'o', name: 'O' },
    blueprints: [{ identifier: 'svc', relations: {} }],
    entities: {
      svc: Array.from({ length: 300 }, (_, i) => ({ identifier: `e${i}`, team: ['x'], properties: { nested: { deep: [{ x: i }] } }, relations: { constructor: ['t'] } })),
      empty: [],
      odd: {},
    },
  };

  it('every object of the entities, at any depth, has no prototype; an own `__proto__` key stays a key', async () => {
    const path = join(dir, 'org.json');
    // `__proto__` written into the text: JSON.parse makes it an own key, and so must the reader.
    writeFileSync(path, JSON.stringify(SNAPSHOT).replace('"relations":{"constructor"', '"relations":{"__proto__":["u"],"constructor"'));
    const { snapshot } = await loadSnapshotFile(path);
    const entities = snapshot.entities as unknown as Record<string, unknown>;
    expect(everyObject(entities).length).toBeGreaterThan(1_000);
    expect(everyObject(entities).every((object) => Object.getPrototypeOf(object) === null)).toBe(true);
    const first = (entities.svc as { relations: Record<string, unknown> }[])[0]!;
    expect(Object.keys(first.relations)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
    // Known prototype-free: the redaction does not walk the entities again, and gives them on as they are.
    const added = { later: true };
    (entities.svc as unknown[]).push(added);
    expect(redactSnapshot(snapshot).entities).toBe(snapshot.entities);
    expect(Object.getPrototypeOf(added)).toBe(Object.prototype);
  });

  it('the rest of the org is as parsed until the redaction copies it without prototypes', async () => {
    const path = join(dir, 'org2.json');
    writeFileSync(path, JSON.stringify(SNAPSHOT));
    const { snapshot } = await loadSnapshotFile(path);
    expect(Object.getPrototypeOf(snapshot.blueprints[0])).toBe(Object.prototype);
    const redacted = redactSnapshot(snapshot);
    expect(Object.getPrototypeOf(redacted.blueprints[0])).toBe(null);
  });

  it('a file read the ordinary way (not in pieces: invalid UTF-8 in a string) still has its entities made prototype-free', async () => {
    const path = join(dir, 'latin1.json');
    const text = JSON.stringify(SNAPSHOT).replace('"O"', '"O\u00ff"');
    writeFileSync(path, Buffer.from(text, 'latin1'));
    const { snapshot } = await loadSnapshotFile(path);
    expect(snapshot.organization.name).toBe('O\uFFFD');
    const redacted = redactSnapshot(snapshot);
    expect(everyObject(redacted.entities).every((object) => Object.getPrototypeOf(object) === null)).toBe(true);
  });
});
