/** A file's text with a line index, so every node can say where it came from as `path:line`. */
export interface SourceText {
  /** The path shown in findings (see `displayRoots` in scan.ts). */
  path: string;
  text: string;
  /** 1-based line of an offset into `text`. */
  lineOf(offset: number): number;
}

export function sourceText(path: string, text: string): SourceText {
  // Indexed on the first line asked for: most files a scan reads are never quoted (issue 33).
  let lineStarts: number[] | undefined;
  return {
    path,
    text,
    lineOf(offset) {
      lineStarts ??= lineStartsOf(text);
      // Binary search: the last line start at or before the offset.
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (lineStarts[mid]! <= offset) low = mid;
        else high = mid - 1;
      }
      return low + 1;
    },
  };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * Text decoded out of a string (escapes resolved), such as JSON inside an HCL `"{\"team\": …}"`:
 * offsets no longer map to the file, so every node in it is reported at the string's own line.
 */
export function decodedSourceText(outer: SourceText, text: string, line: number): SourceText {
  return { path: outer.path, text, lineOf: () => line };
}

/** Thrown when a file cannot be read as its format; the scan reports it and goes on. */
export class SourceSyntaxError extends Error {
  override name = 'SourceSyntaxError';
  constructor(
    message: string,
    readonly line: number,
    readonly column?: number,
  ) {
    super(message);
  }
}
