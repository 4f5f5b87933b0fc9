/**
 * No file of src imports itself back through others, types included: a circle ties files that cannot then be read,
 * tested or moved one at a time (the judge, the catalog and the model each had one).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = [...text.matchAll(/(?:from\s+|import\()'(\.{1,2}\/[^']+)\.js'/g)]
      .map(([, spec]) => relative(SRC, resolve(SRC, dirname(file), `${spec}.ts`)))
      .filter((target) => known.has(target));
    return [file, targets];
  }));
}

/** Tarjan's strongly connected components, keeping those of two or more files. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports in src', () => {
  const graph = importGraph(fg.sync('**/*.ts', { cwd: SRC }));

  it('form no circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('are read: a planted pair is found as a circle', () => {
    const planted = new Map(graph);
    planted.set('progress/compute-progress.ts', [...(graph.get('progress/compute-progress.ts') ?? []), 'progress/read-previous-report.ts']);
    planted.set('progress/read-previous-report.ts', [...(graph.get('progress/read-previous-report.ts') ?? []), 'progress/compute-progress.ts']);
    expect(circles(planted)).toEqual([['progress/compute-progress.ts', 'progress/read-previous-report.ts']]);
  });
});
