import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 39: a verdict is born in src/judge/ only, through the decision table. A verdict is born
 * wherever a string literal stands where a `Verdict` is expected (the type checker's contextual
 * type), so a verdict typed out in a rule, reader or report fails here, while reading one
 * (`finding.verdict === 'breaks'`, or a report counting `count('breaks')`: an argument asks, it sets
 * nothing) does not.
 */
const VERDICTS = ['breaks', 'review', 'unaffected'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [resolve(path)] : [];
  });
}

/** A call's argument, through parentheses and `a ? b : c`. */
function isArgument(node: ts.Node): boolean {
  let at: ts.Node = node;
  while (ts.isParenthesizedExpression(at.parent) || ts.isConditionalExpression(at.parent)) at = at.parent;
  return ts.isCallExpression(at.parent) && at.parent.arguments.includes(at as ts.Expression);
}

const isVerdictType = (type: ts.Type | undefined): boolean => {
  if (type === undefined) return false;
  const parts = type.isUnion() ? type.types : [type];
  const literals = new Set(parts.flatMap((part) => (part.isStringLiteral() ? [part.value] : [])));
  return VERDICTS.every((verdict) => literals.has(verdict));
};

/** `file:line 'literal'` for every verdict born outside src/judge/, with `extra` files added to the program. */
function verdictsBornOutsideJudge(extra: Readonly<Record<string, string>> = {}): string[] {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const planted = new Map(Object.entries(extra).map(([path, text]) => [resolve(path), text]));
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (path) => planted.get(resolve(path)) ?? readFile(path);
  host.fileExists = (path) => planted.has(resolve(path)) || fileExists(path);
  const roots = [...sourceFiles('src'), ...planted.keys()];
  const program = ts.createProgram(roots, options, host);
  const checker = program.getTypeChecker();
  const judge = resolve('src/judge') + '/';
  const found: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.startsWith(judge) || !roots.includes(resolve(file.fileName))) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && VERDICTS.includes(node.text) && !isArgument(node) && isVerdictType(checker.getContextualType(node))) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push(`${file.fileName.slice(resolve('.').length + 1)}:${line + 1} '${node.text}'`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** Relative imports of the files under `from` that land under `to`. */
function importEdges(from: string, to: string): string[] {
  return sourceFiles(from).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].flatMap(([, spec]) => (resolve(file, '..', spec!).startsWith(resolve(to) + '/') ? [`${file} → ${spec}`] : [])),
  );
}

describe('one judge (issue 39)', () => {
  it('no verdict is born outside src/judge/', () => {
    expect(verdictsBornOutsideJudge()).toEqual([]);
  }, 120_000);

  it('fails when a rule types a verdict out, and not when it only reads one', () => {
    const planted = {
      'src/rules/planted-verdict.ts': [
        "import type { Finding, Verdict } from '../model/finding.js';",
        "export const set = (f: Finding): Finding => ({ ...f, verdict: 'breaks' });",
        "export const read = (f: Finding): boolean => f.verdict === 'review';",
        "export function pick(n: number): Verdict { return n > 0 ? 'review' : 'unaffected'; }",
        "export const count = (of: (v: Verdict) => number): number => of('breaks');",
      ].join('\n'),
    };
    expect(verdictsBornOutsideJudge(planted).filter((site) => site.startsWith('src/rules/planted-verdict.ts'))).toEqual([
      "src/rules/planted-verdict.ts:2 'breaks'",
      "src/rules/planted-verdict.ts:4 'review'",
      "src/rules/planted-verdict.ts:4 'unaffected'",
    ]);
  }, 120_000);

  it('jq/ only runs jq: it imports nothing of judge/; the judge imports nothing of access/', () => {
    expect(importEdges('src/jq', 'src/judge')).toEqual([]);
    expect(importEdges('src/judge', 'src/access')).toEqual([]);
  });

  it('the catalog is the lower layer: it imports nothing of judge/ (types included), so the two form no circle', () => {
    expect(importEdges('src/catalog', 'src/judge')).toEqual([]);
    expect(importEdges('src/judge', 'src/catalog').length).toBeGreaterThan(0);
  });

  it('rules name sites and import nothing of judge/ (types included); the judge imports nothing of rules/', () => {
    expect(importEdges('src/rules', 'src/judge')).toEqual([]);
    expect(importEdges('src/judge', 'src/rules')).toEqual([]);
  });

  it("file readers name sites and import nothing of judge/: src/repo/judge.ts is the repository's one judging entry", () => {
    expect(importEdges('src/repo', 'src/judge').filter((edge) => !edge.startsWith(`${resolve('src/repo/judge.ts')} `))).toEqual([]);
    expect(importEdges('src/repo', 'src/judge').length).toBeGreaterThan(0);
  });

  it('the import check fails when a rule imports the judge, even a type alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'one-judge-'));
    try {
      mkdirSync(join(dir, 'rules'));
      mkdirSync(join(dir, 'judge'));
      writeFileSync(join(dir, 'judge', 'decision-table.ts'), 'export const x = 1;\n');
      writeFileSync(join(dir, 'rules', 'planted.ts'), "import type { x } from '../judge/decision-table.js';\nexport const y = 2;\n");
      expect(importEdges(join(dir, 'rules'), join(dir, 'judge'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/decision-table.md', () => {
  it('names every row of the site table with its verdict', async () => {
    const { SITE_TABLE } = await import('../../src/judge/decision-table.js');
    const docs = readFileSync('docs/decision-table.md', 'utf8');
    const missing = Object.entries(SITE_TABLE).filter(([site, row]) => !docs.includes(`| \`${site}\` | ${row.verdict} |`));
    expect(missing).toEqual([]);
  });
});

describe('docs/decision-table.md prints the decision table', () => {
  it('one line per row of DECISION_TABLE, in its order, with its class and verdict', async () => {
    const { DECISION_TABLE } = await import('../../src/judge/decision-table.js');
    const docs = readFileSync('docs/decision-table.md', 'utf8');
    const table = docs.slice(docs.indexOf('## The table')).split('\n\n')[1]!.split('\n').slice(2);
    const printed = table.map((line) => line.split('|').map((cell) => cell.trim().replaceAll('*', '')));
    expect(printed.map((cells) => [cells[1] === 'no answer (timeout, crash)' ? 'failed' : cells[1], cells[5]!.split(/[ ,(]/)[0]])).toEqual(DECISION_TABLE.map((row) => [row.class, row.verdict]));
  });
});

describe('every row of the decision table has its case (issue 39)', () => {
  it('each row of DECISION_TABLE decides some input, and is the first to match it', async () => {
    const { DECISION_TABLE, decide } = await import('../../src/judge/decision-table.js');
    const classes = ['failed', 'same', 'substituted', 'changed'] as const;
    const sinks = ['team-value', 'team-comparison', 'gate', 'shown', 'outside'] as const;
    const states = ['before', 'after', 'unknown'] as const;
    const literals = ['plain', 'written-for-identifiers', 'identifier-was-title', 'meets-more-teams', 'entity-text', 'stand-in-only', 'identifier-unknown', 'unfilled', 'dead', 'classes-unrun'] as const;
    const inputs = classes.flatMap((c) => sinks.flatMap((sink) => states.flatMap((state) => literals.map((l) => ({ class: c, sink, state, literals: l })))));
    const reached = new Set(inputs.map((input) => decide(input).row));
    expect([...reached].sort((a, b) => a - b)).toEqual(DECISION_TABLE.map((_, i) => i));
    // Each row's own verdict is what deciding one of its inputs gives.
    for (const [i, row] of DECISION_TABLE.entries()) {
      const input = inputs.find((candidate) => decide(candidate).row === i)!;
      expect(decide(input).verdict, `row ${i}`).toBe(row.verdict);
    }
  });

  it('each site row gives its verdict, and the gravest of several verdicts is the one kept', async () => {
    const { SITE_TABLE, judgeSite, worstVerdict, gravest } = await import('../../src/judge/decision-table.js');
    for (const [site, row] of Object.entries(SITE_TABLE)) expect(judgeSite(site as keyof typeof SITE_TABLE), site).toBe(row.verdict);
    expect(worstVerdict([])).toBe(judgeSite('finds-each-team'));
    expect(worstVerdict([judgeSite('finds-each-team'), undefined])).toBe(judgeSite('not-run'));
    expect(worstVerdict([judgeSite('not-run'), judgeSite('removed-relation'), judgeSite('finds-each-team')])).toBe(judgeSite('removed-relation'));
    const items = [{ id: 1, v: judgeSite('not-run') }, { id: 2, v: judgeSite('removed-relation') }, { id: 3, v: judgeSite('removed-relation') }] as const;
    expect(gravest([...items] as [(typeof items)[number], ...(typeof items)[number][]], (item) => item.v).id).toBe(2);
  });
});
