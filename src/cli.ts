import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { analyze } from './analyze.js';
import { buildCatalog } from './catalog/build-catalog.js';
import { loadJqEngine } from './jq/engine.js';
import { isKnownError, UsageError } from './errors.js';
import type { Report } from './model/finding.js';
import { renderHtml } from './report/html.js';
import { renderJson } from './report/json.js';
import { repositoryFindings, repositoryOnlySnapshot } from './repo/report-input.js';
import { readSnapshotFile } from './sources/snapshot-file.js';
import { readTeamsMap } from './teams-map.js';
import { VERSION } from './version.js';

/** Everything the CLI touches outside itself, injected so tests run it in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** The wall clock, read only here and passed to renderers as data. */
  now: () => Date;
}

export const EXIT = { pass: 0, gateFailed: 1, usage: 2, incomplete: 3 } as const;

export type FailOn = 'none' | 'manual' | 'any';
const FORMATS = ['html', 'json'] as const;
type Format = (typeof FORMATS)[number];

interface AnalyzeFlags {
  snapshot?: string;
  teamsMap?: string;
  repo: string[];
  out: string;
  format: string;
  failOn: FailOn;
  quiet?: boolean;
  debug?: boolean;
}

const EXIT_CODES_HELP = `
Exit codes:
  0  analysis complete; the gate passed
  1  analysis complete; the gate failed (findings over --fail-on)
  2  usage, configuration, authentication or input error (one line on stderr)
  3  analysis incomplete: something could not be read (never a pass)`;

const ANALYZE_EXAMPLES = `
Examples:
  $ teams-migration-audit analyze --snapshot fixtures/demo-org.json
  $ teams-migration-audit analyze --snapshot org.json --teams-map teams.yaml --fail-on manual
  $ teams-migration-audit analyze --repo . --teams-map teams.yaml   # repository only, for pull requests
${EXIT_CODES_HELP}`;

/** Parse argv (without node and script), run, and return the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.pass;
  const program = new Command()
    .name('teams-migration-audit')
    .description(
      'Read-only audit of the "users and teams as blueprints" migration: what it changes by itself, ' +
        'what it breaks, and what to write instead. It never changes anything in the service.\n',
    )
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);

  program
    .command('analyze')
    .description('Analyze an org and write the report (output/index.html, output/report.json).')
    .option('--snapshot <file>', 'read the org from an org-snapshot/1 file instead of the live API')
    .option('--teams-map <file>', 'JSON or YAML map of team title → team identifier, for orgs without _team entities yet')
    .option('--repo <dir>', 'also scan a checkout: Terraform, Pulumi, GitOps files, API scripts (repeatable; alone = repository-only)', (dir: string, dirs: string[]) => [...dirs, dir], [] as string[])
    .option('--out <dir>', 'where to write the reports', 'output')
    .option('--format <list>', `comma-separated output formats: ${FORMATS.join(',')}`, 'html,json')
    .addOption(
      new Option('--fail-on <level>', 'which findings fail the gate (exit 1)').choices(['none', 'manual', 'any']).default('manual'),
    )
    .option('--quiet', 'print nothing but errors')
    .option('--debug', 'print stack traces for unexpected errors')
    .addHelpText('after', ANALYZE_EXAMPLES)
    .action(async (flags: AnalyzeFlags) => {
      exitCode = await runAnalyze(flags, io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage errors were already printed.
      return error.exitCode === 0 ? EXIT.pass : EXIT.usage;
    }
    if (isKnownError(error)) {
      io.stderr(`teams-migration-audit: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}

async function runAnalyze(flags: AnalyzeFlags, io: CliIo): Promise<number> {
  const formats = parseFormats(flags.format);
  if (!flags.snapshot && flags.repo.length === 0) {
    throw new UsageError(
      'no org to analyze: pass --snapshot FILE (an org-snapshot/1 file) or --repo DIR, or try the bundled demo with `npm start`',
    );
  }
  const snapshot = flags.snapshot ? await readSnapshotFile(flags.snapshot) : repositoryOnlySnapshot(flags.repo);
  const teamsMap = flags.teamsMap ? await readTeamsMap(flags.teamsMap) : {};
  const jq = await loadJqEngine();
  const catalog = buildCatalog(snapshot, { teamsMap, jq });
  const report = analyze(catalog, await repositoryFindings(flags.repo, catalog, flags.quiet ? undefined : io.stderr));

  await mkdir(flags.out, { recursive: true });
  const written: string[] = [];
  if (formats.includes('json')) written.push(await write(flags.out, 'report.json', renderJson(report)));
  if (formats.includes('html')) {
    const html = renderHtml(report, { generatedAt: io.now().toISOString(), source: flags.snapshot ? `snapshot ${flags.snapshot}` : `repositories ${flags.repo.join(', ')}` });
    written.push(await write(flags.out, 'index.html', html));
  }

  const code = exitCodeFor(report, flags.failOn);
  if (!flags.quiet) io.stderr(`${summaryLine(report, code)}\nwrote ${written.join(', ')}\n`);
  return code;
}

function parseFormats(list: string): Format[] {
  const formats = list.split(',').map((f) => f.trim()).filter(Boolean);
  for (const format of formats) {
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`unknown format "${format}" in --format; choose from ${FORMATS.join(', ')}`);
    }
  }
  return formats as Format[];
}

async function write(dir: string, name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** An incomplete scan is never a pass, whatever it found. */
export function exitCodeFor(report: Report, failOn: FailOn): number {
  if (report.incomplete.length > 0) return EXIT.incomplete;
  const failing = report.findings.filter((f) => failOn === 'any' || (failOn === 'manual' && f.kind === 'manual'));
  return failing.length > 0 ? EXIT.gateFailed : EXIT.pass;
}

function summaryLine(report: Report, code: number): string {
  const { automatic, manual } = report.summary;
  const verdict =
    code === EXIT.incomplete
      ? `INCOMPLETE: ${report.incomplete.length} item(s) could not be read`
      : code === EXIT.gateFailed
        ? 'gate FAILED'
        : 'gate passed';
  return `${report.organization.name}: ${automatic} automatic change(s), ${manual} manual item(s); ${verdict}`;
}
