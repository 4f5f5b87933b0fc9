import { describe, expect, it } from 'vitest';
import { checkSnapshot, entityFits } from '../../src/sources/validate-snapshot.js';
import { org } from '../support/rule-tester.js';

/** The notes the shape walk gives an entity list: what a list told to fit must have none of. */
const entityNotes = (list: unknown[]) => checkSnapshot({ ...org(), entities: { svc: list } }, 'org.json').notes.filter((note) => note.startsWith('entities.'));

const FITTING: unknown[] = [
  { identifier: 'a' },
  { identifier: 'a', title: 'A', team: 'Platform', relations: { r: ['x'], s: 'y', t: null } },
  { identifier: 'a', team: ['A', 'B'], title: null, relations: null },
  { identifier: 'a', team: [], properties: { any: [1, { x: null }] }, icon: 7 },
  JSON.parse('{"identifier":"a","__proto__":{"team":5},"relations":{"__proto__":[]}}'),
];
const MISFITTING: unknown[] = [
  null,
  'a',
  ['a'],
  {},
  { identifier: null },
  { identifier: 7 },
  { identifier: 'a', title: 3 },
  { identifier: 'a', team: 5 },
  { identifier: 'a', team: {} },
  { identifier: 'a', team: ['A', null] },
  { identifier: 'a', team: ['A', 2] },
  // A hole is no string: the walk reads it as undefined.
  { identifier: 'a', team: ['A', , 'B'] },
  { identifier: 'a', relations: [] },
  { identifier: 'a', relations: 'x' },
];

describe('entityFits: a list of entities told to fit without the shape walk (issue 41)', () => {
  it('fits exactly where the walk notes nothing', () => {
    for (const entity of FITTING) {
      expect(entityFits(entity), JSON.stringify(entity)).toBe(true);
      expect(entityNotes([entity]), JSON.stringify(entity)).toEqual([]);
    }
  });

  it('does not fit wherever the walk notes something, and the list is then walked for its notes', () => {
    for (const entity of MISFITTING) {
      expect(entityFits(entity), JSON.stringify(entity)).toBe(false);
      expect(entityNotes([entity]).length, JSON.stringify(entity)).toBeGreaterThan(0);
    }
    // One misfit among fitting entities: the notes name it where it stands.
    expect(entityNotes([{ identifier: 'a' }, { identifier: 'b', team: ['A', 2] }, { identifier: 'c' }])).toEqual(['entities.svc[1].team[1]: expected a string, got number 2']);
  });
});
