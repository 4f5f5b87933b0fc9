import { terminalSafe } from './terminal-text.js';
import { compareFindings } from './analyze.js';
import { failsGate, policyOf } from './gate.js';
import type { Finding, IncompleteItem, Report } from './model/finding.js';
import { splitFileLocation } from './report/view-model.js';

const CREDENTIALS_HELP = `
  PORT_TOKEN                          an API token for the live org (read-only use)
  PORT_CLIENT_ID, PORT_CLIENT_SECRET  credentials exchanged for a token (used when PORT_TOKEN is unset)`;

const TERMINAL_HELP = `
  CI, NO_COLOR                        when set, no progress bar is drawn (one line per phase), as with --no-color`;

/** The variables `analyze` (and so the tool as a whole) reads, for the overview's and analyze's --help. */
export const ENVIRONMENT_HELP = `
Environment:${CREDENTIALS_HELP}
  GITHUB_STEP_SUMMARY                 when set, the Markdown summary is appended to it (whatever --format says)
  GITHUB_ACTIONS                      when "true", failing findings are also written as annotations (::error file=…,line=…::)
  SOURCE_DATE_EPOCH                   seconds since 1970: the run time shown in the report, for reproducible files${TERMINAL_HELP}`;

/** The overview's first steps: the demo needs nothing but the installed tool. */
export const OVERVIEW_EXAMPLES = `
Examples:
  $ teams-migration-audit analyze --demo   # the bundled demo org: open output/index.html
  $ PORT_CLIENT_ID=… PORT_CLIENT_SECRET=… teams-migration-audit analyze --region eu   # your live org, read only
  $ teams-migration-audit snapshot --region eu --out org.json   # record the org once, analyze it offline
  $ teams-migration-audit analyze --help   # every option of a command`;

export const SNAPSHOT_EXAMPLES = `
Examples:
  $ PORT_CLIENT_ID=… PORT_CLIENT_SECRET=… teams-migration-audit snapshot --region eu --out org.json
  $ teams-migration-audit snapshot old-org.json --out org.json   # rewrite a snapshot in stable order
  $ teams-migration-audit analyze --snapshot org.json            # then analyze it offline, as often as needed

Exit codes:
  0  the snapshot is written, with everything read
  2  usage, configuration, authentication or input error (one line on stderr); nothing is written
  3  the snapshot is written, but something could not be read (its "incomplete" lists what)

Environment:${CREDENTIALS_HELP}
  SOURCE_DATE_EPOCH                   seconds since 1970: the recording time written in the snapshot${TERMINAL_HELP}`;

// More than this many unreadable resources are counted, not listed: the report has them all.
const INCOMPLETE_LISTED = 10;

/** One stderr line per unreadable resource (up to ten, then a count), so a CI log names what is missing. */
export function incompleteLines(incomplete: readonly IncompleteItem[]): string[] {
  const lines = incomplete.slice(0, INCOMPLETE_LISTED).map((item) =>
    item.accepted
      ? `not read (accepted in the baseline, id ${item.id}): ${item.resource}: ${item.reason}`
      : `not read: ${item.resource}: ${item.reason}${item.id ? ` (id ${item.id}: accept it in the baseline to let the gate pass without it)` : ''}`,
  );
  if (incomplete.length > INCOMPLETE_LISTED) lines.push(`not read: …and ${incomplete.length - INCOMPLETE_LISTED} more (see report.json "incomplete")`);
  return lines;
}

/**
 * Commander's "error: unknown option '--x'" as the tool's own one-line error, with where to look
 * next. The option text is the user's, so control characters are escaped like any terminal output.
 */
export function parserErrorLine(message: string): string {
  // Commander puts "(Did you mean --snapshot?)" on a line of its own: one line, one error.
  const text = message.trim().replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
  const hint = verdictHint(text);
  // The hint continues the sentence: commander's closing full stop gives way to it.
  return `teams-migration-audit: ${terminalSafe(hint ? text.replace(/\.$/, '') : text)}${hint} (see --help)\n`;
}

/** A verdict given to --fail-on (a level): the verdict has its own option. */
function verdictHint(text: string): string {
  const verdict = /'--fail-on <level>' argument '(breaks|review)' is invalid/.exec(text)?.[1];
  if (verdict === undefined) return '';
  return `; to fail on ${verdict === 'breaks' ? 'breaking' : 'breaking or to-review'} items: --fail-on manual --fail-on-verdict ${verdict}`;
}

// A failed gate names what failed, up to this many lines; the rest is a count (the report has them all).
export const FAILING_LISTED = 20;

/**
 * One stderr line per finding that fails the gate, printed even under --quiet (as ESLint keeps its
 * errors): id, verdict, resource, location and what to write instead. On GitHub Actions each line
 * is an annotation, on the file and line for repository findings.
 */
export function failingFindingLines(report: Report, options: { annotate: boolean; limit?: number }): string[] {
  const policy = policyOf(report);
  // What breaks first, then the rest, each in report order.
  const urgency = (finding: Finding) => (finding.verdict === 'breaks' ? 0 : 1);
  const failing = report.findings.filter((finding) => failsGate(finding, policy)).sort((a, b) => urgency(a) - urgency(b) || compareFindings(a, b));
  const limit = options.limit ?? FAILING_LISTED;
  const lines = failing.slice(0, limit).map((finding) => (options.annotate ? annotationLine(finding) : `failing: ${failingText(finding)}`));
  if (failing.length > limit) lines.push(`failing: …and ${failing.length - limit} more (report.json lists them all)`);
  return lines;
}

function failingText(finding: Finding): string {
  const verdict = finding.verdict ?? (finding.kind === 'automatic' ? 'automatic' : 'no verdict');
  const resource = finding.resource.type === 'file' ? finding.location : `${finding.resource.type} ${finding.resource.identifier} ${finding.location}`;
  const instead = finding.rewrite !== undefined ? `write instead: ${finding.rewrite}` : finding.suggestion;
  return terminalSafe(`${finding.id} ${verdict} ${resource}: ${instead}`);
}

/** A GitHub workflow command: `%`, CR and LF escaped in the message, `:` and `,` too in properties. */
function annotationLine(finding: Finding): string {
  const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const properties = [`title=${property(`teams-migration-audit ${finding.category}`)}`];
  if (finding.resource.type === 'file') {
    const { path, line } = splitFileLocation(finding.location);
    properties.unshift(`file=${property(path)}`, ...(line > 0 ? [`line=${line}`] : []));
  }
  return `::error ${properties.join(',')}::${data(failingText(finding))}`;
}
