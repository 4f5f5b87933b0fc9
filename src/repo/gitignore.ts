/**
 * A root `.gitignore` as fast-glob ignore patterns. Covers the common forms (names, globs,
 * anchored `/paths`, `dir/`); negations (`!keep`) cannot be expressed as an ignore pattern, so
 * they are returned separately and the caller says so instead of silently scanning less.
 */
export function gitignorePatterns(text: string): { ignore: string[]; unsupported: string[] } {
  const ignore: string[] = [];
  const unsupported: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('!')) {
      unsupported.push(line);
      continue;
    }
    const directoryOnly = line.endsWith('/');
    let pattern = line.replace(/^\\/, '').replace(/\/+$/, '');
    // A slash before the end anchors the pattern at the root; otherwise it matches at any depth.
    const anchored = pattern.includes('/');
    pattern = pattern.replace(/^\//, '');
    const base = anchored ? pattern : `**/${pattern}`;
    ignore.push(`${base}/**`);
    if (!directoryOnly) ignore.push(base);
  }
  return { ignore, unsupported };
}
