import { sourceText } from '../repo/source-text.js';

/** A text edit: replace [start, end) of the old text with `text`. Edits of one file never overlap. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Lines with their terminators, so a file's own line endings (and a missing last newline) survive. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The text with every edit applied. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

interface Change {
  /** First old line (0-based) and how many old lines the change replaces. */
  oldStart: number;
  oldCount: number;
  newLines: string[];
}

/** Edits as whole-line changes: the lines an edit touches, rewritten; edits on shared lines are one change. */
function lineChanges(text: string, edits: readonly TextEdit[]): Change[] {
  const lines = splitLines(text);
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length;
  }
  // 0-based, within the lines: an offset at the very end belongs to the last line.
  const index = sourceText('', text);
  const lineOf = (position: number): number => Math.max(0, Math.min(lines.length - 1, index.lineOf(position) - 1));
  const ranges = [...edits]
    .sort((a, b) => a.start - b.start)
    .map((edit) => ({ edit, first: lineOf(edit.start), last: lineOf(Math.max(edit.start, edit.end - 1)) }));
  const changes: Change[] = [];
  let group: typeof ranges = [];
  const flush = () => {
    if (group.length === 0) return;
    const first = group[0]!.first;
    const last = Math.max(...group.map((r) => r.last));
    const blockStart = starts[first] ?? 0;
    const blockEnd = last + 1 < lines.length ? starts[last + 1]! : text.length;
    const block = text.slice(blockStart, blockEnd);
    const rewritten = applyEdits(block, group.map((r) => ({ start: r.edit.start - blockStart, end: r.edit.end - blockStart, text: r.edit.text })));
    changes.push({ oldStart: first, oldCount: last - first + 1, newLines: splitLines(rewritten) });
    group = [];
  };
  for (const range of ranges) {
    const previousLast = group.length > 0 ? Math.max(...group.map((r) => r.last)) : -2;
    if (group.length > 0 && range.first > previousLast) flush();
    group.push(range);
  }
  flush();
  return changes;
}

const CONTEXT = 3;

/** One file's section of a unified diff (`git apply` reads it), or '' when nothing changes. */
export function unifiedDiff(path: string, text: string, edits: readonly TextEdit[]): string {
  const lines = splitLines(text);
  const changes = lineChanges(text, edits).filter((change) => lines.slice(change.oldStart, change.oldStart + change.oldCount).join('') !== change.newLines.join(''));
  if (changes.length === 0) return '';
  const [a, b] = [gitQuotedPath(`a/${path}`), gitQuotedPath(`b/${path}`)];
  const out: string[] = [`diff --git ${a} ${b}\n`, `--- ${a}\n`, `+++ ${b}\n`];
  const emit = (prefix: string, line: string) => out.push(line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n\\ No newline at end of file\n`);
  let delta = 0;
  for (let i = 0; i < changes.length; ) {
    // Changes whose context would touch are one hunk.
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.oldStart - (changes[j]!.oldStart + changes[j]!.oldCount) <= 2 * CONTEXT) j++;
    const from = Math.max(0, changes[i]!.oldStart - CONTEXT);
    const lastChange = changes[j]!;
    const to = Math.min(lines.length, lastChange.oldStart + lastChange.oldCount + CONTEXT);
    const body: [string, string][] = [];
    let at = from;
    let newCount = 0;
    for (let k = i; k <= j; k++) {
      const change = changes[k]!;
      for (; at < change.oldStart; at++) body.push([' ', lines[at]!]);
      for (let n = 0; n < change.oldCount; n++) body.push(['-', lines[change.oldStart + n]!]);
      for (const line of change.newLines) body.push(['+', line]);
      at = change.oldStart + change.oldCount;
      newCount += change.newLines.length - change.oldCount;
    }
    for (; at < to; at++) body.push([' ', lines[at]!]);
    const oldCount = to - from;
    const newStart = from + 1 + delta;
    out.push(`@@ -${oldCount === 0 ? from : from + 1},${oldCount} +${oldCount + newCount === 0 ? newStart - 1 : newStart},${oldCount + newCount} @@\n`);
    for (const [prefix, line] of body) emit(prefix, line);
    delta += newCount;
    i = j + 1;
  }
  return out.join('');
}

const C_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

/**
 * A path as git writes it in a patch header: as is when plain, else in double quotes with C escapes
 * and every byte outside printable ASCII in octal (core.quotePath). A tab or a newline written raw
 * made `git apply` reject the whole patch; quoted, the header is ASCII whatever the file's encoding.
 */
export function gitQuotedPath(path: string): string {
  let quoted = '';
  let needed = false;
  for (const byte of Buffer.from(path, 'utf8')) {
    const escape = C_ESCAPES[byte];
    if (escape !== undefined || byte < 0x20 || byte >= 0x7f) needed = true;
    quoted += escape ?? (byte < 0x20 || byte >= 0x7f ? `\\${byte.toString(8).padStart(3, '0')}` : String.fromCharCode(byte));
  }
  return needed ? `"${quoted}"` : path;
}
