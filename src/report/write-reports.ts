import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { openOutputSet, writeFailure, type OutputSet } from '../output/output-set.js';
import { StreamedContent } from '../output/staged-digest.js';
import { REPORT_FILES } from '../output/own-outputs.js';
import { repositoryPath } from '../gate-run.js';
import type { Report } from '../model/finding.js';
import { htmlPieces } from './html.js';
import { jsonReportPieces } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown, type MarkdownMeta } from './markdown.js';
import { credentialsFromEnv, redactCredentials } from '../secrets/credentials.js';
import { redactionNote, RedactionTally, redactTokenShapesDeep } from '../secrets/token-shapes.js';
import { renderSarif, type SarifMeta } from './sarif.js';
import type { RenderMeta } from './view-model.js';

export const FORMATS = ['html', 'json', 'sarif', 'junit', 'md'] as const;
export type Format = (typeof FORMATS)[number];

/** `--out -`: the one report asked for goes to stdout, and nothing is written to disk. */
export const STDOUT = '-';

/** The formats a pipe can take: one document each, read by another program. */
const MACHINE_FORMATS: readonly Format[] = ['json', 'sarif', 'junit', 'md'];

/** `--format html,json,sarif`: known names only, duplicates folded, written in FORMATS order. */
export function parseFormats(list: string): Format[] {
  // Case-insensitive: `--format SARIF` and `--format sarif` mean the same.
  const asked = list.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean);
  for (const format of asked) {
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`unknown format "${format}" in --format; choose from ${FORMATS.join(', ')}`);
    }
  }
  if (asked.length === 0) throw new UsageError(`--format is empty; choose from ${FORMATS.join(', ')}`);
  return FORMATS.filter((format) => asked.includes(format));
}

interface ReportMeta {
  html: RenderMeta;
  sarif: SarifMeta;
  md?: MarkdownMeta;
}

/**
 * One format's text as it is written: the page and report.json piece by piece (issue 41: at 130,000
 * findings each was over 100 MB as one string, with copies), the others whole. Joined, the pieces
 * are what `renderHtml` and `renderJson` give.
 */
function renderPieces(report: Report, format: Format, meta: ReportMeta): Iterable<string> {
  switch (format) {
    case 'html':
      return htmlPieces(report, meta.html);
    case 'json':
      return jsonReportPieces(report);
    case 'sarif':
      return [renderSarif(report, meta.sarif)];
    case 'junit':
      return [renderJunit(report)];
    case 'md':
      return [renderMarkdown(report, meta.md)];
  }
}

/**
 * Write the reports into `out` as one set with whatever else the run staged in `outputs` (the fix
 * kit, a baseline): all are renamed into place together once all are written whole, and a report
 * file of an earlier run that this run does not write is removed, so `out` never mixes two runs.
 * Then append the Markdown summary to the GitHub step summary when the runner provides one, whatever
 * `formats` says (docs/ci.md). Returns the paths written, for the log line.
 */
export async function writeReports(
  report: Report,
  options: {
    out: string;
    formats: readonly Format[];
    meta: ReportMeta;
    env: Readonly<Record<string, string | undefined>>;
    /** The run's credentials beyond the environment's (a config file's pair, an exchanged token). */
    credentials?: readonly string[];
    /** The run's output set, when the CLI opened one to stage other files in; else one of its own. */
    outputs?: OutputSet;
    /** Where `--out -` writes its one report. */
    stdout?: (text: string) => void;
  },
): Promise<string[]> {
  // No report file ever holds the run's credentials, whatever text (a server's error echoing the
  // request, a pasted URL) carried them in.
  const credentials = [...credentialsFromEnv(options.env), ...(options.credentials ?? [])];
  // Rendered first, outside the try: a renderer bug is ours, not a file-system problem of the user's.
  const md = { ...savedReportMeta(options.out, options.formats, options.env), ...options.meta.md };
  // And no known token shape (a GitHub token, a Slack webhook) reached by any path the org's redaction did not see.
  const tally = new RedactionTally();
  const clean = redactTokenShapesDeep(redactCredentials(report, credentials), tally);
  const note = redactionNote(tally, 'in the report');
  const redacted = note === undefined ? clean : { ...clean, notes: [...(clean.notes ?? []), note] };
  const meta = redactTokenShapesDeep(redactCredentials({ ...options.meta, md }, credentials));
  // Each file made as it is written, one after another: never two big reports in memory at once.
  const files = options.formats.map((format) => ({ format, name: REPORT_FILES[format], pieces: renderPieces(redacted, format, meta) }));
  let written: string[];
  if (options.out === STDOUT) {
    // The CLI allowed one machine format here (refuseStdoutMisuse): it is the whole of stdout.
    for (const file of files) for (const piece of file.pieces) options.stdout?.(piece);
    written = files.map((file) => `${file.name} to stdout`);
  } else {
    const outputs = options.outputs ?? (await openOutputSet(options.out));
    try {
      for (const file of files) await outputs.stageFile(join(options.out, file.name), new StreamedContent(() => file.pieces));
      const stale = FORMATS.filter((format) => !options.formats.includes(format)).map((format) => join(options.out, REPORT_FILES[format]));
      await outputs.commit(stale);
    } finally {
      if (!options.outputs) await outputs.close();
    }
    written = files.map((file) => join(options.out, file.name));
  }
  const stepSummary = options.env.GITHUB_STEP_SUMMARY;
  if (stepSummary) {
    // Made from the same redacted report as summary.md: a file's name is no input the reading redacted.
    const summary = files.find((file) => file.format === 'md')?.pieces ?? renderPieces(redacted, 'md', meta);
    try {
      await appendFile(stepSummary, [...summary].join(''));
      written.push(stepSummary);
    } catch (error) {
      throw new InputError(`wrote ${written.join(', ')}; cannot append to the step summary ${stepSummary} (${writeFailure(error)})`, { cause: error });
    }
  }
  return written;
}

/** The summary names the saved report (HTML first) and, on GitHub Actions, the run that holds it as an artifact. */
function savedReportMeta(out: string, formats: readonly Format[], env: Readonly<Record<string, string | undefined>>): MarkdownMeta {
  // On stdout nothing is saved: the reader has the report in hand.
  const saved = out === STDOUT ? undefined : formats.find((format) => format === 'html' || format === 'json');
  const meta: MarkdownMeta = {};
  // As given when relative (the checkout, in CI); an absolute path names the runner's disk, so only the file name.
  if (saved) meta.reportPath = repositoryPath(join(out, REPORT_FILES[saved])) ?? REPORT_FILES[saved];
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  if (server && repository && run) meta.runUrl = `${server}/${repository}/actions/runs/${run}`;
  // The action names the artifact it uploads the reports in (action/run-audit.sh).
  if (env.TMA_ARTIFACT_NAME) meta.artifactName = env.TMA_ARTIFACT_NAME;
  return meta;
}

/**
 * `--out -` is for a pipe: one machine format, and nothing else that would write files beside a
 * report folder that does not exist. Refused in one line before anything is read.
 */
export function refuseStdoutMisuse(formats: readonly Format[], flags: { writeBaseline?: string; fixOut?: string; fix?: boolean }): void {
  if (formats.length !== 1 || !MACHINE_FORMATS.includes(formats[0]!)) {
    throw new UsageError(`--out - writes one machine format to stdout: give --format json, sarif, junit or md (got ${formats.join(',')}); the HTML page needs --out DIR`);
  }
  const writer = flags.writeBaseline !== undefined ? '--write-baseline' : flags.fixOut !== undefined ? '--fix-out' : flags.fix ? '--fix' : undefined;
  if (writer !== undefined) throw new UsageError(`--out - writes only the report, to stdout; ${writer} writes files beside it: give --out DIR`);
}

/**
 * The run's time for formats that show one (the HTML report). `SOURCE_DATE_EPOCH` (seconds since
 * 1970, reproducible-builds.org) wins over the clock, so a rebuilt report is byte-identical.
 */
export function runTimestamp(env: Readonly<Record<string, string | undefined>>, now: () => Date): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return now().toISOString();
  if (!/^\d+$/.test(epoch)) throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, found "${epoch}"`);
  return new Date(Number(epoch) * 1000).toISOString();
}
