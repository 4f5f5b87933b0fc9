import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWithin, scratchDir } from './helpers.js';

/*
 * Issue 23 item 8: raw control characters from the org reached fixes/README.md and the page (the
 * organization's name and id in the header, resource names in a table). Each is now an escape.
 */
const CONTROLS = '\u0007\u001b[31m\u009b\u202e\u0000\u007f';
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('control characters of the org', () => {
  it('are escaped in index.html and fixes/README.md, and the page data still reads the same names', async () => {
    const dir = scratchDir('controls');
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as {
      organization: { id: string; name: string };
      actions: { identifier: string; title?: string }[];
      teams: { name: string }[];
    };
    org.organization.name = `Org${CONTROLS}`;
    org.organization.id = `id${CONTROLS}`;
    for (const action of org.actions) action.identifier += CONTROLS;
    for (const team of org.teams) team.name += CONTROLS;
    writeFileSync(join(dir, 'org.json'), JSON.stringify(org));
    const out = join(dir, 'out');
    const run = await runWithin(['analyze', '--snapshot', join(dir, 'org.json'), '--out', out, '--fail-on', 'none', '--format', 'html,json']);
    expect(run.code).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const readme = readFileSync(join(out, 'fixes', 'README.md'), 'utf8');
    expect(RAW.exec(html)?.index).toBeUndefined();
    expect(RAW.exec(readme)?.index).toBeUndefined();
    expect(html).toContain('<span class="org">Org\\u0007\\u001b[31m\\u009b\\u202e\\u0000\\u007f</span>');
    // The page's data is JSON whose escapes give back the org's own text.
    const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.stringify(JSON.parse(data))).toContain(JSON.stringify(`Org${CONTROLS}`).slice(1, -1));
  });
});
