import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * vitest's global setup: every run of the suite keeps its temporary files in one folder of its
 * own, removed when the run ends. Before, each run left some 700 folders in the system temp
 * folder (a live test alone made about 200), and a developer's machine held tens of thousands.
 *
 * The run folder reaches every test through TMPDIR: this setup runs in vitest's main process
 * before any worker starts, and the `forks` pool starts each worker with a copy of the main
 * process's environment taken when the tests are scheduled (so `test.env` is not needed, and
 * could not name a folder made here). `os.tmpdir()` reads TMPDIR on every call, in the workers
 * and in every process they spawn with the inherited environment (the CLI, git, npm, Chromium).
 *
 * When the run ends, anything new in the real temp folder whose name starts like one the tests
 * that ran (or the action's scripts they run) give a temporary file, and like none this run made
 * in its own folder, is something a test put outside the run folder (a hard-coded path, a child
 * started without TMPDIR): the run fails and names it.
 */

/** The run folders' own prefix, so one run never blames another run's folder. */
export const RUN_FOLDER_PREFIX = 'tma-test-run-';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's temporary folder (the workers' TMPDIR). */
    runTempFolder: string;
    /** The temp folder the machine gives everyone, which the tests must leave as they found it. */
    realTempFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const realTemp = tmpdir();
  const before = new Set(readdirSync(realTemp));
  const runFolder = mkdtempSync(join(realTemp, RUN_FOLDER_PREFIX));
  // Sticky and open to all, as the system temp folder is: the unreadable-file cases run as an
  // unprivileged user (test/hostile/helpers.ts) and create their scratch folders in here.
  chmodSync(runFolder, 0o1777);
  process.env.TMPDIR = runFolder;
  project.provide('runTempFolder', runFolder);
  project.provide('realTempFolder', realTemp);

  return () => {
    process.env.TMPDIR = realTemp;
    const madeHere = new Set(readdirSync(runFolder).map(stemOf));
    try {
      removeTree(runFolder);
    } catch (error) {
      // Still checked below: a folder left behind is named, not a reason to skip the check.
      console.warn(`could not remove the run's temp folder ${runFolder}: ${(error as Error).message}`);
    }
    const left = leftInRealTemp(before, readdirSync(realTemp), suiteTempPrefixes(project.config.root, ranFiles(project)), madeHere);
    if (left.length > 0) {
      // vitest logs an error thrown here but keeps the run's exit code: the code is set first.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in ${realTemp} instead of the run's own temp folder: ${left.slice(0, 20).join(', ')}` +
          ' (a hard-coded temp path, or a child process started without TMPDIR; rarely, a run of the same tests from an older checkout at the same time)',
      );
    }
  };
}

/** Removes a folder whatever a test left in it: a folder without permissions is opened first. */
function removeTree(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    openUp(folder);
    rmSync(folder, { recursive: true, force: true });
  }
}

function openUp(folder: string): void {
  chmodSync(folder, 0o700);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) openUp(join(folder, entry.name));
  }
}

/** The test files this run ran, by absolute path. */
function ranFiles(project: TestProject): Set<string> {
  return new Set(project.vitest.state.getFiles().map((file) => file.filepath));
}

/** A temporary name without the six random characters mkdtemp and mktemp end it with. */
export const stemOf = (name: string): string => name.slice(0, -6);

/**
 * The entries of `now` that were not in `before` and are named like the suite's temporary files,
 * but not like any this run made in its own folder (`madeHere`, by stem): those are another run's
 * of the same tests at the same time (an older checkout's, which writes to the real temp folder),
 * since a test that ignores TMPDIR makes none of its kind in the run folder.
 */
export function leftInRealTemp(before: ReadonlySet<string>, now: readonly string[], prefixes: readonly string[], madeHere: ReadonlySet<string>): string[] {
  return now
    .filter((name) => !before.has(name) && !name.startsWith(RUN_FOLDER_PREFIX) && prefixes.some((prefix) => name.startsWith(prefix)) && !madeHere.has(stemOf(name)))
    .sort();
}

/**
 * The prefixes the tests in `ran` (absolute paths; every test file when undefined) give their
 * temporary files: the literal starting each name passed to mkdtemp beside `tmpdir()` (or to a
 * helper making a temporary checkout) in those files and the helpers they import, and, when one
 * of them runs the action's scripts, the names those give `mktemp`. Only the tests that ran: a
 * run of other tests at the same time (an older checkout's, writing to the real temp folder) is
 * not this run's leak.
 */
export function suiteTempPrefixes(root: string, ran?: ReadonlySet<string>): string[] {
  const testDir = join(root, 'test');
  const all = readdirSync(testDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => join(testDir, file));
  // The files that ran and, transitively, the test helpers they import.
  const active = new Set(ran === undefined ? all : all.filter((file) => ran.has(file)));
  for (const file of active) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)\.js'/g)) {
      const helper = resolve(dirname(file), `${specifier}.ts`);
      if (helper.startsWith(testDir) && all.includes(helper)) active.add(helper);
    }
  }
  const prefixes = new Set<string>();
  const made: { helper: string; head: string; tail: string }[] = [];
  let runsScripts = false;
  for (const file of active) {
    const text = readFileSync(file, 'utf8');
    runsScripts ||= /'action', '[a-z-]+\.sh'/.test(text);
    let helper: string | undefined;
    for (const line of text.split('\n')) {
      helper = /^export (?:async )?function (\w+)\(/.exec(line)?.[1] ?? helper;
      if (!/tmpdir\(|mkdtemp|temporaryRepository\(/.test(line)) continue;
      for (const match of line.matchAll(/['"`]([a-z][a-z0-9.-]*[-.])['"`]/g)) prefixes.add(match[1]!);
      // A name made from a helper's argument (`tma-${name}-`) counts as its callers name it: its
      // head alone (`tma-`) would claim every other test's folders too.
      for (const [, head, tail] of line.matchAll(/`([a-z][a-z0-9.-]*)\$\{\w+\}([a-z0-9.-]*)`/g)) if (helper) made.push({ helper, head: head!, tail: tail! });
    }
  }
  for (const { helper, head, tail } of made) {
    for (const file of active) for (const [, name] of readFileSync(file, 'utf8').matchAll(new RegExp(`\\b${helper}\\('([^']+)'`, 'g'))) prefixes.add(`${head}${name}${tail}`);
  }
  for (const file of runsScripts ? readdirSync(join(root, 'action')) : []) {
    if (!file.endsWith('.sh')) continue;
    for (const match of readFileSync(join(root, 'action', file), 'utf8').matchAll(/mktemp[^\n]*?\/([A-Za-z0-9-]+\.)X+/g)) prefixes.add(match[1]!);
  }
  return [...prefixes].sort();
}
