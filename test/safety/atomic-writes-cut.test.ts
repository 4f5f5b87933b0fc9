import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL } from '../../src/output/commit-journal.js';
import { atomicWriteFaults, writeFileAtomic, type AtomicWriteStep } from '../../src/output/output-set.js';
import { runCliCaptured } from '../cli/run-cli.js';

/*
 * Issue 38 item 12: each write through writeFileAtomic (the commit journal, `snapshot --out`,
 * `--fix`'s put-backs) cut at each of its steps leaves the old file or the new one whole, never a
 * part, never a temporary file, and never writes into the file itself.
 */
const STEPS: AtomicWriteStep[] = ['opened', 'half-written', 'written', 'renamed'];
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-atomic-'));
/** writeFileAtomic's temporary files, by the name it gives them. */
const temporaries = (dir: string) => readdirSync(dir).filter((name) => /^\..*\.tma-\d+-[0-9a-f]{8}$/.test(name));

/** Cut the next write of `target` (a path ending) at `step`, as a kill or a full disk would. */
function cutAt(step: AtomicWriteStep, target: string): { cut: () => boolean } {
  let cut = false;
  atomicWriteFaults.at = (at, path) => {
    if (cut || at !== step || !path.endsWith(target)) return;
    cut = true;
    throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  };
  return { cut: () => cut };
}

afterEach(() => {
  delete atomicWriteFaults.at;
});

describe('writeFileAtomic itself', () => {
  it.each(STEPS)('cut at "%s": the old content or the new one, whole; no temporary file', async (step) => {
    const dir = tmp();
    const path = join(dir, 'file.json');
    const old = JSON.stringify({ old: 'x'.repeat(10_000) });
    const next = JSON.stringify({ next: 'y'.repeat(20_000) });
    writeFileSync(path, old);
    const { cut } = cutAt(step, 'file.json');
    await expect(writeFileAtomic(path, next)).rejects.toThrow('ENOSPC');
    expect(cut()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(step === 'renamed' ? next : old);
    expect(temporaries(dir)).toEqual([]);
  });
  it('never writes into the file: a second link to the old file keeps the old content whole', async () => {
    const dir = tmp();
    const path = join(dir, 'file.json');
    writeFileSync(path, 'old');
    linkSync(path, join(dir, 'other-link'));
    await writeFileAtomic(path, 'new content', 0o640);
    expect(readFileSync(path, 'utf8')).toBe('new content');
    expect(readFileSync(join(dir, 'other-link'), 'utf8')).toBe('old');
  });
});

describe('each writer of writeFileAtomic, cut at each step', () => {
  it.each(STEPS)('snapshot --out cut at "%s": the previous snapshot or the new one whole, exit 2 in one line', async (step) => {
    const dir = tmp();
    const out = join(dir, 'org.json');
    writeFileSync(out, '{"previous": true}\n');
    linkSync(out, join(dir, 'held-by-a-reader'));
    cutAt(step, 'org.json');
    const run = await runCliCaptured(['snapshot', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--quiet']);
    const now = readFileSync(out, 'utf8');
    if (step === 'renamed') expect(JSON.parse(now)).toHaveProperty('blueprints');
    else expect(now).toBe('{"previous": true}\n');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^teams-migration-audit: [^\n]*cannot write the snapshot[^\n]*\n$/);
    expect(readFileSync(join(dir, 'held-by-a-reader'), 'utf8')).toBe('{"previous": true}\n');
    expect(temporaries(dir)).toEqual([]);
  });

  it.each(STEPS)('the commit journal cut at "%s": --out keeps the previous reports whole, no journal stays, and the next run writes the new ones', async (step) => {
    const out = tmp();
    const args = ['analyze', '--snapshot', 'fixtures/demo-org.json', '--out', out, '--fail-on', 'none', '--format', 'json', '--no-fixes', '--quiet'];
    await runCliCaptured(args);
    const previous = readFileSync(join(out, 'report.json'), 'utf8');
    // The same report with another organization name, so old and new differ.
    const renamed = join(tmp(), 'org.json');
    writeFileSync(renamed, readFileSync('fixtures/demo-org.json', 'utf8').replace(/"name": "[^"]*"/, '"name": "Renamed Org"'));
    const { cut } = cutAt(step, JOURNAL);
    const run = await runCliCaptured(args.map((arg) => (arg === 'fixtures/demo-org.json' ? renamed : arg)));
    expect(cut()).toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(previous);
    expect(temporaries(out)).toEqual([]);
    // A failed journal write is no commit: no journal stays to name a staging folder the run removes.
    expect(existsSync(join(out, JOURNAL))).toBe(false);
    delete atomicWriteFaults.at;
    await runCliCaptured(args.map((arg) => (arg === 'fixtures/demo-org.json' ? renamed : arg)));
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toContain('Renamed Org');
  });
});
