import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFindingFiles } from '../../src/fix/write-fixes.js';
import type { Report } from '../../src/model/finding.js';

/*
 * The kit reads the other .tf files of a finding's configuration for their version constraints:
 * files the repository supplies and the scan did not read, so only regular files within the scan's
 * size limit, never through a link.
 */
describe('the sibling .tf files the kit reads', () => {
  it('reads regular ones, and leaves out one past the size limit and a link', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tma-siblings-'));
    const repo = join(root, 'infra');
    mkdirSync(repo);
    writeFileSync(join(repo, 'main.tf'), 'resource "port_blueprint" "x" {}\n');
    writeFileSync(join(repo, 'versions.tf'), 'terraform {}\n');
    writeFileSync(join(repo, 'padded.tf'), `# ${'x'.repeat(6 * 1024 * 1024)}\n`);
    writeFileSync(join(root, 'outside.tf'), 'secret\n');
    symlinkSync(join(root, 'outside.tf'), join(repo, 'linked.tf'));
    const report = { findings: [{ resource: { type: 'file', identifier: 'main.tf' }, location: 'infra/main.tf:1' }] } as unknown as Report;
    const files = await readFindingFiles(report, [repo]);
    expect(files.map((file) => file.path).sort()).toEqual(['infra/main.tf', 'infra/versions.tf']);
  });
});
