import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * `entries` (repository paths of .ts modules) and every module they import by a relative path,
 * transpiled to .js in a fresh folder, for a test that must run them in a process of its own (to
 * see it exit, or to kill it). A few modules take milliseconds, not the whole project's build.
 * Returns the folder; `entries[i]` is at `<folder>/<entries[i] with .js>`. `beside` puts it inside
 * the repository, for modules that import packages.
 */
export function transpileForChild(entries: readonly string[], options: { beside?: boolean } = {}): string {
  // Beside the repository (in .tools/, ignored by git) when the modules import packages or templates:
  // node_modules and the package root are then found by walking up, as from src/.
  const parent = options.beside ? join(ROOT, '.tools') : tmpdir();
  mkdirSync(parent, { recursive: true });
  const out = mkdtempSync(join(parent, 'tma-transpiled-'));
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
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  return out;
}
