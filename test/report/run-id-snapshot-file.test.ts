import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cli/run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'tma-run-id-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function runId(snapshot: string, out: string): Promise<string> {
  const run = await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', join(work, out), '--format', 'json', '--no-fixes', '--fail-on', 'none']);
  expect(run.code).toBe(0);
  return (JSON.parse(readFileSync(join(work, out, 'report.json'), 'utf8')) as { run: { id: string } }).run.id;
}

describe('the run id of a snapshot file is the digest of its bytes, taken as they are read (issue 41)', () => {
  it('the same bytes anywhere give the same id; one byte more, another', async () => {
    const copy = join(work, 'elsewhere.json');
    copyFileSync('fixtures/demo-org.json', copy);
    const here = await runId('fixtures/demo-org.json', 'a');
    expect(await runId(copy, 'b')).toBe(here);
    // The same data with one more line end: the same org, but other bytes read.
    writeFileSync(copy, `${readFileSync(copy, 'utf8')}\n`);
    expect(await runId(copy, 'c')).not.toBe(here);
  });

});
