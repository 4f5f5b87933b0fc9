import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ignoredByFiles, ignoreFileRules } from '../../src/repo/gitignore.js';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';

/** A checkout with the same Terraform file (team permissions, findings in any org) in four folders: kept/, legacy/, infra/build-out/ and infra/own/. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'tma-ignore-'));
  for (const dir of ['kept', 'legacy', 'infra/build-out', 'infra/own']) {
    mkdirSync(join(root, dir), { recursive: true });
    cpSync('fixtures/repo/terraform/permissions.tf', join(root, dir, 'main.tf'));
  }
  return root;
}

async function scannedFolders(root: string, extra: string[] = []): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'tma-ignore-out-'));
  const run = await runCliCaptured(['analyze', '--repo', root, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet', ...extra]);
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  return [...new Set(report.findings.filter((f) => f.resource.type === 'file').map((f) => f.location.split('/').slice(1, -1).join('/')))].sort();
}

describe('--ignore and nested .gitignore files', () => {
  it('scans every folder without either', async () => {
    expect(await scannedFolders(checkout())).toEqual(['infra/build-out', 'infra/own', 'kept', 'legacy']);
  });

  it('--ignore PATTERN (repeatable) leaves those paths out, as a .gitignore line would', async () => {
    expect(await scannedFolders(checkout(), ['--ignore', 'legacy/', '--ignore', 'build-out'])).toEqual(['infra/own', 'kept']);
  });

  it('a .gitignore in a subfolder applies below that folder only', async () => {
    const root = checkout();
    writeFileSync(join(root, 'infra', '.gitignore'), '# build output\nbuild-out/\n');
    // The same name elsewhere is not affected by infra/.gitignore.
    mkdirSync(join(root, 'kept', 'build-out'));
    cpSync('fixtures/repo/terraform/permissions.tf', join(root, 'kept', 'build-out', 'main.tf'));
    expect(await scannedFolders(root)).toEqual(['infra/own', 'kept', 'kept/build-out', 'legacy']);
  });

  it('roots a nested file\'s patterns at its folder, anchored ones too; a deeper file overrides a higher one', () => {
    const rules = (text: string) => {
      const made = ignoreFileRules(text);
      if ('refused' in made) throw new Error(made.refused);
      return made;
    };
    const scopes = [
      { base: '', rules: rules('*.tf\n') },
      { base: 'infra', rules: rules('generated/\n/own.tf\n!kept.tf\n') },
    ];
    const ignored = (path: string, isDir = false) => ignoredByFiles(scopes, path, isDir);
    expect([ignored('infra/generated', true), ignored('infra/own.tf'), ignored('infra/sub/own.tf'), ignored('infra/kept.tf'), ignored('other/kept.tf')]).toEqual([true, true, true, false, true]);
  });

  it('refuses a negated --ignore with one line', async () => {
    const run = await runCliCaptured(['analyze', '--repo', checkout(), '--out', mkdtempSync(join(tmpdir(), 'x-')), '--ignore', '!keep']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^teams-migration-audit: --ignore !keep: /);
  });
});
