import { describe, expect, it } from 'vitest';
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
