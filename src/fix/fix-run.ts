import { join, relative, sep } from 'node:path';
import type { Command } from 'commander';
import type { Catalog } from '../catalog/catalog.js';
import { UsageError } from '../errors.js';
import type { JqEngine } from '../jq/engine.js';
import type { Report } from '../model/finding.js';
import { patchRepos } from './apply-root.js';
import { buildFixKit } from './build-fix-kit.js';
import type { OutputSet } from '../output/output-set.js';
import { KIT_DIR } from '../output/own-outputs.js';
import { applyPatchedFiles, FixNotApplied, readFindingFiles, writeFixKit } from './write-fixes.js';
import { plural } from '../plural.js';
import { releaseGrowth } from '../release-memory.js';

export interface FixFlags {
  out: string;
  repo: string[];
  fixOut?: string;
  /** `--no-fixes` sets it false. */
  fixes?: boolean;
  fix?: boolean;
}

/** The fix kit's options on `analyze`; kept here so the CLI wires them in one line. */
export function addFixOptions(command: Command): Command {
  return command
    .option('--fix-out <dir>', 'write the fix kit there (default <out>/fixes): corrected resources, repo.patch, data-migration payloads, predicted-org.json')
    .option('--no-fixes', 'do not write the fix kit (with --fix: only change the repositories)')
    .option('--fix', 'apply repo.patch to the --repo working trees in place (refused when a file changed since it was read)');
}

/** Where the kit goes: `--fix-out`, else beside the reports. */
export const fixOutDir = (flags: FixFlags): string => flags.fixOut ?? join(flags.out, KIT_DIR);

/**
 * Build the kit, write it (unless `--no-fixes`), apply the patch (`--fix`), and return the report
 * with `fixes` and each unresolved breaking finding's note saying what is missing. Files only: the
 * service is never written to.
 */
export async function runFixKit<R extends Report>(
  report: R,
  catalog: Catalog,
  flags: FixFlags,
  jq: JqEngine | undefined,
  output: { outputs: OutputSet; runId: string; /** Cut from every kit file (the run's credentials, the org's secrets). */ secrets?: readonly string[] },
): Promise<{ report: R; lines: string[]; /** Files `--fix` changed in place. */ changed: string[]; /** Why `--fix` changed nothing after all: one line. */ failure?: string }> {
  if (flags.fix && flags.repo.length === 0) throw new UsageError('--fix applies the repository patch, so it needs --repo DIR');
  // Written on every run to <out>/fixes (docs/formats.md, the report) unless --no-fixes; --fix still needs the kit's patch.
  if (flags.fixes === false && !flags.fix) return { report, lines: [], changed: [] };
  // Issue 41: predicting the 100x org left 100 MB of garbage, and the bodies added 80 MB more before the next collection.
  const kit = buildFixKit({ catalog, report, ...(jq && { jq }), repoFiles: await readFindingFiles(report, flags.repo), repos: await patchRepos(flags.repo), settle: releaseGrowth });
  const missing = new Map(kit.unresolved.map((u) => [u.id, u.missing]));
  const findings = report.findings.map((finding) => {
    const what = missing.get(finding.id);
    return what === undefined ? finding : { ...finding, note: [finding.note, `No file of the fix kit fixes this: it needs ${what}.`].filter(Boolean).join('; ') };
  });
  const lines: string[] = [];
  let withFixes: R = { ...report, findings };
  if (flags.fixes !== false) {
    const dir = fixOutDir(flags);
    // What building the kit made and dropped is collected before its files are written, when it is much (issue 41).
    releaseGrowth();
    const summary = await writeFixKit(kit, dir, output.outputs, output.runId, output.secrets);
    // Relative to the report's folder, so the same input gives the same report.json wherever it is written.
    const fromReport = relative(flags.out, dir).split(sep).join('/');
    withFixes = { ...withFixes, fixes: { ...summary, dir: fromReport, fromReport } };
    const resolved = new Set(kit.files.flatMap((file) => file.findings)).size;
    const left = kit.unresolved.length;
    lines.push(`fix kit: ${plural(kit.files.length, 'file')} in ${summary.dir} resolve ${plural(resolved, 'finding')}; ${plural(left, 'breaking finding')} ${left === 1 ? 'is' : 'are'} left to a person (see its README.md)`);
  }
  let changed: string[] = [];
  try {
    if (flags.fix) changed = await applyPatchedFiles(kit.patched, flags.repo);
  } catch (error) {
    // Nothing was changed (or what could not be put back is named): the reports are still written, then this line.
    if (error instanceof FixNotApplied) return { report: withFixes, lines, changed, failure: error.message };
    throw error;
  }
  if (flags.fix && changed.length === 0) lines.push('--fix: nothing to change in the repositories');
  return { report: withFixes, lines, changed };
}
