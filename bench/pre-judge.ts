/**
 * The analysis as it was at an earlier commit, so bench:analyze can time both in the same run
 * instead of against a figure taken on another day under another load. The tree of that commit is
 * taken from git (`git archive`), its bench and command line compiled with our TypeScript against
 * our node_modules, once, into `.tools/pre-judge/<commit>/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The last commit before the judge (main at 187ba9d, 24 November 2026; the judge came with bae0846): issue 33's reference. */
export const PRE_JUDGE_COMMIT = '187ba9d83f461095bc4522007f39d51045ef8c52';
/** Main when issue 39 (one judge) was filed, 27 November 2026: that reference for the 10x org's wall time. */
export const ONE_JUDGE_FILED_COMMIT = 'de0c8a9b1b08bf9dd28a97f04bd75edc1d7dd095';

/** Our repository's root: `.tools/bench/` when compiled, `bench/` as source. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json')) ? '..' : '../..');

/** The compiled analyze bench and command line of `commit`, built on first use; the reason when git cannot give the tree. */
export function analyzeBenchAt(commit: string = PRE_JUDGE_COMMIT): { script: string; cli: string } | { unavailable: string } {
  const dir = join(ROOT, '.tools', 'pre-judge', commit.slice(0, 12));
  const script = join(dir, '.tools', 'bench', 'analyze-bench.js');
  const cli = join(dir, '.tools', 'src', 'main.js');
  if (existsSync(script) && existsSync(cli)) return { script, cli };
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, 'src', 'bench', 'test/helpers', 'templates', 'schemas', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // Only the analyze bench, the command line, and what they import.
    writeFileSync(join(dir, 'tsconfig.pre-judge.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: '.', outDir: '.tools', sourceMap: false, noEmitOnError: false }, files: ['bench/analyze-bench.ts', 'src/main.ts'] }));
    const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.pre-judge.json')], { stdio: 'pipe' });
    } catch {
      // Type errors against today's node_modules types do not stop the emit; a missing output does.
    }
    if (!existsSync(script) || !existsSync(cli)) return { unavailable: `the tree of ${commit.slice(0, 7)} did not compile` };
    return { script, cli };
  } catch (error) {
    return { unavailable: `git could not give the tree of ${commit.slice(0, 7)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
}
