// `npm start`'s pre-step: compile only when a source changed since the last build. The analysis of
// the demo takes half a second; compiling the whole project on every start took 6–7 s.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: the sources and the settings that change what it writes. */
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** Written after a build that succeeded; its time is the build's. */
export const STAMP = join('dist', '.build-stamp');

function newestIn(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestIn(join(path, name))));
}

/** Whether `root` needs a build: no stamp or no dist/main.js, or an input newer than the stamp. */
export function needsBuild(root) {
  const stamp = statSync(join(root, STAMP), { throwIfNoEntry: false });
  if (!stamp || !existsSync(join(root, 'dist', 'main.js'))) return true;
  return Math.max(...INPUTS.map((input) => newestIn(join(root, input)))) > stamp.mtimeMs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  if (needsBuild(root)) {
    const built = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
    writeFileSync(join(root, STAMP), `${new Date().toISOString()}\n`);
  }
}
