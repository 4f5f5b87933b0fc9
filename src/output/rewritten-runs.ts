/**
 * Pieces gathered into runs of about 32 KB, each passed through `rewrite` (an escape, a redaction):
 * one regular expression per run instead of one per finding, and never over the whole text.
 */
export function* rewrittenRuns(pieces: Iterable<string>, rewrite: (text: string) => string): Generator<string> {
  let run = '';
  for (const piece of pieces) {
    run += piece;
    if (run.length < RUN_CHARS) continue;
    yield rewrite(run);
    run = '';
  }
  if (run !== '') yield rewrite(run);
}

// Under V8's large-object size even as two-byte text: a larger string would stay until a full collection.
const RUN_CHARS = 32_768;
