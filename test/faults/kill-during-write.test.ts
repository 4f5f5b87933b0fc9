import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { transpileForChild } from '../helpers/transpile.js';

/*
 * Issue 23 "done when": kill -9 at a random moment of the write, 50 times, never leaves a cut file,
 * and the files in --out always come from one run. A child writes output sets of two alternating
 * runs (each file 256 KB, ending in a closing line) through the output set the CLI uses, as fast as
 * it can; it is killed at a random moment within about three of its rounds (timed by the writer,
 * so a busy machine widens the window), and --out is checked as it was left. A kill while the
 * staged files are renamed into place (about 1 round in 10 here, where a round is a few ms; under
 * a millisecond of a real run) leaves the journal, and the set is one run's again once the next
 * run on that --out has finished it: that is checked after every round.
 */
const ROUNDS = 50;
const FILES = ['report.json', 'index.html', 'report.sarif', 'summary.md'];
const KIT = ['README.md', 'org/blueprint/service.json', 'predicted-org.json'];

const CHILD = `
import { openOutputSet } from './output-set.js';
const out = process.argv[2];
const body = 'x'.repeat(256 * 1024);
const file = (run) => 'run ' + run + '\\n' + body + '\\nend of run ' + run + '\\n';
for (let round = 0; ; round++) {
  const run = round % 2 === 0 ? 'aaaa' : 'bbbb';
  const started = performance.now();
  const outputs = await openOutputSet(out);
  await outputs.stageDir(out + '/fixes', ${JSON.stringify(KIT)}.map((path) => ({ path, content: file(run) })), 'run ' + run + '\\n');
  for (const name of ${JSON.stringify(FILES)}) await outputs.stageFile(out + '/' + name, file(run));
  await outputs.commit();
  await outputs.close();
  // How long a round takes on this machine now: the kill lands within the next few.
  if (round === 0) process.stdout.write(String(Math.ceil(performance.now() - started)) + '\\n');
}
`;

/** The run each file of `out` is from; throws on a cut file. */
function runsIn(out: string): Set<string> {
  const runs = new Set<string>();
  const paths = [...FILES, ...KIT.map((path) => `fixes/${path}`)].filter((path) => existsSync(join(out, path)));
  for (const path of paths) {
    const text = readFileSync(join(out, path), 'utf8');
    const run = /^run (\w+)\n/.exec(text)?.[1];
    if (!run || !text.endsWith(`\nend of run ${run}\n`)) throw new Error(`${path} is cut (${text.length} characters)`);
    runs.add(run);
  }
  // Between moving the old kit aside and the new one in, a cut commit has no kit (its journal finishes it).
  const marker = join(out, 'fixes', '.teams-migration-audit-fix-kit');
  if (existsSync(marker)) runs.add(/^run (\w+)/.exec(readFileSync(marker, 'utf8'))![1]!);
  return runs;
}

function killAtRandom(script: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // At a random moment within about three rounds of the writer, as long as a round takes on this
    // machine now: a fixed window missed the second run's commit on a busy machine.
    child.stdout.once('data', (chunk: Buffer) => setTimeout(() => child.kill('SIGKILL'), Math.random() * 3 * Math.max(10, Number(chunk.toString()) || 20)));
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer stopped by itself: ${stderr}`))));
  });
}

describe('kill -9 at a random moment of the write', () => {
  it(`${ROUNDS} times: never a cut file, and the files in --out are always of one run`, async () => {
    const dir = transpileForChild(['src/output/output-set.ts']);
    const script = join(dir, 'src', 'output', 'kill-child.mjs');
    writeFileSync(script, CHILD);
    const { openOutputSet, recoverOutputs } = (await import(pathToFileURL(join(dir, 'src', 'output', 'output-set.js')).href)) as typeof import('../../src/output/output-set.js');
    const out = mkdtempSync(join(tmpdir(), 'tma-kill-'));
    // A complete set of a first run, so every check below has one to find.
    const first = await openOutputSet(out);
    const initial = (path: string) => ({ path, content: `run init\n\nend of run init\n` });
    await first.stageDir(join(out, 'fixes'), KIT.map(initial), 'run init\n');
    for (const name of FILES) await first.stageFile(join(out, name), initial(name).content);
    await first.commit();
    await first.close();
    const seen = new Set<string>();
    let cutCommits = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await killAtRandom(script, out);
      // As the kill left it: nothing cut; one run, unless a commit was cut after its journal.
      const runs = runsIn(out);
      const journal = existsSync(join(out, '.teams-migration-audit.commit.json'));
      if (journal) cutCommits++;
      else expect(runs.size, `round ${round}: ${[...runs].join(', ')}`).toBe(1);
      if (!journal) expect(existsSync(join(out, 'fixes', '.teams-migration-audit-fix-kit'))).toBe(true);
      // What the next run does first: finish or clear what was left. Then one run whatever happened.
      await recoverOutputs(out);
      const after = runsIn(out);
      expect(after.size, `round ${round} after recovery`).toBe(1);
      seen.add([...after][0]!);
      expect(readdirSync(out).sort()).toEqual([...FILES, 'fixes'].sort());
    }
    // Both runs were seen in place: the kills did land at different moments of the writing.
    expect(seen).toContain('aaaa');
    expect(seen).toContain('bbbb');
    expect(cutCommits).toBeLessThan(ROUNDS);
  }, 60_000);
});
