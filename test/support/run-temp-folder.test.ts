import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { leftInRealTemp, RUN_FOLDER_PREFIX, stemOf, suiteTempPrefixes } from './run-temp-folder.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe("the run's own temp folder", () => {
  it('is the temp folder of every test and of the processes they spawn', () => {
    const runFolder = inject('runTempFolder');
    expect(dirname(runFolder)).toBe(inject('realTempFolder'));
    expect(runFolder.startsWith(join(inject('realTempFolder'), RUN_FOLDER_PREFIX))).toBe(true);
    expect(tmpdir()).toBe(runFolder);
    expect(dirname(mkdtempSync(join(tmpdir(), 'tma-hygiene-')))).toBe(runFolder);
    // A child started as the tests start the CLI (the inherited environment) gets it too.
    const childTemp = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("os").tmpdir())'], { encoding: 'utf8' });
    expect(childTemp).toBe(runFolder);
  });

  it("names, when the run ends, what a test left in the real temp folder, and nothing else's", () => {
    const before = new Set(['tma-live-old123', 'systemd-private-1']);
    const now = ['tma-live-old123', 'systemd-private-1', 'tma-live-Ab12Cd', `${RUN_FOLDER_PREFIX}Zz9`, 'fixkit-cli-Q1w2E3', 'editor-swap', 'teams-migration-audit-state.X1y2Z3'];
    const prefixes = ['fixkit-cli-', 'teams-migration-audit-state.', 'tma-'];
    expect(leftInRealTemp(before, now, prefixes, new Set())).toEqual(['fixkit-cli-Q1w2E3', 'teams-migration-audit-state.X1y2Z3', 'tma-live-Ab12Cd']);
    expect(leftInRealTemp(before, ['tma-live-old123', 'editor-swap'], ['tma-'], new Set())).toEqual([]);
    // This run made its tma-live folders in its own folder: another run's of the same tests are not blamed on it.
    expect(leftInRealTemp(before, now, prefixes, new Set([stemOf('tma-live-Zy98Xw')]))).toEqual(['fixkit-cli-Q1w2E3', 'teams-migration-audit-state.X1y2Z3']);
  });

  it("knows the prefixes the tests and the action's scripts give temporary files", () => {
    const prefixes = suiteTempPrefixes(ROOT);
    // A literal (test/fix/cli.test.ts), a template's head (test/support/action-step.ts), a
    // temporary checkout's prefix (test/repo), and the action's mktemp names.
    expect(prefixes).toEqual(expect.arrayContaining(['fixkit-cli-', 'tma-', 'tma-live-', 'corpus-', 'tma-slug-', 'teams-migration-audit-state.', 'teams-migration-audit-upload.']));
    expect(prefixes.every((prefix) => /^[a-z][a-z0-9.-]*[-.]$/.test(prefix))).toBe(true);
  });
});
