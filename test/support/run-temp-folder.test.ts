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
    // A literal (test/fix/cli.test.ts), a helper's name as its callers give it (committedCheckout,
    // scratchDir), a temporary checkout's prefix (test/repo), and the action's mktemp names.
    expect(prefixes).toEqual(expect.arrayContaining(['fixkit-cli-', 'tma-gate-checkout-', 'tma-hostile-alias-ok-', 'tma-live-', 'corpus-', 'tma-slug-', 'teams-migration-audit-state.', 'teams-migration-audit-upload.']));
    // Never a template's head alone: `tma-` would claim every test's folders.
    expect(prefixes).not.toContain('tma-');
    expect(prefixes.every((prefix) => /^[a-z][a-z0-9.-]*[-.]$/.test(prefix))).toBe(true);
  });

  it('knows only the prefixes of the tests that ran, with the helpers they import', () => {
    const fixCli = suiteTempPrefixes(ROOT, new Set([join(ROOT, 'test/fix/cli.test.ts')]));
    expect(fixCli).toContain('fixkit-cli-');
    expect(fixCli).not.toContain('tma-live-');
    expect(fixCli).not.toContain('teams-migration-audit-state.');
    // A live test's folders come from its harness; the gate action's test runs the action's scripts.
    expect(suiteTempPrefixes(ROOT, new Set([join(ROOT, 'test/live/live-cli.test.ts')]))).toContain('tma-live-');
    expect(suiteTempPrefixes(ROOT, new Set([join(ROOT, 'test/ci/gate-action.test.ts')]))).toEqual(expect.arrayContaining(['tma-gate-checkout-', 'teams-migration-audit-state.']));
  });
});
