/**
 * Issue 14: `.user.teams` (the user's teams, as the users API names them) is a team read just
 * like `.user.team`. Before this, a condition over `.user.teams` raised no finding at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { extractReferences, teamMetaPaths } from '../../src/jq/references.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { expressionFinding } from '../../src/rules/shared/expression-finding.js';

let catalog: Catalog;
beforeAll(async () => {
  const jq = await loadJqEngine();
  catalog = buildCatalog(
    {
      format: 'org-snapshot/1',
      organization: { id: 'org_1', name: 'Test org' },
      blueprints: [],
      teams: [
        { name: 'Payments', identifier: 'payments' },
        { name: 'Platform Team', identifier: 'platform' },
      ],
    },
    { jq },
  );
});

const reads = (expression: string) => {
  const result = extractReferences(expression);
  if (!result.ok) throw result.error;
  return teamMetaPaths(result.references).map((path) => expression.slice(path.start, path.end));
};

const judge = (expression: string) =>
  expressionFinding(catalog, {
    category: 'action-dynamic-permission',
    resource: { type: 'action', identifier: 'deploy' },
    location: 'permissions.execute.policy.conditions[0]',
    expression,
    subject: 'The execute policy condition',
    removedRelations: new Set(),
  });

describe('.user.teams is a team read', () => {
  it('is found by reading the tokens, like .user.team', () => {
    expect(reads('.user.teams | index("Payments")')).toEqual(['.user.teams']);
    expect(reads('.user.team | index("Payments")')).toEqual(['.user.team']);
    expect(reads('$u.teams')).toEqual([]);
    // Only the user's teams: an entity's `teams` relation or a form input called teams is not the meta property.
    expect(reads('.entity.relations.teams | length')).toEqual([]);
    expect(reads('.form.teams | length')).toEqual([]);
  });

  it('a title comparison over .user.teams breaks, with the identifier as rewrite', () => {
    const finding = judge('.user.teams | index("Payments") != null');
    expect(finding?.verdict).toBe('breaks');
    expect(finding?.rewrite).toBe('.user.teams | index("payments") != null');
  });

  it('a count of .user.teams reads teams but does not change', () => {
    expect(judge('.user.teams | length > 0')?.verdict).toBe('unaffected');
  });

  it('running the expression sees .user.teams in the sample user', () => {
    expect(judge('.user | getpath(["teams"]) | any(. == "Payments")')?.verdict).toBe('breaks');
  });
});
