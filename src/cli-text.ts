import { terminalSafe } from './terminal-text.js';
import type { IncompleteItem } from './model/finding.js';

/** The variables the tool reads, for every command's --help. */
export const ENVIRONMENT_HELP = `
Environment:
  PORT_TOKEN                          an API token for the live org (read-only use)
  PORT_CLIENT_ID, PORT_CLIENT_SECRET  credentials exchanged for a token (used when PORT_TOKEN is unset)
  GITHUB_STEP_SUMMARY                 when set, the Markdown summary (--format md) is appended to it
  SOURCE_DATE_EPOCH                   seconds since 1970: the run time shown in the report, for reproducible files`;

export const SNAPSHOT_EXAMPLES = `
Examples:
  $ PORT_CLIENT_ID=… PORT_CLIENT_SECRET=… teams-migration-audit snapshot --region eu --out org.json
  $ teams-migration-audit snapshot old-org.json --out org.json   # rewrite a snapshot in stable order
  $ teams-migration-audit analyze --snapshot org.json            # then analyze it offline, as often as needed`;

// More than this many unreadable resources are counted, not listed: the report has them all.
const INCOMPLETE_LISTED = 10;

/** One stderr line per unreadable resource (up to ten, then a count), so a CI log names what is missing. */
export function incompleteLines(incomplete: readonly IncompleteItem[]): string[] {
  const lines = incomplete.slice(0, INCOMPLETE_LISTED).map((item) => `not read: ${item.resource}: ${item.reason}`);
  if (incomplete.length > INCOMPLETE_LISTED) lines.push(`not read: …and ${incomplete.length - INCOMPLETE_LISTED} more (see report.json "incomplete")`);
  return lines;
}

/**
 * Commander's "error: unknown option '--x'" as the tool's own one-line error, with where to look
 * next. The option text is the user's, so control characters are escaped like any terminal output.
 */
export function parserErrorLine(message: string): string {
  const text = message.trim().replace(/^error:\s*/, '');
  return `teams-migration-audit: ${terminalSafe(text)} (see --help)\n`;
}
