/**
 * Issue 32 meets issue 29: the judge's own tables and the values it fills are looked up by names
 * an expression chose, and `constructor` or `__proto__` are names like any other.
 */
import { describe, expect, it } from 'vitest';
import { unknownDataRead } from '../../src/judge/user-contexts.js';
import { extractReferences } from '../../src/jq/references.js';
import { unfilledReads } from '../../src/judge/unfilled.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

const context = { entity: { identifier: 'e1', team: ['QA'], properties: {} }, user: { email: 'a@example.com' } };

describe('names of the object prototype in the judge', () => {
  for (const name of ['constructor', '__proto__', 'toString']) {
    it(`a read of the entity's own property "${name}" reaches a value no context holds`, () => {
      const expression = `.entity.properties.${name} == "eu"`;
      const references = extractReferences(expression);
      expect(references.ok).toBe(true);
      if (!references.ok) return;
      expect(unfilledReads(jq, expression, references.references, [context])).toEqual([`.entity.properties.${name}`]);
    });

    it(`a condition reading .${name} reads none of the run-time data access cannot know`, () => {
      expect(unknownDataRead(`.${name} == "x"`)).toBeUndefined();
    });
  }
});
