import ignore from 'ignore';

type Ignore = ignore.Ignore;

/**
 * Ignore rules as git reads them, matched by the `ignore` package (git's own rules: negations,
 * anchoring, `**`, and `{a,b}` taken literally, as git does; never handed to a glob expander).
 * Only used outside a git checkout: in one, git itself says which files it ignores (file-set.ts).
 */

/** Larger ignore files are not read: a real one is a few kilobytes, and each pattern is a match per path. */
export const IGNORE_FILE_MAX_BYTES = 32 * 1024;
/** More patterns than this in one ignore file: not applied (every path is matched against each one). */
const IGNORE_FILE_MAX_PATTERNS = 500;
/** A longer line is no path pattern anyone writes; matching cost grows with it (and at 60,000 its regular expression cannot be built). */
const MAX_PATTERN_CHARS = 1_024;

/** The tool's own leave-outs (dependencies, VCS data, caches, vendored and generated code), as ignore lines. */
export const DEFAULT_IGNORE_LINES = ['node_modules/', '.git/', '.terraform/', 'vendor/', 'third_party/', 'dist/', 'build/', 'generated/', '__generated__/', '.venv/', 'venv/', '__pycache__/', '*.min.js', 'package-lock.json'];

/** The rules of one ignore file's text, or why they are not applied (said without quoting the file). */
export function ignoreFileRules(text: string): Ignore | { refused: string } {
  if (text.length > IGNORE_FILE_MAX_BYTES) return { refused: `over ${IGNORE_FILE_MAX_BYTES / 1024} KB` };
  const lines = text.split(/\r?\n/);
  const patterns = lines.filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (patterns.length > IGNORE_FILE_MAX_PATTERNS) return { refused: `more than ${IGNORE_FILE_MAX_PATTERNS} patterns` };
  if (patterns.some((line) => line.length > MAX_PATTERN_CHARS)) return { refused: `a line longer than ${MAX_PATTERN_CHARS} characters` };
  return compiled(rules().add(lines)) ?? { refused: 'a pattern that cannot be matched' };
}

/** The rules, once each has been turned into its regular expression (done on the first match), or none if one cannot be. */
function compiled(made: Ignore): Ignore | undefined {
  try {
    made.ignores('x');
    return made;
  } catch {
    return undefined;
  }
}

/** The tool's own leave-outs as rules: in a git checkout they apply to untracked files only (file-set.ts). */
export const leaveOutRules = (): Ignore => rules().add(DEFAULT_IGNORE_LINES);

/**
 * `--ignore PATTERN` (repeatable), applied to every checkout, in git or not, tracked files too: it is
 * the word of whoever runs the tool. A negated pattern leaves nothing out, so it is refused (the
 * error names the user's own words).
 */
export function policyRules(patterns: readonly string[]): Ignore | { negated: string } | { invalid: string; why: string } {
  const negated = patterns.find((pattern) => pattern.startsWith('!'));
  if (negated !== undefined) return { negated };
  const long = patterns.find((pattern) => pattern.length > MAX_PATTERN_CHARS);
  if (long !== undefined) return { invalid: long.slice(0, 80), why: `longer than ${MAX_PATTERN_CHARS} characters` };
  return compiled(rules().add([...patterns])) ?? { invalid: patterns.join(' '), why: 'not a pattern git could match' };
}

/** Case matters, as in git on a case-sensitive file system: ignoring less never hides a file. */
const rules = (): Ignore => ignore({ ignorecase: false });

/** One folder's ignore rules: `base` is the folder relative to the scanned root ('' at the root). */
export interface ScopedRules {
  base: string;
  rules: ignore.Ignore;
}

/**
 * Whether a path (relative to the root, forward slashes) is ignored by the ignore files above it:
 * each applies below its own folder, and a deeper file's verdict overrides a higher one's, as in git.
 */
export function ignoredByFiles(scopes: readonly ScopedRules[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of scopes) {
    if (base !== '' && !path.startsWith(`${base}/`)) continue; // applies below its own folder only
    const inside = base === '' ? path : path.slice(base.length + 1);
    const verdict = rules.test(isDir ? `${inside}/` : inside);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
