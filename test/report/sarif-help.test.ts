import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORY_DOCS } from '../../src/model/category-docs.js';
import { CATEGORIES } from '../../src/model/finding.js';
import { renderSarif } from '../../src/report/sarif.js';
import { demoReport } from '../ci/helpers.js';

/** docs/categories.md's table rows: category → "reported when" (and, for automatic ones, "what the migration does"). */
function categoryRows(): Record<string, { when: string; does?: string }> {
  const rows: Record<string, { when: string; does?: string }> = {};
  for (const line of readFileSync('docs/categories.md', 'utf8').split('\n')) {
    const match = /^\| `([a-z-]+)` \| (.*) \|$/.exec(line);
    if (!match) continue;
    const [when, does] = match[2]!.split(' | ');
    rows[match[1]!] = { when: when!, ...(does !== undefined && { does }) };
  }
  return rows;
}

describe('SARIF rules explain themselves with docs/categories.md (issue 42)', () => {
  it('the help the rules carry is what docs/categories.md says, for every category', () => {
    // When the page changes, each `when` and `does` of src/model/category-docs.ts must follow: the expected rows are printed here.
    const help = Object.fromEntries(Object.entries(CATEGORY_DOCS).map(([category, { when, does }]) => [category, { when, ...(does !== undefined && { does }) }]));
    expect(help).toEqual(categoryRows());
    expect(Object.keys(help).sort()).toEqual([...CATEGORIES].sort());
  });

  it('every rule has help text and markdown: when it is reported, why, what to do', async () => {
    const sarif = JSON.parse(renderSarif(await demoReport(), { toolVersion: '1' })) as { runs: { tool: { driver: { rules: { id: string; help: { text: string; markdown: string } }[] } } }[] };
    const rules = sarif.runs[0]!.tool.driver.rules;
    expect(rules).toHaveLength(CATEGORIES.length);
    for (const [index, rule] of rules.entries()) {
      const page = CATEGORY_DOCS[CATEGORIES[index]!];
      expect(rule.help.markdown, rule.id).toContain(`**Reported when:** ${page.when}`);
      expect(rule.help.markdown, rule.id).toContain('**What to do:** ');
      // The text form has no markdown left in it.
      expect(rule.help.text, rule.id).toContain(`Reported when: ${page.when.replaceAll('`', '').replace(/\*([^*]+)\*/g, '$1')}`);
      expect(rule.help.text, rule.id).not.toContain('`');
      if (page.does !== undefined) expect(rule.help.markdown, rule.id).toContain(`**What the migration does:** ${page.does}`);
    }
  });
});
