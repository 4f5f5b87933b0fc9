/**
 * A root `.gitignore` as fast-glob ignore patterns. Covers the common forms (names, globs,
 * anchored `/paths`, `dir/`); negations (`!keep`) cannot be expressed as an ignore pattern, so
 * they are returned separately and the caller says so instead of silently scanning less.
 */
export function gitignorePatterns(text: string): { ignore: string[]; unsupported: string[] } {
  const ignore: string[] = [];
  const unsupported: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = withoutTrailingSpace(raw);
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('!')) {
      unsupported.push(line);
      continue;
    }
    const directoryOnly = line.endsWith('/');
    let pattern = withoutTrailing(line.replace(/^\\/, ''), '/');
    // A slash before the end anchors the pattern at the root; otherwise it matches at any depth.
    const anchored = pattern.includes('/');
    pattern = pattern.replace(/^\//, '');
    const base = anchored ? pattern : `**/${pattern}`;
    ignore.push(`${base}/**`);
    if (!directoryOnly) ignore.push(base);
  }
  return { ignore, unsupported };
}

// Trimmed by hand: `\s+$` and `\/+$` retry from every character of a long run (quadratic on one line).

/** Trailing whitespace goes, except one space escaped with a backslash (`name\ `), as git reads it. */
function withoutTrailingSpace(line: string): string {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1]!)) end--;
  if (end < line.length && end > 0 && line[end - 1] === '\\') end++;
  return line.slice(0, end);
}

function withoutTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/**
 * The patterns of a `.gitignore` in a subfolder (`dir`, relative to the scanned root, forward
 * slashes), as fast-glob ignore patterns for the root: git applies them below their own folder.
 */
export function nestedGitignorePatterns(dir: string, text: string): { ignore: string[]; unsupported: string[] } {
  const { ignore, unsupported } = gitignorePatterns(text);
  return { ignore: ignore.map((pattern) => `${dir}/${pattern}`), unsupported };
}

/** `--ignore PATTERN` (repeatable): gitignore lines applied at the root of every scanned checkout. */
export function cliIgnorePatterns(patterns: readonly string[]): { ignore: string[]; unsupported: string[] } {
  return gitignorePatterns(patterns.join('\n'));
}

/** Every `.gitignore` below the root among the listed paths, read with `read`, as ignore patterns for the root. */
export async function nestedIgnores(paths: readonly string[], read: (file: string) => Promise<string | undefined>): Promise<{ ignore: string[]; notes: string[] }> {
  const ignore: string[] = [];
  const notes: string[] = [];
  for (const file of paths.filter((path) => path.endsWith('/.gitignore')).sort()) {
    const text = await read(file);
    if (text === undefined) continue;
    const patterns = nestedGitignorePatterns(file.slice(0, -'/.gitignore'.length), text);
    ignore.push(...patterns.ignore);
    for (const line of patterns.unsupported) notes.push(`${file}: negated pattern "${line}" is not supported; files it re-includes were not scanned`);
  }
  return { ignore, notes };
}
