/**
 * Issue 39: a repository alone (no org, no teams map, nothing in its files saying whether the org
 * has migrated) cannot tell a team title from an identifier, and no public source says how
 * identifiers are derived from titles. A team value that merely looks like an identifier
 * ("its own slug": lower case, one word or snake case) is then as undecided as any other: review,
 * with that reason, never silence.
 */
import { describe, expect, test } from 'vitest';
import { scanRepositories } from '../../src/repo/scan.js';
import { temporaryRepository } from './helpers.js';

const repository = (files: Record<string, string>) => temporaryRepository(files, 'tma-slug-');

const workflow = (team: string) => `on: push
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: port-labs/port-github-action@v1
        with:
          operation: UPSERT
          identifier: svc
          blueprint: service
          team: ${team}
`;

describe('a repository alone cannot tell a title from an identifier (issue 39)', () => {
  for (const team of ['sre_oncall', 'platform', 'Payments']) {
    test(`team: ${team} is for review, saying why`, async () => {
      const scan = await scanRepositories([await repository({ '.github/workflows/upsert.yml': workflow(team) })]);
      const found = scan.findings.filter((f) => f.category === 'external-ownership');
      expect(found.map((f) => f.verdict)).toEqual(['review']);
      expect(found[0]!.reason).toContain('neither a known team title nor a known identifier');
    });
  }
});
