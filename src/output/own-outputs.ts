/**
 * The names this tool writes directly in `--out`, and nothing else: a commit journal found there
 * may name only these (src/output/commit-journal.ts), so a journal planted in a checkout cannot
 * reach any other file.
 */
export const REPORT_FILES = {
  html: 'index.html',
  json: 'report.json',
  sarif: 'report.sarif',
  junit: 'report.junit.xml',
  md: 'summary.md',
} as const;

/** The fix kit's folder in `--out` when no `--fix-out` is given. */
export const KIT_DIR = 'fixes';

/** Each name this tool puts directly in `--out`, with what it is there. */
export const OWN_OUTPUTS: ReadonlyMap<string, 'file' | 'dir'> = new Map([...Object.values(REPORT_FILES).map((name) => [name, 'file'] as const), [KIT_DIR, 'dir'] as const]);

/** The report files: the only names a journal may remove (a format not asked for again). */
export const isReportFile = (name: string): boolean => OWN_OUTPUTS.get(name) === 'file';
