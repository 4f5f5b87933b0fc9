import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, runWithin, scratchDir } from './helpers.js';

// Issue 16 items 7 and 8: the user's own input files (--snapshot, --teams-map, --baseline). Each
// case: exit 2, one line on stderr naming the file, in well under a second of CPU, and no report pretending.

const DEMO = 'fixtures/demo-org.json';
const DEEP = 100_000;
const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
const deepObject = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** The run ends with one line on stderr and exit 2, fast, and writes no report. */
async function refusedInOneLine(argv: string[], out: string, expected: RegExp): Promise<void> {
  const run = await runWithin([...argv, '--out', out]);
  expect(run.code).toBe(2);
  expect(run.cpuMs).toBeLessThan(1_000);
  expect(run.stderr).toMatch(/^teams-migration-audit: [^\n]+\n$/);
  expect(run.stderr).toMatch(expected);
  expect(() => readReport(out)).toThrow(/ENOENT/);
}

describe('a named pipe (FIFO) given as an input file', () => {
  for (const [flag, name] of [
    ['--snapshot', 'org.json'],
    ['--teams-map', 'teams.yaml'],
    ['--baseline', 'baseline.json'],
    ['--since', 'report.json'],
  ] as const) {
    it(`as ${flag} is refused at once instead of waiting for a writer`, async () => {
      const dir = scratchDir('fifo');
      const path = fifo(dir, name);
      const argv = flag === '--snapshot' ? ['analyze', flag, path] : ['analyze', '--snapshot', DEMO, flag, path];
      await refusedInOneLine(argv, join(dir, 'out'), /it is a named pipe, not a regular file$/m);
    });
  }

  it('and a device (/dev/zero, which never ends) the same way', async () => {
    await refusedInOneLine(['analyze', '--snapshot', '/dev/zero'], join(scratchDir('dev'), 'out'), /\/dev\/zero: cannot read the snapshot: it is a device, not a regular file$/m);
  });
});

describe('JSON nested 100,000 deep', () => {
  it('as a snapshot (arrays) is one line and exit 2', async () => {
    const dir = scratchDir('deep-snapshot');
    writeFileSync(join(dir, 'org.json'), `{"format":"org-snapshot/1","organization":{"id":"o","name":"n"},"blueprints":${deepArray}}`);
    await refusedInOneLine(['analyze', '--snapshot', join(dir, 'org.json')], join(dir, 'out'), /org\.json: the snapshot nests deeper than 10000 levels \(line 1\)/);
  });

  it('as a snapshot (objects, in an organization name) is one line and exit 2', async () => {
    const dir = scratchDir('deep-snapshot-object');
    writeFileSync(join(dir, 'org.json'), `{"format":"org-snapshot/1","organization":{"id":"o","name":${deepObject}},"blueprints":[]}`);
    await refusedInOneLine(['analyze', '--snapshot', join(dir, 'org.json')], join(dir, 'out'), /the snapshot nests deeper than 10000 levels/);
  });

  it('as a baseline, even where its format is expected, is one line and exit 2', async () => {
    const dir = scratchDir('deep-baseline');
    for (const [name, text] of [
      ['format.json', `{"format":${deepObject}}`],
      ['accepted.json', `{"format":"teams-migration-audit-baseline/1","accepted":${deepArray}}`],
    ]) {
      writeFileSync(join(dir, name!), text!);
      await refusedInOneLine(['analyze', '--snapshot', DEMO, '--baseline', join(dir, name!)], join(dir, 'out'), /the baseline nests deeper than 10000 levels/);
    }
  });

  it('as a previous report (--since) is one line and exit 2', async () => {
    const dir = scratchDir('deep-since');
    writeFileSync(join(dir, 'report.json'), `{"format":"impact-report/1","organization":{"id":"o","name":"n"},"findings":${deepArray}}`);
    await refusedInOneLine(['analyze', '--snapshot', DEMO, '--since', join(dir, 'report.json')], join(dir, 'out'), /report\.json: the previous report \(--since\) nests deeper than 10000 levels/);
  });

  it('as a teams map is one line and exit 2 (js-yaml stops at 100 levels)', async () => {
    const dir = scratchDir('deep-teams');
    writeFileSync(join(dir, 'teams.json'), `{"a":${deepArray}}`);
    await refusedInOneLine(['analyze', '--snapshot', DEMO, '--teams-map', join(dir, 'teams.json')], join(dir, 'out'), /teams\.json: not valid JSON or YAML: nesting exceeded maxDepth \(100\)/);
  });

  it('as the reference config file is one line and exit 2', async () => {
    const dir = scratchDir('deep-config');
    writeFileSync(join(dir, 'config.json'), `{"CLIENT_ID":${deepObject}}`);
    await refusedInOneLine(['analyze', '--config', join(dir, 'config.json')], join(dir, 'out'), /config\.json: the config file nests deeper than 10000 levels/);
  });

  it('a baseline whose format is a shallow object is named, not written out', async () => {
    const dir = scratchDir('object-format');
    writeFileSync(join(dir, 'b.json'), `{"format":{"a":[1,2,3]}}`);
    await refusedInOneLine(['analyze', '--snapshot', DEMO, '--baseline', join(dir, 'b.json')], join(dir, 'out'), /"format" must be "teams-migration-audit-baseline\/1", found an object$/m);
  });
});
