import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { repoContext } from '../../src/repo/context.js';
import { ignoreFileRules } from '../../src/repo/gitignore.js';
import { textSecretFragments } from '../../src/repo/redact-findings.js';
import { judgeReadings } from '../../src/repo/judge.js';
import { analyzeFile, classifyPath, scanRepositories } from '../../src/repo/scan.js';
import { SourceSyntaxError, sourceText } from '../../src/repo/source-text.js';
import { parseYaml } from '../../src/repo/yaml-tree.js';
import { redactSecrets } from '../../src/sources/redact.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { readReport, runWithin, scratchDir, timed } from './helpers.js';

/** Unreadable files also carry the id a baseline accepts them by (test/ci/unreadable-accepted.test.ts); here only what and why. */
const withoutIds = (items: { resource: string; reason: string }[]) => items.map(({ resource, reason }) => ({ resource, reason }));

// Issue 16 items 1 and 2 (and the nesting of code files): hostile repository files. Each case
// asserts the exit code, a time bound, and that the report names the file it could not read.

const HOSTILE = 'test/fixtures/hostile';
const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'));
const MB = 1_000_000;

describe('a YAML file whose aliases expand to billions of values', () => {
  it('is reported as unreadable in well under a second of CPU, and the run ends incomplete with its report', async () => {
    const out = scratchDir('alias-out');
    const run = await runWithin(['analyze', '--repo', `${HOSTILE}/alias-bomb-repo`, '--out', out, '--format', 'json', '--fail-on', 'none']);
    expect(run.code).toBe(3);
    expect(run.cpuMs).toBeLessThan(5_000); // CPU time, the jq engine's start included; the scan itself is below
    const { cpuMs } = await timed(() => scanRepositories([`${HOSTILE}/alias-bomb-repo`], { catalog }));
    expect(cpuMs).toBeLessThan(1_000);
    expect(withoutIds(readReport(out).incomplete)).toEqual([
      { resource: `${HOSTILE}/alias-bomb-repo/port.yml:1`, reason: expect.stringMatching(/^could not be read \(line 1\): its aliases expand to more than 10000 values.*the file was not checked$/) },
    ]);
  });

  it('still reads a file that uses aliases as people do (negative case)', async () => {
    const dir = scratchDir('alias-ok');
    writeFileSync(
      join(dir, 'port-app-config.yml'),
      ['defaults: &defaults', '  team: \'"Payments"\'', 'resources:', '  - kind: repository', '    port:', '      entity:', '        mappings:', '          identifier: .name', '          blueprint: \'"service"\'', '          <<: *defaults', ''].join('\n'),
    );
    const scan = await scanRepositories([dir], { catalog });
    expect(scan.incomplete).toEqual([]);
    expect(scan.findings.map((f) => f.category)).toContain('integration-mapping');
  });

  it('as a teams map, is one line and exit 2 at once', async () => {
    const run = await runWithin(['analyze', '--snapshot', 'fixtures/demo-org.json', '--teams-map', `${HOSTILE}/alias-bomb-teams.yaml`, '--out', scratchDir('alias-teams')]);
    expect(run.code).toBe(2);
    expect(run.cpuMs).toBeLessThan(1_000);
    expect(run.stderr).toBe(`teams-migration-audit: ${HOSTILE}/alias-bomb-teams.yaml: not read: its aliases expand to more than 10000 values, more than the text could hold without them\n`);
  });
});

/** The shapes that make a pattern retry from every character of a run: ~1 MB each. */
const SHAPES: Record<string, string> = {
  'one long name': 'a'.repeat(MB),
  'dotted words': 'a.'.repeat(MB / 2),
  'spaces inside a key-like line': `a${' '.repeat(MB)}b`,
  'list dashes': '- '.repeat(MB / 2),
  'trailing slashes and spaces': `a${'/'.repeat(MB / 2)}${' '.repeat(MB / 2)}b`,
  'question marks and templates': '?a&b={{'.repeat(MB / 7),
  'schemes without a host': 'a.a://'.repeat(MB / 6),
};

describe('every pattern over file text, on a line of 1 MB', () => {
  // The functions of src/repo (and the redaction they call) that run regular expressions over a
  // file's own text; the tokenizer and parsers walk characters by hand.
  const PATTERN_USERS: Record<string, (line: string) => unknown> = {
    'YAML key lines (parseYaml)': (line) => parseYaml(sourceText('port.yml', `description: |\n  ${line}\nteam: x\n`)),
    'secret keys in file text (textSecretFragments)': (line) => textSecretFragments(`token: ${line}\n${line}`),
    'URL and query redaction (redactSecrets)': (line) => redactSecrets({ url: line, headers: { auth: line } }),
    // Capped at 64 KB a file: the line's first 60 KB, as a pattern and as a path to match.
    '.gitignore lines': (line) => {
      const rules = ignoreFileRules(`${line.slice(0, 60_000)}\n`);
      return 'refused' in rules ? rules : rules.ignores(line.slice(0, 60_000).replace(/^\/+/, '') || 'x');
    },
    'embedded YAML in a heredoc (readEmbedded)': (line) => scanText('main.tf', `resource "port_integration" "x" {\n  config = <<EOF\n${line}: x\nEOF\n}\n`),
  };
  for (const [name, use] of Object.entries(PATTERN_USERS)) {
    it(`${name} take under a second of CPU whatever the shape`, async () => {
      for (const [shape, line] of Object.entries(SHAPES)) {
        const { cpuMs } = await timed(() => {
          try {
            use(line);
          } catch (error) {
            if (!(error instanceof SourceSyntaxError)) throw error; // not every shape is valid YAML
          }
        });
        expect({ shape, cpuMs: Math.round(cpuMs), fast: cpuMs < 1_000 }).toMatchObject({ shape, fast: true });
      }
    });
  }

  it('the issue\'s port.yml (spaces after a key-like word) still gives the team written after it', async () => {
    const dir = scratchDir('issue-line');
    writeFileSync(join(dir, 'port.yml'), `identifier: svc\ndescription: >\n  x${' '.repeat(300_000)}y\nteam: Payments\n`);
    const { result: scan, cpuMs } = await timed(() => scanRepositories([dir], { catalog }));
    expect(cpuMs).toBeLessThan(1_000);
    expect(scan.findings.map((f) => [f.location.replace(/^.*\//, ''), f.category])).toEqual([['port.yml:4', 'external-ownership']]);
  });
});

/** A file of every kind the scan reads, its hostile line after a head that makes its analyzer read on. */
const KINDS: [file: string, head: string][] = [
  ['main.tf', 'resource "port_blueprint" "x" {\n  identifier = "x"\n'],
  ['port.yml', 'identifier: svc\ndescription: |\n  '],
  ['port-app-config.yml', 'resources:\n  - kind: x\n    selector: |\n      '],
  ['.github/workflows/sync.yml', 'on: push\njobs:\n  a:\n    steps:\n      - run: |\n          '],
  ['payload.json', '{"identifier": "x", "description": "'],
  ['sync.js', 'fetch("https://api.getport.io/v1/blueprints", { body: "'],
  ['index.ts', 'import * as port from "@port-labs/port";\nconst d = "'],
  ['sync.py', 'requests.post("https://api.getport.io/v1/blueprints", data="'],
  ['sync.sh', 'curl https://api.getport.io/v1/blueprints -d \''],
];

describe('a whole repository file with a 1 MB line', () => {
  // Tokenizing a megabyte of one-character tokens costs up to a second or two of CPU on a slow core:
  // linear, and bounded here at 4 s of CPU (which a busy machine does not stretch), where a quadratic pass would take minutes.
  for (const [file, head] of KINDS) {
    it(`${file} is scanned in linear time whatever the shape`, async () => {
      expect(classifyPath(file)).toBeDefined();
      for (const [shape, line] of Object.entries(SHAPES)) {
        const { cpuMs } = await timed(() => scanText(file, `${head}${line}\n`));
        expect({ shape, cpuMs: Math.round(cpuMs), fast: cpuMs < 4_000 }).toMatchObject({ shape, fast: true });
      }
    });
  }
});

/** A file read and judged as the scan does, syntax errors included (they become incomplete entries). */
function scanText(file: string, text: string): void {
  try {
    const ctx = repoContext(catalog);
    const read = analyzeFile(classifyPath(file)!, sourceText(file, text), ctx);
    judgeReadings([{ sites: read.sites, ctx, problems: read.problems }]);
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
  }
}

describe('code nested a million levels deep', () => {
  for (const [file, text] of [
    ['deep.json', '['.repeat(MB)],
    ['main.tf', `resource "port_blueprint" "x" ${'${'.repeat(MB / 2)}`],
    ['sync.py', `requests.post("https://api.getport.io/v1/blueprints", ${'('.repeat(MB)}`],
  ]) {
    it(`in ${file} is an incomplete entry naming it, not a stack overflow`, async () => {
      const dir = scratchDir('deep-code');
      writeFileSync(join(dir, file!), text!);
      const out = scratchDir('deep-code-out');
      const run = await runWithin(['analyze', '--repo', dir, '--out', out, '--format', 'json', '--fail-on', 'none']);
      expect(run.code).toBe(3);
      expect(withoutIds(readReport(out).incomplete)).toEqual([{ resource: expect.stringMatching(new RegExp(`${file!.replace('.', '\\.')}:1$`)), reason: expect.stringContaining('nested deeper than 500 levels') }]);
    });
  }
});
