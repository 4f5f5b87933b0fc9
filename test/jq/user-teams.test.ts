/**
 * Issue 14: `.user.teams` (the user's teams, as the users API names them) is a team read just
 * like `.user.team`. Before this, a condition over `.user.teams` raised no finding at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { extractReferences, teamMetaPaths } from '../../src/jq/references.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { expressionFinding } from '../../src/judge/expression-finding.js';

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

  // Issue 21: action jq sees `.user.teams` as `{name}` objects whose names are titles before and
  // after the migration (the service's own `[.user.teams[].name]`); `.user.teamsIdentifiers` and
  // `.user.team` hold team values. Which changes is what running shows.
  it('the documented [.user.teams[].name] with a title gives the same before and after: verified, no rewrite', () => {
    const finding = judge('[.user.teams[].name] | index("Payments") != null');
    expect(finding?.verdict).toBe('unaffected');
    expect(finding?.rewrite).toBeUndefined();
  });

  // Issue 29: the same before and after, and it lets nobody through in either: a dead gate, for review, not a migration change.
  it('.user.teams compared with a string never matched a {name} object: a dead gate', () => {
    const finding = judge('.user.teams | index("Payments") != null');
    expect(finding?.verdict).toBe('review');
    expect(finding?.deadGate?.outcome).toBe('matches-nobody');
  });

  it('.user.teamsIdentifiers compared with a title breaks, with the identifier as rewrite', () => {
    const finding = judge('.user.teamsIdentifiers | index("Payments") != null');
    expect(finding?.verdict).toBe('breaks');
    expect(finding?.rewrite).toBe('.user.teamsIdentifiers | index("payments") != null');
    expect(finding?.rewriteProof).toBe('proven');
  });

  it('a count of .user.teams reads teams but does not change', () => {
    expect(judge('.user.teams | length > 0')?.verdict).toBe('unaffected');
  });

  it('running the expression sees the team names in the sample user, and a team-value read by getpath', () => {
    expect(judge('.user | getpath(["teams"]) | map(.name) | any(. == "Payments")')?.verdict).toBe('unaffected');
    expect(judge('.user | getpath(["teamsIdentifiers"]) | any(. == "Payments")')?.verdict).toBe('breaks');
  });
});
