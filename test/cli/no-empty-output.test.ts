import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/gate.js';
import { runCliCaptured } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'tma-no-empty-out-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a run that stops before writing leaves no output folder it made', () => {
  it('a missing snapshot: the --out, --fix-out and --write-baseline folders it had made are gone, in one line', async () => {
    const out = join(root, 'new', 'deeper');
    const kit = join(root, 'kit', 'here');
    const baseline = join(root, 'baselines', 'b.json');
    const run = await runCliCaptured(['analyze', '--snapshot', join(root, 'missing.json'), '--out', out, '--fix-out', kit, '--write-baseline', baseline]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readdirSync(root).sort()).toEqual([]);
  });

  it('keeps a folder that was there before, empty or not (negative case)', async () => {
    const empty = join(root, 'was-empty');
    const full = join(root, 'was-full');
    mkdirSync(empty);
    mkdirSync(full);
    writeFileSync(join(full, 'mine.txt'), 'kept');
    for (const out of [empty, full]) {
      const run = await runCliCaptured(['analyze', '--snapshot', join(root, 'missing.json'), '--out', out]);
      expect(run.code).toBe(EXIT.usage);
    }
    expect(readdirSync(empty)).toEqual([]);
    expect(readdirSync(full)).toEqual(['mine.txt']);
    rmSync(empty, { recursive: true });
    rmSync(full, { recursive: true });
  });

  it('a run that writes keeps the folder it made, with its outputs (negative case)', async () => {
    const out = join(root, 'made', 'out');
    const run = await runCliCaptured(['analyze', '--demo', '--out', out, '--no-fixes']);
    expect(run.code).toBe(EXIT.pass);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    rmSync(join(root, 'made'), { recursive: true });
  });
});
