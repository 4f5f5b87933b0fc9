import { describe, expect, it } from 'vitest';
import { JqLexError, lexJq, type Token } from '../../src/jq/lexer.js';

const kinds = (source: string) => lexJq(source).map((t) => [t.type, t.value]);

describe('lexJq', () => {
  it('reads field accesses in every spelling', () => {
    expect(kinds('.team')).toEqual([['field', 'team']]);
    expect(kinds('.relations.teams')).toEqual([['field', 'relations'], ['field', 'teams']]);
    expect(kinds('."team"')).toEqual([['field', 'team']]);
    expect(kinds('.["team"]')).toEqual([['dot', '.'], ['punctuation', '['], ['string', 'team'], ['punctuation', ']']]);
    expect(kinds('.team?')).toEqual([['field', 'team'], ['punctuation', '?']]);
    expect(kinds('.teams')).toEqual([['field', 'teams']]);
    expect(kinds('.teamsize')).toEqual([['field', 'teamsize']]);
    // Keywords are plain field names after a dot.
    expect(kinds('.end')).toEqual([['field', 'end']]);
  });

  it('records source offsets, so a rewrite can replace exactly one token', () => {
    const source = '.user.team | contains(["SRE On-Call"])';
    const literal = lexJq(source).find((t) => t.type === 'string')!;
    expect(source.slice(literal.start, literal.end)).toBe('"SRE On-Call"');
  });

  it('reads variables, keywords, formats, identifiers and numbers', () => {
    expect(kinds('. as $entity | $entity.team')).toEqual([
      ['dot', '.'], ['keyword', 'as'], ['variable', 'entity'], ['operator', '|'], ['variable', 'entity'], ['field', 'team'],
    ]);
    expect(kinds('if .a and .b or (.c | not) then 1 elif .d then 2.5e3 else .5 end')).toEqual([
      ['keyword', 'if'], ['field', 'a'], ['keyword', 'and'], ['field', 'b'], ['keyword', 'or'], ['punctuation', '('], ['field', 'c'],
      ['operator', '|'], ['identifier', 'not'], ['punctuation', ')'], ['keyword', 'then'], ['number', '1'], ['keyword', 'elif'],
      ['field', 'd'], ['keyword', 'then'], ['number', '2.5e3'], ['keyword', 'else'], ['number', '.5'], ['keyword', 'end'],
    ]);
    expect(kinds('@base64d')).toEqual([['format', '@base64d']]);
    expect(kinds('$__loc__')).toEqual([['variable', '__loc__']]);
  });

  it('prefers the longest operator', () => {
    expect(kinds('.a //= 1 | .b |= . // 2 | .c != 3')).toEqual([
      ['field', 'a'], ['operator', '//='], ['number', '1'], ['operator', '|'], ['field', 'b'], ['operator', '|='], ['dot', '.'],
      ['operator', '//'], ['number', '2'], ['operator', '|'], ['field', 'c'], ['operator', '!='], ['number', '3'],
    ]);
    expect(kinds('. as [$a] ?// $a | $a')).toContainEqual(['operator', '?//']);
  });

  it('decodes string escapes', () => {
    const [token] = lexJq('"a\\"b\\\\c\\n\\u0041\\/"');
    expect(token).toMatchObject({ type: 'string', value: 'a"b\\c\nA/' });
  });

  it('keeps .team inside a string as text, not as a field', () => {
    expect(kinds('"the .team lead"')).toEqual([['string', 'the .team lead']]);
  });

  it('lexes interpolations recursively, with offsets into the whole source', () => {
    const source = '"owners: \\(.team | join(", ")) (\\("x"))"';
    const [token] = lexJq(source) as [Token];
    expect(token.value).toBe('owners:  ()');
    expect(token.interpolations).toHaveLength(2);
    const field = token.interpolations![0]![0]!;
    expect(field).toMatchObject({ type: 'field', value: 'team' });
    expect(source.slice(field.start, field.end)).toBe('.team');
    // Parentheses inside an interpolation do not close it.
    expect(token.interpolations![0]!.map((t) => t.value)).toEqual(['team', '|', 'join', '(', ', ', ')']);
  });

  it('skips comments, including ones continued by an odd number of backslashes', () => {
    expect(kinds('.a # .team\n| .b')).toEqual([['field', 'a'], ['operator', '|'], ['field', 'b']]);
    expect(kinds('.a # .team')).toEqual([['field', 'a']]);
    expect(kinds('.a # note \\\n.team\n| .b')).toEqual([['field', 'a'], ['operator', '|'], ['field', 'b']]);
    expect(kinds('.a # note \\\r\n.team\n| .b')).toEqual([['field', 'a'], ['operator', '|'], ['field', 'b']]);
    // Two backslashes escape each other: the comment ends at the newline.
    expect(kinds('.a # note \\\\\n.team')).toEqual([['field', 'a'], ['field', 'team']]);
  });

  it('reports what it cannot read with an offset', () => {
    const cases: [string, string][] = [
      ['"open', 'unterminated string literal'],
      ['"\\q"', 'invalid escape'],
      ['"\\(.a', 'unterminated string interpolation'],
      ['.a | $', 'must be followed by a variable name'],
      ['.a ! .b', 'unexpected character'],
    ];
    for (const [source, message] of cases) {
      expect(() => lexJq(source), source).toThrow(JqLexError);
      expect(() => lexJq(source), source).toThrow(message);
    }
  });
});
