import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cli/run-cli.js';

/*
 * Issue 38 item 8: fixes/README.md carried raw Markdown and HTML from the org name, folder names and
 * team values (links, images, an unclosed `<!--` that hides the rest when rendered); summary.md
 * escaped the same text. Both are now written by one escaper.
 */
const HOSTILE = '[x](https://e.vil) ![i](https://e.vil/p.png) <img src=x onerror=alert(1)> *b* `c` <!-- hidden';
const RAW = /<!--|<img|\]\(https|!\[i\]|`c`/;

const tmp = () => mkdtempSync(join(tmpdir(), 'tma-readme-'));

describe('fixes/README.md escapes org and repository text as summary.md does', () => {
  it('the org name and team values start no link, image, tag or comment; escaped, not dropped', async () => {
    const dir = tmp();
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as { organization: { name: string }; teams: { name: string }[] };
    org.organization.name = `Acme ${HOSTILE}`;
    for (const team of org.teams) team.name = `${team.name} ${HOSTILE}`;
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const out = join(dir, 'out');
    await runCliCaptured(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'json,md']);
    const readme = readFileSync(join(out, 'fixes', 'README.md'), 'utf8');
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(RAW.exec(summary)).toBeNull();
    expect(RAW.exec(readme)?.[0]).toBeUndefined();
    const escapedName = 'Acme \\[x\\]\\(https://e.vil\\) \\!\\[i\\]\\(https://e.vil/p.png\\) &lt;img src=x onerror=alert\\(1\\)&gt; \\*b\\* \\`c\\` &lt;\\!-- hidden';
    expect(readme).toContain(`# Fix kit for ${escapedName}`);
    expect(summary).toContain(escapedName);
    // A team value quoted in what a finding needs, escaped the same way.
    expect(readme).toMatch(/Team \\\[x\\\]\\\(https/);
    // The sections after the hostile text are still there.
    expect(readme).toContain('## Files');
    expect(readme).toContain('## Not in the kit');
  });

  it('folder and file names of the repositories start none either', async () => {
    const dir = tmp();
    // Two repositories with one name get repo-<name>.patch each: a folder's name in the README.
    const folder = 'infra <!-- [y](https:e.vil)';
    for (const parent of ['a', 'b']) cpSync('fixtures/repo', join(dir, parent, folder), { recursive: true });
    renameSync(join(dir, 'a', folder, 'terraform', 'permissions.tf'), join(dir, 'a', folder, 'terraform', 'perm<!--issions.tf'));
    const out = join(dir, 'out');
    await runCliCaptured(['analyze', '--snapshot', 'fixtures/demo-org.json', '--repo', join(dir, 'a', folder), '--repo', join(dir, 'b', folder), '--teams-map', 'fixtures/repo-teams.yaml', '--out', out, '--fail-on', 'none', '--format', 'json,md']);
    const readme = readFileSync(join(out, 'fixes', 'README.md'), 'utf8');
    // Outside the shell block (where nothing is rendered: a fence shows its lines as they are, each one line).
    const rendered = readme.replace(/^```sh\n[\s\S]*?^```$/gm, '');
    expect(rendered).not.toBe(readme);
    expect(rendered).toContain('perm&lt;\\!--issions.tf');
    expect(rendered).not.toMatch(/<!--|\]\(https/);
  });
});
