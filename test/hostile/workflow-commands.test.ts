import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cli/run-cli.js';
import { filesIn } from '../support/files-in.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { renderSnapshot } from '../../src/sources/write-snapshot.js';

/*
 * Issue 32 item 5: text from the org or a repository never starts a line of an output with a
 * workflow command. A CI log that prints report.junit.xml, summary.md or the fix kit's README
 * (`cat`, a test reporter) runs `::add-mask::`, `::error::` and `::stop-commands::` lines; the
 * runner trims a line before it looks, so only a line break inside a value can start one. Every
 * title, name and description of the demo org carries line breaks (LF, CR, CRLF, NEL, U+2028)
 * before such commands, and a C1 control (CSI, U+009B) that report.json must keep as an escape.
 */
const INJECTED = (value: string) => `${value}\n::error::forged\r::add-mask::secret\r\n::stop-commands::tok\u0085::warning::nel\u2028::notice::ls\u009b31m`;

/** Every title, name and description in `value`, injected. */
function poisoned(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return ['title', 'name', 'description', 'reason'].includes(key) ? INJECTED(value) : value;
  if (Array.isArray(value)) return value.map((item) => poisoned(item, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poisoned(v, k)]));
  return value;
}

/** The lines of `text` the Actions runner would read as a command (it trims each line first). */
const commandLines = (text: string) => text.split(/\r\n|\r|\n/).filter((line) => line.trim().startsWith('::'));

describe('no line of any output starts a workflow command', () => {
  it('the org titles, names and descriptions with line breaks before ::error, ::add-mask, ::stop-commands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-commands-'));
    const org = poisoned(JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8'))) as Record<string, unknown>;
    // And a gap the recording names, with the same text.
    org.incomplete = [{ resource: INJECTED('blueprint x'), reason: INJECTED('timed out') }];
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    // A repository file whose name and text carry the same.
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'perm\n::error::name.json'), JSON.stringify({ identifier: 'p', permissions: { read: { teams: ['Payments'] } } }));
    const out = join(dir, 'out');
    const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'org.json'), '--repo', repo, '--out', out, '--fail-on', 'none', '--format', 'json,sarif,junit,md,html']);
    expect(run.code, run.stderr).toBe(3);
    expect(commandLines(run.stderr)).toEqual([]);
    const files = await filesIn(out);
    expect(files).toEqual(expect.arrayContaining(['report.json', 'report.junit.xml', 'summary.md', 'report.sarif', 'index.html', 'fixes/README.md']));
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const text = readFileSync(join(out, file), 'utf8');
      // No C1 control, NEL or line separator raw in a text format either: each is an escape.
      const raw = file.endsWith('.patch') ? [] : [...new Set(text.match(/[\u0080-\u009f\u2028\u2029]/g) ?? [])].map((char) => `raw U+${char.charCodeAt(0).toString(16)}`);
      if (commandLines(text).length + raw.length > 0) found[file] = [...commandLines(text), ...raw];
    }
    expect(found).toEqual({});
    // report.json still holds the org's text, its controls as JSON escapes.
    const json = readFileSync(join(out, 'report.json'), 'utf8');
    expect(json).toContain('\\u009b31m');
    expect((JSON.parse(json) as { organization: { name: string } }).organization.name).toBe(INJECTED('Acme Payments'));
  }, 60_000);

  it('an org name that starts with ::add-mask:: and titles holding ##[ (the older form, honoured anywhere in a line)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tma-commands-'));
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as { organization: { name: string }; blueprints: { title: string }[]; teams: { name: string }[] };
    org.organization.name = '::add-mask::Acme';
    for (const blueprint of org.blueprints) blueprint.title = `${blueprint.title} ##[add-mask]x ##[error]y`;
    org.teams[0]!.name = `##[stop-commands]${org.teams[0]!.name}`;
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const out = join(dir, 'out');
    // --fail-on any: the failing lines name the findings on stderr, as annotations on GitHub.
    for (const env of [{}, { GITHUB_ACTIONS: 'true' }]) {
      const run = await runCliCaptured(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'any', '--format', 'json,sarif,junit,md,html'], env);
      expect(run.code, run.stderr).toBe(1);
      // Our own: an annotation per failing finding, and the notice that counts those past GitHub's ten.
      const ours = (line: string) => /^::(error (file=[^,]*,)?(line=\d+,)?title=teams-migration-audit [a-z-]+|notice title=teams-migration-audit)::/.test(line);
      expect(commandLines(run.stderr).filter((line) => !ours(line)), run.stderr).toEqual([]);
      expect(run.stderr).not.toContain('##[');
      expect(run.stderr).toContain('\\x3a:add-mask::Acme: ');
    }
    const found: Record<string, string[]> = {};
    for (const file of await filesIn(out)) {
      const text = readFileSync(join(out, file), 'utf8');
      const bad = [...commandLines(text), ...(text.includes('##[') ? ['##['] : [])];
      if (bad.length > 0) found[file] = bad;
    }
    expect(found).toEqual({});
    // Readers of each format get the text back.
    expect((JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { organization: { name: string } }).organization.name).toBe('::add-mask::Acme');
    expect(readFileSync(join(out, 'report.junit.xml'), 'utf8')).toContain('##&#91;stop-commands]Platform Team');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toContain('##\\u005bstop-commands]Platform Team');
  }, 60_000);

  it('the page\'s own stylesheet and script hold neither, so the pass over the page never changes them (their CSP hashes hold)', () => {
    for (const name of ['report.css', 'report.js', 'report.hbs']) {
      const text = readFileSync(join('templates', name), 'utf8');
      expect(commandLines(text), name).toEqual([]);
      expect(text, name).not.toContain('##[');
    }
  });

  it('a snapshot written by `snapshot` keeps the org\'s C1 controls and ##[ as JSON escapes, and reads back the same', () => {
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as OrgSnapshot;
    org.organization.name = 'Acme \u009b31m ##[add-mask]x';
    const text = renderSnapshot(org);
    expect(text).not.toMatch(/[\u0080-\u009f]/);
    expect(text).not.toContain('##[');
    expect((JSON.parse(text) as OrgSnapshot).organization.name).toBe('Acme \u009b31m ##[add-mask]x');
  });
});

