import { describe, expect, it } from 'vitest';
import { firstTooDeep } from '../../src/json-input.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The definition, one character at a time: brackets outside strings, a backslash escaping the next character. */
function reference(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      if (++depth > limit) return i;
    } else if (char === ']' || char === '}') depth--;
  }
  return undefined;
}

describe('firstTooDeep (strings skipped with indexOf, issue 41)', () => {
  it('finds what the character-by-character definition finds, on 5,000 random texts of brackets, quotes and backslashes', () => {
    const next = seededRandom(41);
    const alphabet = ['[', ']', '{', '}', '"', '\\\\', 'a', ' '];
    for (let run = 0; run < 5000; run++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 60) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const limit = Math.floor(next() * 4);
      expect(firstTooDeep(text, limit), JSON.stringify(text)).toBe(reference(text, limit));
    }
  });

  it('a bracket inside a string with escaped quotes and backslashes does not count', () => {
    expect(firstTooDeep('{"a": "\\\\\\"[[[", "b": "\\\\\\\\"}', 1)).toBeUndefined();
    expect(firstTooDeep('{"a": "\\\\\\\\", "b": [[1]]}', 2)).toBe(20);
  });
});
