import { isAbsolute, posix, win32 } from 'node:path';
import { Option, type Command } from 'commander';
import { applyBaseline, acceptedByFrom, createBaseline, renderBaseline, type Baseline, type BaselineEntry } from './baseline/baseline.js';
import { evaluateGate, FAIL_ON, FAIL_ON_VERDICT, type FailOn, type FailOnVerdict, type GatePolicy } from './gate.js';
import { createHash } from 'node:crypto';
import { UsageError } from './errors.js';
import type { GateResult, IncompleteItem, Report } from './model/finding.js';
import type { OutputSet } from './output/output-set.js';
import { agreeing, plural } from './plural.js';

export interface GateFlags {
  /** `breaks` is shorthand, undone by `withFailOnShorthand` before anything is read. */
  failOn: FailOn | typeof FAIL_ON_BREAKS;
  failOnVerdict?: FailOnVerdict;
  baseline?: string;
  writeBaseline?: string;
  acceptedBy?: string;
  /** `--prune-baseline`: write the --baseline file again without its stale entries. */
  pruneBaseline?: boolean;
  /** `--fail-on-stale-baseline`: a baseline entry that matches no finding fails the gate. */
  failOnStaleBaseline?: boolean;
  /** The run's date (YYYY-MM-DD), against which baseline entries expire. */
  today?: string;
}

/**
 * `--fail-on breaks`: what docs/ci.md calls gating on what will break, the manual findings whose
 * verdict is `breaks` (`--fail-on manual --fail-on-verdict breaks`, which it stands for).
 */
const FAIL_ON_BREAKS = 'breaks';

/** The gate's flags with `--fail-on breaks` written out; refused in one line beside another verdict. */
export function withFailOnShorthand<F extends GateFlags>(flags: F): F & { failOn: FailOn } {
  if (flags.failOn !== FAIL_ON_BREAKS) return flags as F & { failOn: FailOn };
  if (flags.failOnVerdict !== undefined && flags.failOnVerdict !== 'breaks') {
    throw new UsageError(`--fail-on breaks already means --fail-on manual --fail-on-verdict breaks; it cannot go with --fail-on-verdict ${flags.failOnVerdict}`);
  }
  return { ...flags, failOn: 'manual', failOnVerdict: 'breaks' };
}

/** The gate's options on `analyze`; kept here so the CLI wires them in one line. */
export function addGateOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--fail-on <level>', 'which findings fail the gate (exit 1): none, manual (needs a person), any, or breaks (manual ones that break: --fail-on manual --fail-on-verdict breaks)')
        .choices([...FAIL_ON, FAIL_ON_BREAKS])
        .default('manual'),
    )
    .addOption(
      new Option(
        '--fail-on-verdict <verdict>',
        'where findings carry a verdict, count only those at or above it (default review; unaffected never counts)',
      ).choices(FAIL_ON_VERDICT),
    )
    .option('--baseline <file>', 'JSON file of accepted finding ids (with reason and author): they stay in the reports but pass the gate')
    .option('--write-baseline <file>', 'write the findings the gate counts (by default the manual ones) as a starting baseline; keeps reasons already in --baseline')
    .option('--prune-baseline', 'write the --baseline file again without the entries that match no finding (stale), keeping the others as they are')
    .option('--fail-on-stale-baseline', 'fail the gate (exit 1) when a --baseline entry matches no finding, as a linter fails on an unused suppression')
    .option('--accepted-by <name>', 'who accepts the findings --write-baseline records (default: $GITHUB_ACTOR, $GITLAB_USER_LOGIN or $USER)');
}

interface GatedRun {
  /** The report with `accepted` on baselined findings and `gate` set: what every renderer gets. */
  report: Report & { gate: GateResult };
  /** Lines for stderr (stale entries, the baseline written); the CLI decides whether to print them. */
  notes: string[];
}

/** Apply the baseline, write a new one when asked, and settle the gate. */
export async function gateReport(
  analyzed: Report,
  flags: GateFlags,
  baseline: Baseline | undefined,
  env: Readonly<Record<string, string | undefined>>,
  /** Where `--write-baseline` and `--prune-baseline` are staged: written with the run's other outputs, or not at all. */
  outputs?: OutputSet,
): Promise<GatedRun> {
  const { failOn, failOnVerdict } = withFailOnShorthand(flags);
  const policy: GatePolicy = failOnVerdict ? { failOn, failOnVerdict } : { failOn };
  const notes: string[] = [];
  const save = async (path: string, written: Baseline) => {
    if (!outputs) throw new Error('a baseline is written only with the run\'s other outputs: pass gateReport the output set');
    await outputs.stageFile(path, renderBaseline(written));
  };
  let { report, stale, verified, expired } = baseline ? applyBaseline(analyzed, baseline, flags.today) : { report: analyzed, stale: [], verified: [], expired: [] };
  ({ report, stale } = withUnreadableFiles(report, stale, baseline));

  if (flags.writeBaseline !== undefined) {
    if (analyzed.incomplete.length > 0) {
      // Findings in what could not be read are missing, and entries for them would be dropped as stale.
      notes.push(`not writing ${flags.writeBaseline}: the analysis is incomplete, so the baseline would be too`);
    } else {
      const written = createBaseline(analyzed, policy, acceptedByFrom(flags.acceptedBy, env), baseline);
      await save(flags.writeBaseline, written);
      const before = new Set(baseline?.accepted.map((entry) => entry.id));
      const added = written.accepted.filter((entry) => !before.has(entry.id)).length;
      notes.push(
        `wrote ${flags.writeBaseline}: ${plural(written.accepted.length, 'accepted finding')}, ${added} new` +
          (stale.length > 0 ? `, ${plural(stale.length, 'stale entry', 'stale entries')} dropped` : '') +
          (verified.length > 0 ? `, ${plural(verified.length, 'entry', 'entries')} of now verified findings dropped` : ''),
      );
      // This run is judged by the baseline just written, as the next run with --baseline will be.
      ({ report, stale, verified, expired } = applyBaseline(analyzed, written, flags.today));
      ({ report, stale } = withUnreadableFiles(report, stale, written));
    }
  }

  if (flags.pruneBaseline && baseline !== undefined && flags.baseline !== undefined && flags.writeBaseline === undefined) {
    if (report.incomplete.some((item) => item.accepted === undefined)) {
      // What could not be read may hold the findings these entries accept: they are not known stale.
      notes.push(`not pruning ${flags.baseline}: the analysis is incomplete, so entries that look stale may not be`);
    } else if (stale.length > 0) {
      const gone = new Set(stale.map((entry) => entry.id));
      const pruned: Baseline = { ...baseline, accepted: baseline.accepted.filter((entry) => !gone.has(entry.id)) };
      await save(flags.baseline, pruned);
      notes.push(`wrote ${flags.baseline}: ${plural(stale.length, 'stale entry', 'stale entries')} pruned (${stale.map((entry) => entry.id).join(', ')}), ${plural(pruned.accepted.length, 'entry', 'entries')} kept`);
      stale = [];
    }
  }
  // Entries a person should look at, each kind in one line that names them.
  const entriesNote = (entries: readonly BaselineEntry[], what: (n: number) => string, named = entries.map((entry) => entry.id)) => {
    if (entries.length > 0) notes.push(`${flags.baseline}: ${what(entries.length)}: ${named.join(', ')}`);
  };
  entriesNote(expired, (n) => `${plural(n, 'baseline entry', 'baseline entries')} expired, so ${agreeing(n, 'its finding counts', 'their findings count')} again (renew the date or fix the finding)`, expired.map((entry) => `${entry.id} (${entry.expires})`));
  entriesNote(stale, (n) => `${plural(n, 'stale baseline entry', 'stale baseline entries')} ${agreeing(n, 'matches', 'match')} no finding (remove, or rewrite with --write-baseline)`);
  entriesNote(verified, (n) => `${plural(n, 'baseline entry', 'baseline entries')} ${agreeing(n, 'accepts a finding', 'accept findings')} now verified (checked, nothing to do; remove, or rewrite with --write-baseline)`);
  const gate = evaluateGate(report, policy, stale.map((entry) => entry.id), flags.failOnStaleBaseline === true);
  if (expired.length > 0) gate.expiredBaselineIds = expired.map((entry) => entry.id).sort();
  if (verified.length > 0) gate.verifiedBaselineIds = verified.map((entry) => entry.id).sort();
  return { report: { ...report, gate }, notes };
}

/** How the repository scan names a file it could not parse or read: `path:line` or `path`, "could not be read …". */
const UNREADABLE_FILE = /^could not be read\b/;

/**
 * The id of a repository file that could not be read: of its path only (not the line, which moves
 * as the file is edited), so a baseline entry keeps accepting it. Hex like a finding id.
 */
export function unreadableFileId(resource: string): string {
  const path = resource.replace(/:\d+$/, '');
  return createHash('sha256').update(`unreadable-file\u0000${path}`).digest('hex').slice(0, 16);
}

/**
 * Unreadable repository files get an id; those a baseline entry names are accepted: still listed
 * (report, page, stderr) but no longer making the run incomplete. Their entries are not stale.
 */
function withUnreadableFiles<R extends Report>(report: R, stale: BaselineEntry[], baseline: Baseline | undefined): { report: R; stale: BaselineEntry[] } {
  const byId = new Map((baseline?.accepted ?? []).map((entry) => [entry.id, entry]));
  const matched = new Set<string>();
  const incomplete = report.incomplete.map((item): IncompleteItem => {
    if (!UNREADABLE_FILE.test(item.reason)) return item;
    const id = unreadableFileId(item.resource);
    const entry = byId.get(id);
    if (!entry) return { ...item, id };
    matched.add(id);
    return { ...item, id, accepted: { reason: entry.reason, by: entry.by } };
  });
  return { report: { ...report, incomplete }, stale: stale.filter((entry) => !matched.has(entry.id)) };
}

/**
 * The snapshot's path as code scanning should see it: as given, when relative to the working
 * directory (the checkout, in CI), with forward slashes. None when absolute or outside, since that
 * names a file on the runner, not in the repository.
 */
export function repositoryPath(file: string | undefined): string | undefined {
  if (file === undefined || isAbsolute(file) || win32.isAbsolute(file)) return undefined;
  const path = posix.normalize(file.split(win32.sep).join('/'));
  return path === '.' || path.startsWith('../') || path === '..' ? undefined : path;
}
