import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Issue 42, Why 10: the README was 4,054 words of prose before the docs. */
describe('the README a newcomer reads in two minutes', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('is short: what it is, install, use, one CI snippet, links into docs/', () => {
    const words = readme.replace(/```[\s\S]*?```/g, '').split(/\s+/).filter(Boolean).length;
    // About 250 words a minute, code blocks aside.
    expect(words).toBeLessThanOrEqual(500);
    expect([...readme.matchAll(/^## (.*)$/gm)].map((m) => m[1])).toEqual(['Install', 'Use', 'Use in CI', 'Documentation']);
    expect([...readme.matchAll(/```yaml/g)]).toHaveLength(1);
  });

  it('links every page of docs/, so what moved out of it is one click away', () => {
    for (const page of readdirSync('docs').filter((name) => name.endsWith('.md') && name !== 'README.md')) {
      expect(readme, page).toContain(`](docs/${page})`);
    }
  });
});
