import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The step outputs a script wrote to GITHUB_OUTPUT (`name=value` lines), as the runner reads them. */
export function stepOutputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** git in a test's checkout, with an author of its own (the machine may have none). */
export const git = (cwd: string, ...args: string[]): Buffer => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' });

/** A git checkout in a fresh temporary folder holding `files` (path → text), committed once. */
export function committedCheckout(name: string, files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), `tma-${name}-`));
  git(dir, 'init', '-q');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'main');
  return dir;
}
