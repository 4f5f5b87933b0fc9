import { InputError } from './errors.js';
import { readInputFile } from './read-input-file.js';

/**
 * How deep a JSON input file (snapshot, baseline) may nest before it is refused whole (exit 2).
 * A snapshot deeper than its own limit (MAX_NESTING_DEPTH, 100) is still read, its excess cut and
 * noted; past this one the file is no export of anything, and is not worth building values from.
 */
export const MAX_INPUT_DEPTH = 10_000;

/**
 * Where the text first nests deeper than `limit` (an offset), or undefined. One pass over the
 * characters, brackets inside strings skipped: it runs before anything builds a value from the text.
 */
export function firstTooDeep(text: string, limit = MAX_INPUT_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      // Strings are most of a snapshot's text: jump to their end with indexOf instead of reading each character.
      i = stringEnd(text, i + 1);
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > limit) return i;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) depth--;
  }
  return undefined;
}

/**
 * The offset of the quote that closes a string whose text starts at `from` (the end of the text
 * when none does): the first quote after an even run of backslashes. Linear: each backslash run
 * is counted once, by the quote that follows it.
 */
export function stringEnd(text: string, from: number): number {
  for (let at = from; ; at++) {
    at = text.indexOf('"', at);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** One InputError line when a JSON input nests past MAX_INPUT_DEPTH; the file is not read further. */
function assertJsonDepth(text: string, path: string, what: string): void {
  const at = firstTooDeep(text);
  if (at === undefined) return;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 0x0a) line++;
  throw new InputError(`${path}: the ${what} nests deeper than ${MAX_INPUT_DEPTH} levels (line ${line}), which no real file does; not read`);
}

/**
 * A value quoted in an error line: a scalar as JSON, cut to `max` characters so one line stays
 * readable; an array or object only named, since writing out a deeply nested one overflows the stack.
 */
export function shortJson(value: unknown, max = 80): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Read a JSON input file (snapshot, baseline, previous report, config): a regular file, not nested
 * past MAX_INPUT_DEPTH, valid JSON; anything else is one InputError line naming it (exit 2).
 * `quoteParserError: false` leaves out JSON.parse's excerpt, for files that may hold secrets; an HTML
 * page is named as one, with `htmlHint` after.
 */
export async function readJsonInput(
  path: string,
  what: string,
  options: { missingHint?: string; quoteParserError?: boolean; htmlHint?: string; onBytes?: (bytes: Buffer) => void } = {},
): Promise<unknown> {
  const text = await readInputFile(path, what, options.missingHint, options.onBytes);
  assertJsonDepth(text, path, what);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // The page beside report.json is the likeliest wrong file: say what it is, not where JSON.parse stopped.
    if (/^\s*<(!doctype html|html|head|body)\b/i.test(text)) throw new InputError(`${path}: cannot read the ${what}: it is an HTML page, not JSON${options.htmlHint ?? ''}`, { cause: error });
    // V8 may quote the offending text, newlines and all; the error stays one line.
    const why = options.quoteParserError === false ? '' : `: ${(error as Error).message.replace(/\s+/g, ' ')}`;
    throw new InputError(`${path}: the ${what} is not valid JSON${why}`, { cause: error });
  }
}
