import { Command, CommanderError } from 'commander';
import { analyze } from './analyze.js';
import { ANNOTATIONS_SHOWN, ENVIRONMENT_HELP, failingFindingLines, incompleteAnnotations, incompleteLines, OVERVIEW_EXAMPLES, parserErrorLine, SNAPSHOT_EXAMPLES, SNAPSHOT_STRICT_HELP } from './cli-text.js';
import { buildCatalog } from './catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from './jq/engine.js';
import { jqPoolSize } from './jq/worker-pool.js';
import { isKnownError, UsageError } from './errors.js';
import { EXIT, exitCodeFor } from './gate.js';
import { addGateOptions, gateReport, withFailOnShorthand, type GateFlags } from './gate-run.js';
import { readBaselineFile } from './baseline/baseline-file.js';
import type { IncompleteItem, Report } from './model/finding.js';
import { MAX_FILE_SIZE_HELP, parseMaxFileSize } from './repo/max-file-size.js';
import { repositoryFindings, repositoryOnlySnapshot, withDescribedTeams } from './repo/report-input.js';
import { appBaseUrl } from './report/service-links.js';
import { addressesOf } from './address-options.js';
import { plural } from './plural.js';
import { FORMATS, parseFormats, refuseStdoutMisuse, runTimestamp, STDOUT, writeReports, type Format } from './report/write-reports.js';
import { REPORT_FILES } from './output/own-outputs.js';
import { reportRun } from './report/run-info.js';
import { checkKitDir, openOutputSet, refusePlantedJournal, refuseWhileKitLocked, refuseWhileLocked, type OutputSet } from './output/output-set.js';
import { join } from 'node:path';
import { noteSettledHeap, releaseGrowth, releaseMemory } from './release-memory.js';
import type { OrgOrigin, SarifMeta } from './report/sarif.js';
import { orgPlacementOf, type OrgPlacement } from './report/org-placement.js';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from './package-root.js';
import { addSourceOptions, parseConcurrency, resolveOrgSource, NO_SOURCE_HINT, type SourceFlags, type SourceIo } from './sources/resolve-source.js';
import { analysableSnapshot } from './sources/validate-snapshot.js';
import { ensureWritableDir, ensureWritableFile, removeEmptyCreated, refuseOutputsNamingInputs, type NamedPath } from './output/output-path.js';
import { runSnapshot, type SnapshotFlags } from './snapshot-command.js';
import { readTeamsMap } from './teams-map.js';
import { withProgress } from './progress/compute-progress.js';
import { withStillLockedOut } from './progress/with-still-locked-out.js';
import { displayRoots } from './repo/scan.js';
import { migrationPlanOf } from './progress/migration-plan.js';
import { progressSentence } from './progress/progress-text.js';
import { dataReadAtOf, readPreviousReport } from './progress/read-previous-report.js';
import { addFixOptions, fixOutDir, runFixKit, type FixFlags } from './fix/fix-run.js';
import { lineStartSafe, terminalSafe, terminalWriter } from './terminal-text.js';
import { credentialsFromEnv, learningRedactor } from './secrets/credentials.js';
import { VERSION } from './version.js';
import { addMergeCommand, runMerge, runSeveralOrgs } from './orgs/merge-command.js';
import { addOrgsOption, runConfiguredOrgs } from './orgs/configured-orgs.js';
import { orgTeams } from './orgs/org-teams.js';

/** Everything the CLI touches outside itself, injected so tests run it in-process: a source's (SourceIo) and these. */
export interface CliIo extends SourceIo {
  stdout: (text: string) => void;
  /** The jq seam; tests inject one that records the options the run asks for. */
  loadJq?: typeof loadJqEngine;
}

interface AnalyzeFlags extends GateFlags, SourceFlags, FixFlags {
  orgs?: string;
  teamsMap?: string;
  /** `--ignore PATTERN`, repeatable: gitignore lines left out of every `--repo` scan. */
  ignore: string[];
  /** `--max-file-size`: the largest repository file read whole, in bytes. */
  maxFileSize?: number;
  format: string;
  appUrl?: string;
  debug?: boolean;
  since?: string;
  demo?: boolean;
  /** commander's --no-color: false when given. */
  color?: boolean;
  /** `--sarif-accepted`: keep baseline-accepted findings in report.sarif, as suppressed results. */
  sarifAccepted?: boolean;
}

/** The demo org shipped in the package: `analyze --demo` works from any installed copy. */
const DEMO_SNAPSHOT = fileURLToPath(new URL('fixtures/demo-org.json', PACKAGE_ROOT));

const EXIT_CODES_HELP = `
Exit codes:
  0  analysis complete; the gate passed
  1  analysis complete; the gate failed (findings over --fail-on, not accepted in --baseline)
  2  usage, configuration, authentication or input error (one line on stderr)
  3  analysis incomplete: something could not be read (never a pass)
Reports are written before a non-zero exit, so a failed CI job still has them.`;

const ANALYZE_EXAMPLES = `
Examples:
  $ teams-migration-audit analyze --demo   # the bundled demo org: output/index.html
  $ teams-migration-audit analyze --snapshot org.json --teams-map teams.yaml --fail-on manual
  $ teams-migration-audit analyze --repo . --teams-map teams.yaml   # repository only, for pull requests
  $ PORT_CLIENT_ID=… PORT_CLIENT_SECRET=… teams-migration-audit analyze --region us   # the live org
  $ teams-migration-audit analyze --orgs orgs.yml --out audit   # several live orgs, one report (orgs.yml names each org's credential variables)
  $ teams-migration-audit analyze --snapshot org.json --format json,sarif,junit,md --baseline audit-baseline.json
  $ teams-migration-audit analyze --snapshot org-after.json --since output-before/report.json   # after the migration: what is fixed, what is left
  $ teams-migration-audit analyze --snapshot org.json --repo infra --fix   # apply the repository patch in place
${EXIT_CODES_HELP}`;

/** Parse argv (without node and script), run, and return the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // Org names, ids and file names reach stderr: nothing written there may act on the terminal or CI
  // log, and no line (a server's error echoing the request) may repeat the run's credentials.
  // The org's secrets join them once its redaction has found them (a note or an error may quote one).
  const secrets = learningRedactor(credentialsFromEnv(io.env));
  const { stderr } = io;
  io = { ...io, stderr: terminalWriter((text) => stderr(secrets.clean(text))), secretsFound: secrets.learn };
  let exitCode: number = EXIT.pass;
  const program = new Command()
    .name('teams-migration-audit')
    .description(
      'Read-only audit of the "users and teams as blueprints" migration: what it changes by itself, ' +
        'what it breaks, and what to write instead. It never changes anything in the service.\n',
    )
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (message, write) => write(parserErrorLine(message)) })
    .addHelpText('after', `${OVERVIEW_EXAMPLES}\n${EXIT_CODES_HELP}\n${ENVIRONMENT_HELP}`);

  const analyzeCommand = program
    .command('analyze')
    .description('Analyze an org and write the report (output/index.html, output/report.json) and the fix kit (output/fixes).')
    .argument('[sources...]', 'an org-snapshot/1 file to analyze (the same as --snapshot FILE); several: one report over all their orgs, as merge gives')
    .option('--snapshot <file>', 'read the org from an org-snapshot/1 file instead of the live API')
    .option('--teams-map <file>', 'JSON or YAML map of team title → team identifier, for orgs without _team entities yet')
    .option('--repo <dir>', 'also scan a checkout: Terraform, Pulumi, GitOps files, API scripts (repeatable; alone = repository-only)', (dir: string, dirs: string[]) => [...dirs, dir], [] as string[])
    .option('--ignore <pattern>', 'leave paths out of the --repo scan, as a .gitignore line (repeatable); in a git checkout the files are those git tracks or would add (a tracked file is always scanned), elsewhere its .gitignore files apply', (pattern: string, patterns: string[]) => [...patterns, pattern], [] as string[])
    .option('--max-file-size <size>', MAX_FILE_SIZE_HELP, parseMaxFileSize)
    .option('--out <dir>', 'where to write the reports; - writes the one --format asked for (json, sarif, junit or md) to stdout, and no fix kit', 'output')
    .option('--format <list>', `comma-separated output formats: ${FORMATS.join(',')}`, 'html,json')
    .option('--app-url <url>', 'the service\'s web app, for the report\'s links into it: resources, entities, people (default: from --region or --api-url)')
    .option('--demo', 'analyze the demo org shipped with the tool (gate: --fail-on none unless given)')
    .option('-q, --quiet', 'print nothing but errors: what could not be read and the findings that fail the gate')
    .option('--sarif-accepted', 'keep findings the baseline accepts in report.sarif as suppressed results (left out by default: code scanning ignores suppressions; summary.md lists them)')
    .option('--no-color', 'no progress bar or other terminal control sequences (also when NO_COLOR or CI is set)')
    .option('--debug', 'print stack traces for unexpected errors')
    .option('--since <file>', 'a previous report.json of the same org: report what was fixed since (progress), what is still open and what is new')
    .addHelpText('after', `${ANALYZE_EXAMPLES}\n${ENVIRONMENT_HELP}`)
    .action(async (sources: string[], flags: AnalyzeFlags, command: Command) => {
      if (flags.orgs !== undefined) {
        exitCode = await runConfiguredOrgs(flags.orgs, sources, flags, (one, orgIo) => runAnalyze(one, plainTerminal(orgIo, flags)), io);
        return;
      }
      if (sources.length > 1) {
        // Several orgs: each analysed as a run of its own would be (its reports and kit in <out>/orgs/N-name), then merged into --out.
        exitCode = await runSeveralOrgs(sources, flags, (one) => runAnalyze(withDemo(one, command.getOptionValueSource('failOn') === 'cli'), plainTerminal(io, flags)), io);
        return;
      }
      exitCode = await runAnalyze(withDemo(withPositionalSource(sources[0], flags), command.getOptionValueSource('failOn') === 'cli'), plainTerminal(io, flags));
    });
  addGateOptions(analyzeCommand);
  addFixOptions(analyzeCommand);
  addSourceOptions(analyzeCommand);
  addOrgsOption(analyzeCommand);

  const snapshotCommand = addSourceOptions(
    program
      .command('snapshot')
      .description('Record the org as an org-snapshot/1 file, to analyze offline later (analyze --snapshot FILE).')
      .argument('[source]', 'an org-snapshot/1 file to rewrite in stable order (the same as --snapshot FILE)')
      .requiredOption('--out <file>', 'where to write the snapshot (required); - writes it to stdout')
      .option('--snapshot <file>', 'read an org-snapshot/1 file instead of the live API (rewrites it in stable order)')
      .option('-q, --quiet', 'print nothing but errors')
      .option('--no-color', 'no progress bar or other terminal control sequences (also when NO_COLOR or CI is set)')
      .addHelpText('after', SNAPSHOT_EXAMPLES),
    SNAPSHOT_STRICT_HELP,
  );
  snapshotCommand.action(async (source: string | undefined, flags: SnapshotFlags & { color?: boolean }) => {
    const { incomplete } = await runSnapshot(withPositionalSource(source, flags), plainTerminal(io, flags), runTimestamp(io.env, io.now), io.stdout);
    exitCode = incomplete > 0 ? EXIT.incomplete : EXIT.pass;
  });

  addMergeCommand(program, async (reports, flags) => {
    exitCode = await runMerge(reports, flags, io);
  });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage errors were already printed.
      return error.exitCode === 0 ? EXIT.pass : EXIT.usage;
    }
    if (isKnownError(error)) {
      io.stderr(`teams-migration-audit: ${terminalSafe(error.message)}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}

/** `analyze FILE` is `analyze --snapshot FILE`, as the help's `analyze [source]` says. */
function withPositionalSource<T extends { snapshot?: string }>(source: string | undefined, flags: T): T {
  if (source === undefined) return flags;
  if (flags.snapshot !== undefined && flags.snapshot !== source) {
    throw new UsageError(`two snapshots given (${source} and --snapshot ${flags.snapshot}); name one`);
  }
  return { ...flags, snapshot: source };
}

/**
 * A progress bar redraws its line with control sequences: not with --no-color or NO_COLOR
 * (no-color.org), and not under CI=true, where the log is a file and each redraw a new line.
 */
function plainTerminal(io: CliIo, flags: { color?: boolean }): CliIo {
  const plain = flags.color === false || Boolean(io.env.NO_COLOR) || Boolean(io.env.CI);
  return plain ? { ...io, isTTY: false } : io;
}

/** `--demo` reads the shipped demo org; its gate does not fail unless --fail-on was given. */
function withDemo(flags: AnalyzeFlags, failOnGiven: boolean): AnalyzeFlags {
  if (!flags.demo) return flags;
  if (flags.snapshot !== undefined) throw new UsageError(`--demo reads the bundled demo org and --snapshot ${flags.snapshot} another: give one of them`);
  return { ...flags, snapshot: DEMO_SNAPSHOT, failOn: failOnGiven ? flags.failOn : 'none' };
}

async function runAnalyze(flags: AnalyzeFlags, io: CliIo): Promise<number> {
  flags = withFailOnShorthand(flags);
  const formats = parseFormats(flags.format);
  const generatedAt = runTimestamp(io.env, io.now);
  // Baseline entries expire against the run's own date (SOURCE_DATE_EPOCH, when set, as every output's).
  flags = { ...flags, today: generatedAt.slice(0, 10) };
  const toStdout = flags.out === STDOUT;
  if (toStdout) {
    refuseStdoutMisuse(formats, flags);
    // No folder to put a kit in: the report on stdout is the whole output.
    flags = { ...flags, fixes: false };
  }
  // Before anything is read: no output may be written over an input.
  await refuseOutputsNamingInputs(inputPaths(flags), outputPaths(flags), [['--write-baseline', '--baseline']]);
  // Every local input is read before the org: a typo in a file must not cost a whole live fetch.
  const baseline = flags.baseline === undefined ? undefined : await readBaselineFile(flags.baseline);
  const teamsMap = flags.teamsMap ? await readTeamsMap(flags.teamsMap) : {};
  const previous = flags.since ? await readPreviousReport(flags.since) : undefined;
  // Output paths too, before the org: a typo in --out must fail in a second, not after a whole live fetch.
  const appUrl = appBaseUrl(addressesOf(flags, io.env));
  if (flags.fixOut !== undefined && flags.fixes === false) throw new UsageError('--fix-out names a folder for the fix kit and --no-fixes writes none: give one of them');
  // Folders made only to check they take files: a run that stops before writing takes them away again.
  const created: string[] = [];
  try {
    if (!toStdout) created.push(...(await ensureWritableDir(flags.out, '--out')));
    if (flags.writeBaseline !== undefined) created.push(...(await ensureWritableFile(flags.writeBaseline, '--write-baseline')));
    if (flags.fixOut !== undefined) created.push(...(await ensureWritableDir(flags.fixOut, '--fix-out')));
    return await analyzeInto(flags, io, { formats, toStdout, generatedAt, baseline, teamsMap, previous, appUrl });
  } catch (error) {
    await removeEmptyCreated(created);
    throw error;
  }
}

/** What runAnalyze read and checked before the outputs: the inputs, the formats, the run's time. */
interface AnalyzeSetup {
  formats: ReturnType<typeof parseFormats>;
  toStdout: boolean;
  generatedAt: string;
  baseline: Awaited<ReturnType<typeof readBaselineFile>> | undefined;
  teamsMap: Awaited<ReturnType<typeof readTeamsMap>>;
  previous: Awaited<ReturnType<typeof readPreviousReport>> | undefined;
  appUrl: ReturnType<typeof appBaseUrl>;
}

async function analyzeInto(flags: AnalyzeFlags, io: CliIo, setup: AnalyzeSetup): Promise<number> {
  const { formats, toStdout, generatedAt, appUrl } = setup;
  if (flags.fixes !== false) await checkKitDir(fixOutDir(flags), flags.fixOut === undefined ? '--out' : '--fix-out');
  // A second run on this --out stops here, in one line; the lock itself is taken at the first write.
  if (!toStdout) {
    await refuseWhileLocked(flags.out);
    if (flags.fixes !== false && flags.fixOut !== undefined) await refuseWhileKitLocked('--fix-out', flags.fixOut);
    // And a journal there that this tool would not finish (one a repository planted) is refused now, touching nothing.
    await refusePlantedJournal(flags.out);
  }
  const outputs = await openOutputSet(flags.out);
  try {
    // One jq worker per core, no more than --concurrency: the same flag bounds how much runs at once.
    // They load jq on their own threads while the org is read.
    const jqLoading = (io.loadJq ?? loadJqEngine)({ workers: jqPoolSize({ concurrency: parseConcurrency(flags.concurrency) }) });
    // Handled here too: a failure while the org is still being read is reported where it is awaited, not as an unhandled rejection.
    jqLoading.catch(() => undefined);
    let source: Awaited<ReturnType<typeof resolveOrgSource>>;
    try {
      // --snapshot, else the live org when credentials are set, else repositories only.
      source = await resolveOrgSource(flags, io);
      if (!source && flags.repo.length === 0) throw new UsageError(NO_SOURCE_HINT);
    } catch (error) {
      // The run stops here: the workers that were loading are not kept (an in-process caller would hold them).
      await jqLoading.then((jq) => jq.close?.()).catch(() => undefined);
      throw error;
    }
    const jq = await jqLoading;
    try {
      // What the writing needs of the source; the org itself, its catalog and the first analysis are
      // reportOfOrg's own, let go once the report is made, before it is written (issue 41: 280 MB of
      // the 100x org's 420 MB live then).
      const read = source && { description: source.description, credentials: source.credentials };
      const { report, notes, failure } = await reportOfOrg(source, jq, outputs, flags, io, setup);
      source = undefined;
      releaseMemory();

      // Nothing asks jq from here on: its workers are let go before the reports are written, the run's
      // largest step (issue 41).
      await jq.close?.();
      // Read once, when SARIF or an annotation needs it: the snapshot's lines for org findings.
      let placed: Promise<OrgPlacement | undefined> | undefined;
      const placement = () => (placed ??= orgPlacementOf(flags.demo ? undefined : flags.snapshot));
      const written = await writeReports(report, {
        out: flags.out,
        formats,
        meta: {
          html: { generatedAt, source: flags.demo ? 'the bundled demo org' : (read?.description ?? `repositories ${flags.repo.join(', ')}`), ...(read && { appUrl }) },
          sarif: await sarifMeta(formats, placement, orgOriginOf(flags, read !== undefined), flags.sarifAccepted === true),
        },
        env: io.env,
        credentials: read?.credentials,
        outputs,
        stdout: io.stdout,
      });
      // A failed --fix is a failed write: exit 2, as any output that cannot be written (docs/ci.md).
      const gateCode = exitCodeFor(report.gate);
      const code = failure !== undefined ? EXIT.usage : gateCode;
      // Kept under --quiet: what could not be read and what fails the gate are the errors of this run.
      const annotate = io.env.GITHUB_ACTIONS === 'true';
      // On GitHub what could not be read is annotated first, then the failing findings in the annotations left.
      const unread = annotate ? unreadLinesAnnotated(report.incomplete, reportPathOf(flags.out, formats)) : { lines: incompleteLines(report.incomplete), annotations: 0 };
      const failing =
        (report.gate.failing ?? 0) > 0
          ? failingFindingLines(report, { annotate, ...(annotate && { orgPlacement: await placement(), reportPath: reportPathOf(flags.out, formats), annotationsLeft: ANNOTATIONS_SHOWN - unread.annotations }) })
          : [];
      if (flags.quiet) {
        const errors = [...unread.lines, ...failing, ...(gateCode === EXIT.pass ? [] : [summaryLine(report, gateCode)])];
        if (errors.length > 0) io.stderr(errors.map(terminalSafe).join('\n') + '\n');
      }
      const inputNotes = (report.notes ?? []).filter((note) => note !== failure).map((note) => `note: ${note}`);
      const progress = report.progress ? [`progress: ${progressSentence(report.progress)}`] : [];
      if (!flags.quiet) {
        const lines = [...inputNotes, ...notes, ...unread.lines, ...failing, summaryLine(report, gateCode), ...progress, `wrote ${written.join(', ')}`];
        io.stderr(lines.map(terminalSafe).join('\n') + '\n');
      }
      if (failure !== undefined) io.stderr(`teams-migration-audit: ${terminalSafe(failure)}\n`);
      return code;
    } finally {
      // The worker holding jq-wasm is unref'd, but an in-process caller (tests) should not keep it.
      await jq.close?.();
    }
  } finally {
    await outputs.close();
  }
}

/**
 * The org analysed into the report to write (and the fix kit staged): the org as read, its catalog
 * and the first analysis live only in here, so none of them is held while the reports are written.
 */
async function reportOfOrg(
  source: Awaited<ReturnType<typeof resolveOrgSource>>,
  jq: JqEngine,
  outputs: OutputSet,
  flags: AnalyzeFlags,
  io: CliIo,
  setup: AnalyzeSetup,
) {
  const { generatedAt, baseline, teamsMap, previous } = setup;
  const snapshot = source?.snapshot ?? repositoryOnlySnapshot(flags.repo);
  // What is live now is mostly the org as read: the collections below are asked for only where the heap grew past it.
  noteSettledHeap();
  const catalog = buildCatalog(analysableSnapshot(snapshot), { teamsMap, jq, ...(previous && { plan: migrationPlanOf(previous.report) }) });
  const ownPaths = [flags.snapshot, flags.out, flags.baseline, flags.writeBaseline, flags.teamsMap, flags.since, flags.fixOut];
  const scanAndAnalyze = async () => {
    const repository = await repositoryFindings(flags.repo, catalog, ownPaths, flags.ignore, source !== undefined, flags.maxFileSize);
    const analyzed = withJqUnjudged(withStillLockedOut(withProgress(analyze(catalog, { ...repository, notes: [...(source?.notes ?? []), ...catalog.teams.notes] }), previous, { repoRoots: displayRoots(flags.repo) }), previous?.report, catalog), jq);
    return { repository, analyzed };
  };
  const first = await scanAndAnalyze();
  const dataReadAt = source === undefined ? undefined : flags.snapshot === undefined ? generatedAt : dataReadAtOf({ run: { dataReadAt: snapshot.recordedAt } });
  // What the run read: the repository's findings, gaps and notes (not the function that settles the org's items with them).
  const { reviseDrafts: _settle, describedTeams, ...repositoryRead } = first.repository;
  const run = reportRun([source?.read ?? snapshot, teamsMap, baseline ?? null, previous?.report ?? null, repositoryRead], dataReadAt);
  // --write-baseline is staged once, from the gate that is reported: after --fix, the one of the second scan.
  const firstGated = await gateReport(first.analyzed, flags.fix ? { ...flags, writeBaseline: undefined } : flags, baseline, io.env, outputs);
  // Without an org, the org the kit predicts is the one the files describe: their teams with it.
  const kitCatalog = describedTeams ? buildCatalog(analysableSnapshot(withDescribedTeams(snapshot, describedTeams)), { teamsMap, jq }) : catalog;
  // The analysis's own working data is dead now: collected before the kit adds its files on top, when it is much.
  releaseGrowth();
  // The kit's files are cleaned of the run's credentials and the org's secrets as the reports are.
  const secrets = [...credentialsFromEnv(io.env), ...(source?.credentials ?? [])];
  const fixed = await runFixKit(firstGated.report, kitCatalog, flags, jq, { outputs, runId: run.id, secrets });
  // --fix changed the checkouts: the report, the gate and the exit code are about what remains. A
  // --fix with nothing to change is gated again too: the first gate left --write-baseline to it.
  const changed = fixed.changed.length > 0;
  const again = changed || flags.fix ? await gateReport(changed ? (await scanAndAnalyze()).analyzed : first.analyzed, flags, baseline, io.env, outputs) : undefined;
  const fixedReport = again ? withKitNotes(again.report, fixed.report) : fixed.report;
  // A --fix that could not replace a file changed nothing: the report says so too. The org's teams,
  // so reports of several orgs written by separate runs can be merged and checked together.
  const report = {
    ...fixedReport,
    run,
    ...(fixed.failure !== undefined && { notes: [...(fixedReport.notes ?? []), fixed.failure] }),
    ...(source && { orgTeams: orgTeams(source.snapshot) }),
  };
  const notes = [...(again ?? firstGated).notes, ...fixed.lines, ...(changed ? [fixedLine(firstGated, fixed, again!)] : [])];
  return { report, notes, failure: fixed.failure };
}

/**
 * After `--fix` changed files: the repositories were scanned again, so the report holds what
 * remains; the kit (written from the first scan) and the notes on what it cannot fix stay. One
 * line says what changed and what is left.
 */
function fixedLine(first: Awaited<ReturnType<typeof gateReport>>, fixed: Awaited<ReturnType<typeof runFixKit>>, again: Awaited<ReturnType<typeof gateReport>>): string {
  const inFiles = (report: Report) => report.findings.filter((f) => f.resource.type === 'file');
  const before = new Set(inFiles(first.report).map((f) => f.id));
  const remaining = inFiles(again.report).filter((f) => before.has(f.id)).length;
  return (
    `--fix: changed ${plural(fixed.changed.length, 'file', 'files')} in place: ${fixed.changed.join(', ')}; ` +
    `${plural(before.size - remaining, 'finding', 'findings')} in files fixed, ${remaining} ${remaining === 1 ? 'remains' : 'remain'} (scanned again: the report and the gate are about what remains)`
  );
}

/** The gated report with the kit's notes on what it cannot fix, and its `fixes`. */
function withKitNotes<R extends Report>(report: R, kitReport: Report): R {
  const notes = new Map(kitReport.findings.filter((f) => f.note !== undefined).map((f) => [f.id, f.note]));
  const findings = report.findings.map((finding) => (notes.has(finding.id) ? { ...finding, note: notes.get(finding.id) } : finding));
  return { ...report, findings, ...(kitReport.fixes && { fixes: kitReport.fixes }) };
}

/** Expressions quoted in the incomplete item; report.json's notes and findings carry each one's own. */
const UNJUDGED_SHOWN = 5;

/**
 * Once jq's budget for the run was spent (src/jq/budget.ts), what it left unjudged makes the run
 * incomplete (exit 3): their findings are missing or only listed for review, so it is never a pass.
 */
function withJqUnjudged<R extends Report>(report: R, jq: JqEngine): R {
  const left = jq.unjudged?.();
  if (!left) return report;
  const shown = left.expressions.slice(0, UNJUDGED_SHOWN).map((expression) => JSON.stringify(expression.length > 80 ? `${expression.slice(0, 79)}…` : expression));
  const more = left.expressions.length > UNJUDGED_SHOWN ? ` and ${left.expressions.length - UNJUDGED_SHOWN} more` : '';
  const reason = `jq's time budget for this run is spent (${left.reason}): ${plural(left.expressions.length, 'expression was', 'expressions were')} left unjudged: ${shown.join(', ')}${more}`;
  return { ...report, incomplete: [...report.incomplete, { resource: 'jq', reason }] };
}

/** Unread items as annotations (the open ones) and plain lines (those accepted in the baseline), with how many annotations they took. */
function unreadLinesAnnotated(incomplete: readonly IncompleteItem[], reportPath: string): { lines: string[]; annotations: number } {
  const annotations = incompleteAnnotations(incomplete, reportPath);
  const taken = annotations.filter((line) => line.startsWith('::error ')).length;
  return { lines: [...annotations, ...incompleteLines(incomplete.filter((item) => item.accepted !== undefined))], annotations: taken };
}

/** Every file the run reads, by the option that names it. */
function inputPaths(flags: AnalyzeFlags): NamedPath[] {
  const named: [string, string | undefined][] = [['--snapshot', flags.snapshot], ['--teams-map', flags.teamsMap], ['--baseline', flags.baseline], ['--since', flags.since], ['--config', flags.config]];
  return named.flatMap(([flag, path]) => (path === undefined ? [] : [{ flag, path }]));
}

/** Every file the run writes (each report name, used or not: an unused one is removed) and the fix kit folder it replaces. */
function outputPaths(flags: AnalyzeFlags): { files: NamedPath[]; dirs: NamedPath[] } {
  if (flags.out === STDOUT) return { files: [], dirs: [] };
  const files: NamedPath[] = [{ flag: '--out', path: flags.out }, ...FORMATS.map((format) => ({ flag: '--out', path: join(flags.out, REPORT_FILES[format]) }))];
  if (flags.writeBaseline !== undefined) files.push({ flag: '--write-baseline', path: flags.writeBaseline });
  const dirs = flags.fixes === false ? [] : [{ flag: flags.fixOut === undefined ? '--out' : '--fix-out', path: fixOutDir(flags) }];
  return { files, dirs };
}

/** The gate's other reason to fail, under --fail-on-stale-baseline. */
function staleFailure(report: Report): string {
  const stale = report.gate?.staleFails ? (report.gate.staleBaselineIds?.length ?? 0) : 0;
  return stale > 0 ? ` and ${plural(stale, 'stale baseline entry', 'stale baseline entries')} (--fail-on-stale-baseline)` : '';
}

function summaryLine(report: Report, code: number): string {
  const { automatic, manual } = report.summary;
  const verdict =
    code === EXIT.incomplete
      ? `INCOMPLETE: ${plural(report.incomplete.length, 'item', 'items')} could not be read`
      : code === EXIT.gateFailed
        ? `gate FAILED: ${plural(report.gate?.failing ?? 0, 'finding', 'findings')} over --fail-on ${report.gate?.failOn ?? 'manual'}${report.gate?.failOnVerdict ? ` --fail-on-verdict ${report.gate.failOnVerdict}` : ''}${staleFailure(report)}`
        : 'gate passed';
  const accepted = report.gate?.accepted ? ` (${report.gate.accepted} accepted in the baseline)` : '';
  return `${lineStartSafe(report.organization.name)}: ${plural(automatic, 'automatic change', 'automatic changes')}, ${plural(manual, 'manual item', 'manual items')}; ${verdict}${accepted}`;
}

/** Org findings are placed in the snapshot file at their resource's line, when the snapshot is in the checkout. */
async function sarifMeta(formats: readonly Format[], placement: () => Promise<OrgPlacement | undefined>, orgOrigin: OrgOrigin | undefined, includeAccepted: boolean): Promise<SarifMeta> {
  const placed = formats.includes('sarif') ? await placement() : undefined;
  return { toolVersion: VERSION, ...(placed ? { orgArtifactUri: placed.uri, orgLineOf: placed.lineOf } : orgOrigin && { orgOrigin }), ...(includeAccepted && { includeAccepted }) };
}

/** Where the org came from, for SARIF's word on why its findings have no file; none for repositories alone. */
function orgOriginOf(flags: AnalyzeFlags, hasOrg: boolean): OrgOrigin | undefined {
  if (!hasOrg) return undefined;
  if (flags.demo) return 'demo';
  return flags.snapshot === undefined ? 'live' : 'snapshot-elsewhere';
}

/** The report a notice can point to for the whole list: report.json, else the page, else the summary. */
function reportPathOf(out: string, formats: readonly Format[]): string {
  const format = (['json', 'html', 'md', 'junit', 'sarif'] as const).find((candidate) => formats.includes(candidate)) ?? 'json';
  return out === STDOUT ? `${REPORT_FILES[format]} on stdout` : join(out, REPORT_FILES[format]);
}
