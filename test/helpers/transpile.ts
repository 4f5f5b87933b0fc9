import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * `entries` (repository paths of .ts modules) and every module they import by a relative path,
 * transpiled to .js in a fresh temporary folder, for a test that must run them in a process of its
 * own (to see it exit, or to kill it). Even the whole CLI takes a second or two, not a build.
 * Returns the folder; `entries[i]` is at `<folder>/<entries[i] with .js>`. `asPackage` makes the
 * folder look like the package (for the CLI, which imports packages and reads its templates):
 * node_modules, templates, schemas and the demo org linked in, package.json copied.
 */
export function transpileForChild(entries: readonly string[], options: { asPackage?: boolean } = {}): string {
  const out = mkdtempSync(join(tmpdir(), 'tma-transpiled-'));
  if (options.asPackage) {
    for (const entry of ['node_modules', 'templates', 'schemas', 'fixtures']) symlinkSync(join(ROOT, entry), join(out, entry), 'dir');
  }
  const pending = entries.map((entry) => resolve(ROOT, entry));
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) pending.push(resolve(dirname(file), `${match[1]}.ts`));
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
    const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(out, 'package.json'), options.asPackage ? readFileSync(join(ROOT, 'package.json')) : '{"type":"module"}');
  return out;
}
