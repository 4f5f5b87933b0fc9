import { terminalSafe } from './terminal-text.js';
import { compareFindings } from './analyze.js';
import { failsGate, policyOf } from './gate.js';
import type { Finding, IncompleteItem, Report } from './model/finding.js';
import type { OrgPlacement } from './report/org-placement.js';
import { splitFileLocation } from './file-location.js';

const CREDENTIALS_HELP = `
  PORT_TOKEN                          an API token for the live org (read-only use)
  PORT_CLIENT_ID, PORT_CLIENT_SECRET  credentials exchanged for a token (used when PORT_TOKEN is unset)
  PORT_REGION                         the org's region, eu or us (as --region; either flag, --region or --api-url, wins)
  PORT_API_URL                        the API's address (as --api-url, https or loopback http; either flag wins)`;

const TERMINAL_HELP = `
  CI, NO_COLOR                        when set, no progress bar is drawn (one line per phase), as with --no-color`;

/** The variables `analyze` (and so the tool as a whole) reads, for the overview's and analyze's --help. */
export const ENVIRONMENT_HELP = `
Environment:${CREDENTIALS_HELP}
  PORT_APP_URL                        the app's address for the report's links (as --app-url, which wins)
  GITHUB_STEP_SUMMARY                 when set, the Markdown summary is appended to it (whatever --format says)
  GITHUB_ACTIONS                      when "true", what could not be read, then the failing findings, are written as annotations
                                      instead of "not read:" and "failing:" lines (::error file=…,line=…::, files first),
                                      at most 10 (all GitHub shows), then a ::notice that counts the rest
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

/** `review` given to --fail-on (a level; `breaks` is one, the shorthand): the verdict has its own option. */
function verdictHint(text: string): string {
  if (!/'--fail-on <level>' argument 'review' is invalid/.test(text)) return '';
  return '; to fail on breaking or to-review items: --fail-on manual --fail-on-verdict review';
}

// A failed gate names what failed, up to this many lines; the rest is a count (the report has them all).
export const FAILING_LISTED = 20;
/** GitHub shows 10 error annotations per step and drops the rest: more would hide the ones that matter. */
export const ANNOTATIONS_SHOWN = 10;

interface FailingLineOptions {
  /** On GitHub Actions: annotations (at most ANNOTATIONS_SHOWN, placed ones first) instead of plain lines. */
  annotate: boolean;
  /** Where org findings sit in a file (a snapshot in the checkout), so they annotate it too. */
  orgPlacement?: OrgPlacement;
  /** The report that lists every finding, named by the closing notice. */
  reportPath?: string;
  /** Annotations left for findings once the unread files have theirs (default ANNOTATIONS_SHOWN). */
  annotationsLeft?: number;
}

/**
 * One stderr line per finding that fails the gate, printed even under --quiet (as ESLint keeps its
 * errors): id, verdict, resource, location and what to write instead. On GitHub Actions each line
 * is an annotation: those with a file first (repository findings, and org findings of a snapshot in
 * the checkout), since only they show on a pull request's diff.
 */
export function failingFindingLines(report: Report, options: FailingLineOptions): string[] {
  const policy = policyOf(report);
  const placed = (finding: Finding) => finding.resource.type === 'file' || options.orgPlacement !== undefined;
  // What breaks first, then the rest, each in report order; annotations put the placed ones before all.
  const urgency = (finding: Finding) => (finding.verdict === 'breaks' ? 0 : 1);
  const placement = (finding: Finding) => (options.annotate && !placed(finding) ? 1 : 0);
  const failing = report.findings
    .filter((finding) => failsGate(finding, policy))
    .sort((a, b) => placement(a) - placement(b) || urgency(a) - urgency(b) || compareFindings(a, b));
  if (options.annotate) {
    const shown = Math.max(0, options.annotationsLeft ?? ANNOTATIONS_SHOWN);
    const lines = failing.slice(0, shown).map((finding) => annotationLine(finding, options.orgPlacement));
    const rest = failing.length - shown;
    if (rest > 0) lines.push(notAnnotatedNotice(rest, 'failing finding is', 'failing findings are', options.reportPath ?? 'report.json'));
    return lines;
  }
  const lines = failing.slice(0, FAILING_LISTED).map((finding) => `failing: ${failingText(finding)}`);
  if (failing.length > FAILING_LISTED) lines.push(`failing: …and ${failing.length - FAILING_LISTED} more (report.json lists them all)`);
  return lines;
}

function failingText(finding: Finding): string {
  const verdict = finding.verdict ?? (finding.kind === 'automatic' ? 'automatic' : 'needs action');
  const resource = finding.resource.type === 'file' ? finding.location : `${finding.resource.type} ${finding.resource.identifier} ${finding.location}`;
  const instead = finding.rewrite !== undefined ? `write instead: ${finding.rewrite}` : finding.suggestion;
  return terminalSafe(`${finding.id} ${verdict} ${resource}: ${instead}`);
}

/** A GitHub workflow command's message: `%`, CR and LF escaped. */
const workflowData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A GitHub workflow command's property value: its message escaping, and `:` and `,`. */
const workflowProperty = (text: string) => workflowData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** A GitHub error annotation: the file and line when there is one, its title, and its message, each escaped. */
function errorAnnotation(title: string, message: string, file?: { path: string; line: number }): string {
  const place = file === undefined ? [] : [`file=${workflowProperty(file.path)}`, ...(file.line > 0 ? [`line=${file.line}`] : [])];
  return `::error ${[...place, `title=${workflowProperty(title)}`].join(',')}::${workflowData(message)}`;
}

/** After the annotations GitHub shows: how many more there are, and the report that lists them all. */
function notAnnotatedNotice(rest: number, one: string, many: string, reportPath: string): string {
  return `::notice title=teams-migration-audit::${rest} more ${rest === 1 ? one : many} not annotated (GitHub shows ${ANNOTATIONS_SHOWN} error annotations per step): ${workflowData(reportPath)} lists them all`;
}

/** A failing finding's annotation, in its file where it has one (a repository file, or the snapshot in the checkout). */
function annotationLine(finding: Finding, orgPlacement: OrgPlacement | undefined): string {
  const file = finding.resource.type === 'file' ? splitFileLocation(finding.location) : orgPlacement && { path: orgPlacement.uri, line: Math.max(1, orgPlacement.lineOf(finding)) };
  return errorAnnotation(`teams-migration-audit ${finding.category}`, failingText(finding), file);
}

/**
 * On GitHub Actions, what could not be read is annotated as a failure is, and before any failing
 * finding: it is why the gate gave no verdict (exit 3). A repository file gets `file=` (and its line
 * when the reading stopped at one), so it shows on the pull request's diff. Accepted ones are not
 * annotated: they no longer hold the gate. Within GitHub's cap; a notice counts the rest.
 */
export function incompleteAnnotations(incomplete: readonly IncompleteItem[], reportPath: string): string[] {
  const open = incomplete.filter((item) => item.accepted === undefined);
  const lines = open.slice(0, ANNOTATIONS_SHOWN).map(annotation);
  const rest = open.length - ANNOTATIONS_SHOWN;
  if (rest > 0) lines.push(notAnnotatedNotice(rest, 'item that could not be read is', 'items that could not be read are', reportPath));
  return lines;
}

/** Unreadable repository files carry an id (gate-run.ts); their resource is `path` or `path:line`. */
function annotation(item: IncompleteItem): string {
  return errorAnnotation('teams-migration-audit: not read, no gate verdict', terminalSafe(`not read: ${item.resource}: ${item.reason}`), item.id === undefined ? undefined : splitFileLocation(item.resource));
}

/** `snapshot --strict`: there is no report; the snapshot is written and each odd value named on stderr. */
export const SNAPSHOT_STRICT_HELP =
  'stop (exit 2) at the first value of an unexpected shape; without it the snapshot is written and each such value is named in a note: line on stderr';
