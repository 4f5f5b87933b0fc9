import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { InputError, UsageError } from '../errors.js';
import { exitCodeFor, EXIT } from '../gate.js';
import type { GateFlags } from '../gate-run.js';
import type { FixFlags } from '../fix/fix-run.js';
import { readJsonInput } from '../json-input.js';
import { isObject } from '../model/json.js';
import type { Report } from '../model/finding.js';
import { ensureWritableDir, refuseOutputsNamingInputs } from '../output/output-path.js';
import { plural } from '../plural.js';
import { validatePreviousReport } from '../progress/read-previous-report.js';
import { FORMATS, parseFormats, runTimestamp, writeReports } from '../report/write-reports.js';
import { REPORT_FILES } from '../output/own-outputs.js';
import type { SourceIo } from '../sources/resolve-source.js';
import { VERSION } from '../version.js';
import { mergeReports } from './merge-reports.js';

export interface MergeFlags {
  out: string;
  format: string;
}

export type MergeIo = Pick<SourceIo, 'stderr' | 'env' | 'now'>;

/** `teams-migration-audit merge --out DIR REPORT.json...`: the options, kept here so the CLI wires them in one line. */
export function addMergeCommand(program: Command, run: (reports: string[], flags: MergeFlags) => Promise<void>): void {
  program
    .command('merge')
    .description('Combine the report.json of several orgs, each written by its own run (one CI job per org), into one report: each org, and what only the orgs side by side show.')
    .argument('<reports...>', 'report.json files written by analyze, one per org')
    .requiredOption('--out <dir>', 'where to write the combined reports')
    .option('--format <list>', `comma-separated output formats: ${FORMATS.join(',')}`, 'html,json,md')
    .action(run);
}

/** Read a report.json for merging: one line (exit 2) for a file that is not one. */
async function readReport(path: string): Promise<Report> {
  const document = await readJsonInput(path, 'report to merge', { htmlHint: ' (give the report.json beside it)' });
  validatePreviousReport(document, path);
  if (isObject(document) && Array.isArray(document.orgs)) throw new InputError(`${path}: it is a merged report already; merge the reports of each org`);
  return document as unknown as Report;
}

/** Merge the reports and write the combined set; the exit code is the combined gate's. */
export async function runMerge(paths: readonly string[], flags: MergeFlags, io: MergeIo): Promise<number> {
  if (paths.length < 2) throw new UsageError('merge combines the reports of several orgs: give two report.json files or more');
  const formats = parseFormats(flags.format);
  if (formats.includes('sarif') || formats.includes('junit')) throw new UsageError('merge writes html, json and md; SARIF and JUnit stay per org (each job uploads its own)');
  const generatedAt = runTimestamp(io.env, io.now);
  await refuseOutputsNamingInputs(
    paths.map((path) => ({ flag: 'merge', path })),
    { files: [{ flag: '--out', path: flags.out }, ...FORMATS.map((format) => ({ flag: '--out', path: join(flags.out, REPORT_FILES[format]) }))], dirs: [] },
    [],
  );
  const reports: Report[] = [];
  for (const path of paths) reports.push(await readReport(path));
  const merged = mergeReports(reports);
  await ensureWritableDir(flags.out, '--out');
  const written = await writeReports(merged, { out: flags.out, formats, meta: { html: { generatedAt, source: `the reports of ${plural(reports.length, 'org')}` }, sarif: { toolVersion: VERSION } }, env: io.env });
  const code = merged.gate ? exitCodeFor(merged.gate) : EXIT.pass;
  const cross = merged.crossOrg ?? [];
  io.stderr(
    `${merged.organization.name}: ${plural(merged.summary.automatic, 'automatic change', 'automatic changes')}, ${plural(merged.summary.manual, 'manual item', 'manual items')}, ` +
      `${plural(cross.length, 'cross-org check', 'cross-org checks')} found something; ${code === EXIT.pass ? 'gate passed' : code === EXIT.incomplete ? 'INCOMPLETE' : `gate FAILED: ${plural(merged.gate?.failing ?? 0, 'finding', 'findings')}`}\n` +
      `wrote ${written.join(', ')}\n`,
  );
  return code;
}

/**
 * `analyze A.json B.json C.json --out DIR`: each org analysed as its own run would analyse it, into
 * `DIR/orgs/<n>-<file name>` (its reports and fix kit), then those reports merged into DIR. So one
 * run over several orgs and `merge` over their separate runs give the same report.
 */
export async function runSeveralOrgs<F extends { snapshot?: string; out: string; format: string; demo?: boolean }>(
  snapshots: readonly string[],
  flags: F,
  analyzeOne: (flags: F) => Promise<number>,
  io: MergeIo,
): Promise<number> {
  if (flags.snapshot !== undefined || flags.demo) throw new UsageError('several snapshots are given as files (analyze A.json B.json); leave out --snapshot and --demo');
  return analyzeEachThenMerge(snapshots.map((snapshot) => ({ name: basename(snapshot).replace(/\.json$/i, ''), flags: { snapshot } as Partial<F> })), flags, analyzeOne, io);
}

/**
 * Each org analysed as a run of its own would be, with `flags` and its own, into
 * `<out>/orgs/<n>-<name>`, then their reports merged into --out. A usage error (exit 2) stops there.
 */
export async function analyzeEachThenMerge<F extends MergeFlags & OneFilePerRunFlags>(
  orgs: ReadonlyArray<{ name: string; flags: Partial<F> }>,
  flags: F,
  analyzeOne: (flags: F) => Promise<number>,
  io: MergeIo,
): Promise<number> {
  if (flags.out === '-') throw new UsageError('several orgs need --out DIR: each org\'s reports go to DIR/orgs, the combined ones to DIR');
  refuseOneFilePerRun(flags);
  const reports: string[] = [];
  for (const [index, org] of orgs.entries()) {
    const out = join(flags.out, 'orgs', `${index + 1}-${org.name.replace(/[^A-Za-z0-9._-]/g, '_')}`);
    const code = await analyzeOne({ ...flags, ...org.flags, out, format: withJson(flags.format) });
    if (code === EXIT.usage) return code;
    reports.push(join(out, REPORT_FILES.json));
  }
  return runMerge(reports, { out: flags.out, format: flags.format.split(',').filter((format) => format === 'html' || format === 'json' || format === 'md').join(',') || 'html,json' }, io);
}

/** Flags that name one file a run writes (or changes): with several orgs, each org's run would write over the last. */
type OneFilePerRunFlags = Pick<GateFlags, 'writeBaseline' | 'pruneBaseline'> & Pick<FixFlags, 'fix' | 'fixOut'>;

function refuseOneFilePerRun(flags: OneFilePerRunFlags): void {
  const given = [
    flags.writeBaseline !== undefined && '--write-baseline',
    flags.pruneBaseline === true && '--prune-baseline',
    flags.fix === true && '--fix',
    flags.fixOut !== undefined && '--fix-out',
  ].find((flag): flag is string => typeof flag === 'string');
  if (given !== undefined) {
    throw new UsageError(`${given} with several orgs: each org's run would write the same file over the last; run it on each org alone (each org's reports and fix kit are also in DIR/orgs/N-name)`);
  }
}

/** Each org's run writes report.json, which the merge reads. */
const withJson = (formats: string) => (formats.split(',').includes('json') ? formats : `${formats},json`);
