import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { MAX_INPUT_DEPTH, stringEnd } from './json-input.js';

/** A JSON object file read in pieces: the value JSON.parse gives for the whole text, and how deep its text nests. */
interface PiecewiseJson {
  document: Record<string, unknown>;
  /** The deepest nesting of brackets in the text (the object itself is 1). */
  depth: number;
}

interface PieceOptions {
  /** Bytes read at a time. */
  chunkBytes?: number;
  /** Characters of a list's items (or an object's members) given to JSON.parse at once. */
  batchChars?: number;
  /** The most text held at once for one item or token not yet complete; past it the file is left to the ordinary read. */
  maxWindowChars?: number;
  /** Members of the top-level object whose own members are read in pieces too (`entities`: one list per blueprint). */
  splitMembers?: ReadonlySet<string>;
  /**
   * Each batch of items parsed below one of `splitMembers` (a list's items in an array, or an
   * object's members in an object), as JSON.parse made it and before it joins its container: what
   * a caller does to every item (drop its prototypes) is done while the batch is fresh in memory.
   */
  onBatch?: (member: string, batch: Batch) => void;
  /**
   * Each batch of items of a member of the top-level object that is not split (a list's items, an
   * object's members), as JSON.parse made it; what it returns joins the member instead (a redacted
   * copy: the secrets are cut in the reading pass, issue 41). `first`: the batch starts the member's
   * container, so the container is the value returned. `depthSoFar`: the deepest nesting of the text
   * read so far, this batch's included.
   */
  onMemberBatch?: (member: string, batch: Batch, first: boolean, depthSoFar: number) => Batch;
}

/** Items of a container parsed at once: a list's items, or an object's members. */
export type Batch = Record<string, unknown> | unknown[];

/**
 * A JSON file whose top level is an object, read and parsed a few megabytes at a time, never held
 * whole as one string (issue 41: a million entities' snapshot, 263 MB, was a string of that size
 * until the next full collection, which came after the run's peak). The top-level object, its
 * lists and objects, and the lists and objects of the members named in `splitMembers`, are built
 * here; every item below them is made by JSON.parse, many items per call, so each value is the
 * one JSON.parse of the whole text gives (same keys, same order, `__proto__` an own key).
 * `onBytes` sees every byte as read (the run id's digest).
 *
 * undefined for anything else (a read error, bytes that are no UTF-8, nesting past
 * MAX_INPUT_DEPTH, anything not JSON, a top level that is no object): the caller reads the file the
 * ordinary way, which says what is wrong in the words it always used.
 */
export function readJsonObjectInPieces(path: string, onBytes: (bytes: Buffer) => void, options: PieceOptions = {}): PiecewiseJson | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const pieces = new PieceParser(options.batchChars ?? BATCH_CHARS, options.splitMembers ?? new Set(), options.maxWindowChars ?? MAX_WINDOW_CHARS, options);
    const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
    let carried = 0;
    let first = true;
    for (;;) {
      const read = readSync(fd, chunk, carried, chunk.length - carried, null);
      if (read > 0) onBytes(chunk.subarray(carried, carried + read));
      const filled = carried + read;
      // A character cut by the chunk's end waits for the rest of its bytes.
      const whole = read === 0 ? filled : wholeCharacters(chunk, filled);
      const bytes = chunk.subarray(0, whole);
      if (!isUtf8(bytes)) return undefined;
      let text = bytes.toString('utf8');
      if (first && text.startsWith('\uFEFF')) text = text.slice(1);
      first = false;
      if (!pieces.push(text)) return undefined;
      chunk.copy(chunk, 0, whole, filled);
      carried = filled - whole;
      if (read === 0) break;
      if (carried === chunk.length) return undefined;
    }
    return pieces.end();
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Small enough that every string made here (the window, a batch's text) stays in V8's young
 * generation, which a scavenge frees at once: a string past about 128 KB is a large object, left
 * until the next full collection (a million entities' batches piled up 250 MB of them).
 */
const CHUNK_BYTES = 32 * 1024;
const BATCH_CHARS = 16 * 1024;

/**
 * An item bigger than this (a 100 MB string in one value) would be copied again with every chunk
 * added to the window and scanned again from its start, a cost growing with its size squared: such
 * a file is read whole instead, as before. Any item of a real org is far smaller.
 */
const MAX_WINDOW_CHARS = 2 * 1024 * 1024;

/** How many of the first `filled` bytes end on a whole UTF-8 character. */
function wholeCharacters(bytes: Buffer, filled: number): number {
  let start = filled - 1;
  // Back over up to three continuation bytes to the byte that starts the last character.
  while (start > 0 && filled - start < 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return filled;
  const lead = bytes[start]!;
  const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length > filled ? start : filled;
}

/** A container whose items this reader builds (the top-level object and what it splits), or one whose items go to JSON.parse in batches. */
interface Frame {
  array: boolean;
  /** Nesting of its brackets: the top-level object is 1. */
  depth: number;
  /** Items are built here, one by one; else its text goes to JSON.parse in batches. */
  split: boolean;
  /** Where this container goes in its parent: a key, or the end of a list. */
  slot?: string;
  /** The member of the top-level object this container is an item of, when that member is split. */
  member?: string;
  /** A split object: the key of the member being read. */
  key?: string;
  value?: Record<string, unknown> | unknown[];
  /** A split frame: what comes next. */
  expect: 'first' | 'key' | 'colon' | 'value' | 'next';
  /** A batched frame: where its pending batch starts in the window, and whether one was parsed before it. */
  batchStart: number;
  batched: boolean;
  /** A batched frame: the scan's place in the window and depth below the frame. */
  scanned: number;
  below: number;
}

const WHITESPACE = /^[ \t\n\r]*$/;

/**
 * The text of one JSON object, given in consecutive pieces (`push`), built as it comes. Only the
 * grammar of the containers it builds itself is read here (keys, colons, commas, brackets); all
 * other text is validated by JSON.parse, so anything JSON.parse refuses, this refuses too.
 */
class PieceParser {
  private window = '';
  private at = 0;
  private readonly stack: Frame[] = [];
  private root: Record<string, unknown> | undefined;
  private done = false;
  private maxDepth = 0;

  constructor(
    private readonly batchChars: number,
    private readonly splitMembers: ReadonlySet<string>,
    private readonly maxWindowChars: number,
    private readonly hooks: Pick<PieceOptions, 'onBatch' | 'onMemberBatch'>,
  ) {}

  /** The next piece of text; false when the text is no JSON object this reader builds. */
  push(text: string): boolean {
    const keep = this.keepFrom();
    if (this.window.length - keep > this.maxWindowChars) return false;
    this.window = this.window.slice(keep) + text;
    this.at -= keep;
    for (const frame of this.stack) {
      frame.batchStart -= keep;
      frame.scanned -= keep;
    }
    return this.advance();
  }

  end(): PiecewiseJson | undefined {
    if (!this.done || this.root === undefined || !WHITESPACE.test(this.window.slice(this.at))) return undefined;
    return { document: this.root, depth: this.maxDepth };
  }

  /** The first character of the window still needed: a batch not yet parsed, or the token being read. */
  private keepFrom(): number {
    const top = this.stack[this.stack.length - 1];
    return top !== undefined && !top.split ? Math.min(top.batchStart, this.at) : this.at;
  }

  /** Reads on while the window holds whole tokens; false at anything that is not JSON. */
  private advance(): boolean {
    const text = this.window;
    for (;;) {
      if (this.done) return WHITESPACE.test(text.slice(this.at));
      const frame = this.stack[this.stack.length - 1];
      if (frame === undefined) {
        const start = skipWhitespace(text, this.at);
        if (start === text.length) return true;
        if (text.charCodeAt(start) !== 0x7b /* { */) return false;
        this.at = start + 1;
        this.open(false, undefined, true);
        continue;
      }
      if (!frame.split) {
        const result = this.scanBatched(frame);
        if (result === 'more') return true;
        if (result === 'bad') return false;
        continue;
      }
      const step = this.stepSplit(frame);
      if (step !== 'ok') return step === 'more';
    }
  }

  private open(array: boolean, key: string | undefined, split: boolean): void {
    const parent = this.stack[this.stack.length - 1];
    const depth = (parent?.depth ?? 0) + 1;
    if (depth > this.maxDepth) this.maxDepth = depth;
    const member = parent?.split === true && parent.depth === 2 ? parent.slot : undefined;
    this.stack.push({ array, depth, split, ...(key !== undefined && { slot: key }), ...(member !== undefined && { member }), expect: 'first', batchStart: this.at, batched: false, scanned: this.at, below: 0 });
  }

  /** One token of a container built here; 'more' when the window ends first. */
  private stepSplit(frame: Frame): 'ok' | 'more' | 'bad' {
    const text = this.window;
    const at = skipWhitespace(text, this.at);
    if (at === text.length) return 'more';
    const char = text.charCodeAt(at);
    const closer = frame.array ? 0x5d /* ] */ : 0x7d; /* } */
    if (frame.expect === 'next' || frame.expect === 'first') {
      if (char === closer) {
        this.at = at + 1;
        this.close();
        return 'ok';
      }
      if (frame.expect === 'next') {
        if (char !== 0x2c /* , */) return 'bad';
        this.at = at + 1;
        frame.expect = frame.array ? 'value' : 'key';
        return 'ok';
      }
      frame.expect = frame.array ? 'value' : 'key';
    }
    if (frame.expect === 'key') {
      if (char !== 0x22 /* " */) return 'bad';
      const end = stringEnd(text, at + 1);
      if (end === text.length) return 'more';
      frame.key = JSON.parse(text.slice(at, end + 1)) as string;
      this.at = end + 1;
      frame.expect = 'colon';
      return 'ok';
    }
    if (frame.expect === 'colon') {
      if (char !== 0x3a /* : */) return 'bad';
      this.at = at + 1;
      frame.expect = 'value';
      return 'ok';
    }
    // A value: a container of its own, or a scalar read whole by JSON.parse.
    frame.expect = 'next';
    if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      this.at = at + 1;
      const splitChild = frame.depth === 1 && frame.key !== undefined && this.splitMembers.has(frame.key);
      this.open(char === 0x5b, frame.array ? undefined : frame.key, splitChild);
      return 'ok';
    }
    const end = valueEnd(text, at);
    if (end === text.length) {
      frame.expect = 'value';
      return 'more';
    }
    this.attach(frame, frame.array ? undefined : frame.key, JSON.parse(text.slice(at, end)));
    this.at = end;
    return 'ok';
  }

  /** A batched container's text, scanned to its end, parsed a batch at a time. */
  private scanBatched(frame: Frame): 'ok' | 'more' | 'bad' {
    const text = this.window;
    let i = frame.scanned;
    let below = frame.below;
    for (; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char === 0x22 /* " */) {
        const end = stringEnd(text, i + 1);
        // The window ends inside the string: it is scanned again from its quote.
        if (end === text.length) break;
        i = end;
      } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
        below++;
        if (frame.depth + below > this.maxDepth) {
          this.maxDepth = frame.depth + below;
          if (this.maxDepth > MAX_INPUT_DEPTH) return 'bad';
        }
      } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
        if (below === 0) {
          // Brackets below are JSON.parse's to match; this container's own closer is ours.
          if ((char === 0x5d) !== frame.array) return 'bad';
          if (!this.parseBatch(frame, text.slice(frame.batchStart, i), false)) return 'bad';
          this.at = i + 1;
          this.close();
          return 'ok';
        }
        below--;
      } else if (char === 0x2c /* , */ && below === 0 && i - frame.batchStart >= this.batchChars) {
        if (!this.parseBatch(frame, text.slice(frame.batchStart, i), true)) return 'bad';
        frame.batchStart = i + 1;
      }
    }
    frame.scanned = i;
    frame.below = below;
    this.at = i;
    return 'more';
  }

  /** Items of a batched container, parsed by JSON.parse and added in order, as its parse of the whole would hold them. */
  private parseBatch(frame: Frame, items: string, beforeComma: boolean): boolean {
    // Something must stand on each side of a comma: `[1,]` and `[,1]` are no JSON, though `[]` is.
    if ((frame.batched || beforeComma) && WHITESPACE.test(items)) return false;
    frame.batched = true;
    let parsed = JSON.parse(frame.array ? `[${items}]` : `{${items}}`) as Batch;
    if (frame.member !== undefined) this.hooks.onBatch?.(frame.member, parsed);
    // A member of the top-level object (its key is the frame's slot) not split: its batches may be replaced.
    else if (frame.depth === 2 && frame.slot !== undefined && this.hooks.onMemberBatch !== undefined) {
      parsed = this.hooks.onMemberBatch(frame.slot, parsed, frame.value === undefined, this.maxDepth);
    }
    if (frame.value === undefined) frame.value = parsed;
    else if (Array.isArray(frame.value)) for (const item of parsed as unknown[]) frame.value.push(item);
    else for (const key of Object.keys(parsed)) assign(frame.value, key, (parsed as Record<string, unknown>)[key]);
    return true;
  }

  private close(): void {
    const frame = this.stack.pop()!;
    const value = frame.value ?? (frame.array ? [] : {});
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      this.root = value as Record<string, unknown>;
      this.done = true;
      return;
    }
    this.attach(parent, frame.slot, value);
  }

  private attach(parent: Frame, key: string | undefined, value: unknown): void {
    parent.value ??= parent.array ? [] : {};
    if (Array.isArray(parent.value)) parent.value.push(value);
    else assign(parent.value, key!, value);
  }
}

/** A member set as JSON.parse sets it: `__proto__` is an own key like any other. */
function assign(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  for (; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char !== 0x20 && char !== 0x0a && char !== 0x0d && char !== 0x09) break;
  }
  return at;
}

/** Where a scalar that starts at `from` ends: the comma or bracket after it (the window's end when none is there yet). */
function valueEnd(text: string, from: number): number {
  let at = from;
  if (text.charCodeAt(at) === 0x22 /* " */) {
    at = stringEnd(text, at + 1);
    if (at === text.length) return at;
    at++;
  }
  for (; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === 0x2c /* , */ || char === 0x7d /* } */ || char === 0x5d /* ] */) return at;
  }
  return at;
}
