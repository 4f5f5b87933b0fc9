import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { transpileForChild } from '../helpers/transpile.js';
import { recoverOutputs } from '../support/recover-outputs.js';

/*
 * Issue 23's promise, tested at every moment of the write instead of at random ones (issue 31: a
 * kill "within a fixed time" tested the machine's speed). A child writes the outputs of run B over
 * a complete set of run A through the output set the CLI uses, and kills itself with SIGKILL at one
 * fault point: after the lock, halfway through each staged file, after each staged file and folder,
 * after the journal, after each rename, after the removals, after the commit. For every point, --out
 * as the kill left it holds no cut file and files of A or B only; once the next run has finished or
 * cleared what was left, it holds exactly run A (killed before the journal, the commit point) or
 * exactly run B (killed after it), and nothing else.
 */
const FILES = ['report.json', 'index.html', 'report.sarif', 'summary.md'];
/** Run B writes no summary.md: the commit removes A's, as a format not asked for again is. */
const B_FILES = FILES.filter((name) => name !== 'summary.md');
const KIT = ['README.md', 'org/blueprint/service.json', 'predicted-org.json'];

const CHILD = `
import { writeFile } from 'node:fs/promises';
import { openOutputSet } from './output-set.js';
const [out, killAt] = [process.argv[2], Number(process.argv[3])];
const file = (run) => 'run ' + run + '\\n' + 'x'.repeat(64 * 1024) + '\\nend of run ' + run + '\\n';
let reached = 0;
/** A fault point: listed when counting, the process killed at once (nothing after runs) when it is the one. */
const point = (name) => {
  if (reached++ === killAt) process.kill(process.pid, 'SIGKILL');
  if (killAt < 0) process.stdout.write(name + '\\n');
};
const faults = {
  afterLock: () => point('after the lock'),
  afterStage: (target) => point('after staging ' + target.slice(out.length + 1)),
  afterJournal: () => point('after the journal'),
  afterMove: (target) => point('after moving ' + target.slice(out.length + 1)),
  afterRemovals: () => point('after the removals'),
  afterCommit: () => point('after the commit'),
};
// Halfway through a staged file: its first half written, then the point.
const write = async (path, content) => {
  if (reached === killAt) {
    await writeFile(path, String(content).slice(0, String(content).length / 2));
    point('halfway through a staged file');
  } else {
    if (killAt < 0) point('halfway through a staged file');
    else reached++;
    await writeFile(path, content);
  }
};
const outputs = await openOutputSet(out, { write, faults });
await outputs.stageDir(out + '/fixes', ${JSON.stringify(KIT)}.map((path) => ({ path, content: file('B') })), 'run B\\n');
for (const name of ${JSON.stringify(B_FILES)}) await outputs.stageFile(out + '/' + name, file('B'));
await outputs.commit([out + '/summary.md']);
await outputs.close();
`;

/** The run each output in `out` is from; throws on a cut file. */
function runsIn(out: string): Map<string, string> {
  const runs = new Map<string, string>();
  const paths = [...FILES, ...KIT.map((path) => `fixes/${path}`)].filter((path) => existsSync(join(out, path)));
  for (const path of paths) {
    const text = readFileSync(join(out, path), 'utf8');
    const run = /^run (\w+)\n/.exec(text)?.[1];
    if (!run || !text.endsWith(`\nend of run ${run}\n`)) throw new Error(`${path} is cut (${text.length} characters)`);
    runs.set(path, run);
  }
  return runs;
}

/** What a complete set of run `run` holds, file by file. */
const setOf = (run: 'A' | 'B') =>
  new Map([...(run === 'A' ? FILES : B_FILES).map((name) => [name, run] as const), ...KIT.map((path) => [`fixes/${path}`, run] as const)]);

function runChild(script: string, out: string, killAt: number): Promise<{ stdout: string; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, out, String(killAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (_code, signal) => resolve({ stdout, signal, stderr }));
  });
}

describe('kill -9 at every fault point of the write', () => {
  let script = '';
  let outputSet: typeof import('../../src/output/output-set.js');
  beforeAll(async () => {
    const dir = transpileForChild(['src/output/output-set.ts']);
    script = join(dir, 'src', 'output', 'kill-child.mjs');
    writeFileSync(script, CHILD);
    outputSet = (await import(pathToFileURL(join(dir, 'src', 'output', 'output-set.js')).href)) as typeof import('../../src/output/output-set.js');
  });

  /** A fresh --out holding a complete set of run A, as the previous run left it. */
  async function previousRun(): Promise<string> {
    const out = mkdtempSync(join(tmpdir(), 'tma-kill-'));
    const first = await outputSet.openOutputSet(out);
    const content = `run A\n${'x'.repeat(1024)}\nend of run A\n`;
    await first.stageDir(join(out, 'fixes'), KIT.map((path) => ({ path, content })), 'run A\n');
    for (const name of FILES) await first.stageFile(join(out, name), content);
    await first.commit();
    await first.close();
    return out;
  }

  it('never a cut file; after recovery exactly the previous set or exactly the new one, whichever side of the journal the kill fell', async () => {
    // The points in the order a whole write meets them.
    const counted = await runChild(script, await previousRun(), -1);
    expect(counted.signal, counted.stderr).toBeNull();
    const points = counted.stdout.split('\n').filter(Boolean);
    const journal = points.indexOf('after the journal');
    expect(points[0]).toBe('after the lock');
    expect(points.filter((name) => name === 'halfway through a staged file')).toHaveLength(KIT.length + 1 + B_FILES.length);
    expect(points.filter((name) => name.startsWith('after moving '))).toHaveLength(1 + B_FILES.length);
    expect(journal).toBeGreaterThan(0);
    expect(points.at(-1)).toBe('after the commit');

    for (const [index, name] of points.entries()) {
      const out = await previousRun();
      const killed = await runChild(script, out, index);
      const at = `killed ${name} (point ${index})`;
      expect(killed.signal, `${at}: ${killed.stderr}`).toBe('SIGKILL');
      // As the kill left it: whole files only, each of A or B; a single run unless the commit was cut.
      const left = runsIn(out);
      const cut = existsSync(join(out, '.teams-migration-audit.commit.json'));
      expect(cut, at).toBe(index >= journal && name !== 'after the commit');
      if (!cut) expect(new Set(left.values()).size, at).toBe(1);
      // What the next run does first; then one run, whole, and nothing else in --out.
      await recoverOutputs(out, outputSet.openOutputSet);
      expect(runsIn(out), at).toEqual(setOf(index < journal ? 'A' : 'B'));
      expect(readdirSync(out).sort(), at).toEqual([...(index < journal ? FILES : B_FILES), 'fixes'].sort());
      expect(readdirSync(join(out, 'fixes')).sort(), at).toEqual(['.teams-migration-audit-fix-kit', 'README.md', 'org', 'predicted-org.json']);
    }
  });
});
