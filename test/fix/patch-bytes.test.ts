import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { gitQuotedPath } from '../../src/fix/unified-diff.js';
import { hclString, jsTemplateLiteral, yamlScalar } from '../../src/repo/quote-value.js';
import { runCliCaptured } from '../cli/run-cli.js';

/*
 * Issue 23 item 4: the patch and --fix keep every byte of the lines they do not change (a Latin-1
 * file kept its é), write values the way the target language reads them back, and name files the
 * way git does (a tab in a name made `git apply` reject the whole patch).
 */
const LATIN1_DIR = 'services/caf\u00e9\tbar';

function repository(): { root: string; repo: string; teams: string } {
  const root = mkdtempSync(join(tmpdir(), 'patch-bytes-'));
  const repo = join(root, 'repo');
  mkdirSync(join(repo, LATIN1_DIR), { recursive: true });
  mkdirSync(join(repo, 'services', 'numbers'), { recursive: true });
  mkdirSync(join(repo, 'terraform'), { recursive: true });
  // Latin-1 bytes: é is 0xE9, invalid as UTF-8.
  writeFileSync(join(repo, LATIN1_DIR, 'port.yml'), Buffer.from('# caf\u00e9 owners\nidentifier: checkout\ntitle: Checkout\nblueprint: service\nteam: Platform Team\n# fin \u00e9\n', 'latin1'));
  writeFileSync(join(repo, 'services', 'numbers', 'port.yml'), "identifier: billing\ntitle: Billing\nblueprint: service\nteam: Payments\nproperties:\n  owner: 'SRE On-Call'\n");
  writeFileSync(join(repo, 'terraform', 'permissions.tf'), 'resource "port_page_permissions" "home" {\n  page_identifier = "home"\n  read = {\n    teams = ["SRE On-Call"]\n  }\n}\n');
  const teams = join(root, 'teams.yaml');
  writeFileSync(teams, `Platform Team: "@platform"\nPayments: "1234"\n"SRE On-Call": "\${path.cwd}"\n`);
  return { root, repo, teams };
}

describe('values written in the target language', () => {
  it.each([
    ['@platform', '"@platform"'],
    ['1234', '"1234"'],
    ['yes', '"yes"'],
    ['2024-01-01', '"2024-01-01"'],
    ['a: b', '"a: b"'],
    ['platform', 'platform'],
    ['sre_oncall', 'sre_oncall'],
  ])('YAML: %s is written %s, and reads back as the same string', (value, written) => {
    expect(yamlScalar(value)).toBe(written);
    expect((yaml.load(`k: ${written}`) as { k: unknown }).k).toBe(value);
  });

  it('HCL escapes ${ and %{, and a JS template literal escapes ${', () => {
    expect(hclString('${path.cwd} %{ if x }')).toBe('"$${path.cwd} %%{ if x }"');
    expect(jsTemplateLiteral('${process.env.X}`\\')).toBe('`\\${process.env.X}\\`\\\\`');
  });

  it('a path is quoted as git quotes it', () => {
    expect(gitQuotedPath('a/plain/path.tf')).toBe('a/plain/path.tf');
    expect(gitQuotedPath('a/caf\u00e9\tbar/"x"\\.yml')).toBe('"a/caf\\303\\251\\tbar/\\"x\\"\\\\.yml"');
  });
});

describe('repo.patch and --fix on a Latin-1 file, hostile identifiers and a tab in a name', () => {
  it('git apply takes the patch, untouched bytes stay, and every value reads back as the identifier', async () => {
    const { root, repo, teams } = repository();
    const original = join(root, 'original');
    cpSync(repo, original, { recursive: true });
    const out = join(root, 'out');
    const run = await runCliCaptured(['analyze', '--repo', repo, '--teams-map', teams, '--out', out, '--fail-on', 'none', '--format', 'json', '--fix']);
    expect(run.stderr).toMatch(/--fix: changed 3 files in place/);

    // The patch applies to the untouched copy, and gives what --fix wrote.
    const patch = readFileSync(join(out, 'fixes', 'repo.patch'));
    expect(patch.toString('latin1')).toContain('diff --git "a/services/caf\\303\\251\\tbar/port.yml"');
    writeFileSync(join(root, 'repo.patch'), patch);
    execFileSync('git', ['apply', '--check', '--directory=original', join(root, 'repo.patch')], { cwd: root });
    execFileSync('git', ['apply', '--directory=original', join(root, 'repo.patch')], { cwd: root });
    for (const file of [`${LATIN1_DIR}/port.yml`, 'services/numbers/port.yml', 'terraform/permissions.tf']) {
      expect(readFileSync(join(original, file)), file).toEqual(readFileSync(join(repo, file)));
    }

    // Latin-1: the é lines are the same bytes; only the team line changed.
    const latin1 = readFileSync(join(repo, LATIN1_DIR, 'port.yml'));
    expect(latin1.toString('latin1')).toBe('# caf\u00e9 owners\nidentifier: checkout\ntitle: Checkout\nblueprint: service\nteam: "@platform"\n# fin \u00e9\n');
    // YAML reads the identifiers back as strings: not a syntax error, not the number 1234.
    const numbers = yaml.load(readFileSync(join(repo, 'services', 'numbers', 'port.yml'), 'utf8')) as { team: unknown; properties: { owner: unknown } };
    expect(numbers.team).toBe('1234');
    // Terraform would evaluate ${…}: written $${…}, which it reads as the literal text.
    expect(readFileSync(join(repo, 'terraform', 'permissions.tf'), 'utf8')).toContain('teams = ["$${path.cwd}"]');
  });
});
