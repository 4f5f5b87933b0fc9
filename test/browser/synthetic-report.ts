import { fingerprint } from '../../src/analyze.js';
import { CATEGORY_DOCS } from '../../src/model/category-docs.js';
import { CATEGORIES, type Category, type Finding, type Report, type ResourceType, type Verdict } from '../../src/model/finding.js';

/** Resource types that fit each category, so synthetic reports look like real ones. */
const TYPES: Record<Category, ResourceType> = {
  'ownership-direct': 'blueprint',
  'ownership-inherited': 'blueprint',
  'team-relation-removed': 'blueprint',
  'team-permission-identifiers': 'action',
  'external-ownership': 'file',
  'calculation-property': 'blueprint',
  'action-user-input': 'action',
  'action-mapping': 'automation',
  'action-dynamic-permission': 'action',
  'integration-mapping': 'integration',
  'webhook-mapping': 'webhook',
  'page-widget': 'page',
  'relation-ownership': 'blueprint',
  'scorecard-rule': 'scorecard',
  'mirror-property': 'blueprint',
};
const VERDICTS: Verdict[] = ['breaks', 'review', 'unaffected'];

export function finding(partial: Partial<Finding> & Pick<Finding, 'category' | 'resource' | 'location'>): Finding {
  const kind = CATEGORY_DOCS[partial.category].kind;
  return {
    id: fingerprint(partial),
    kind,
    evidence: '.team | index("Platform Team")',
    reason: 'It compares team titles.',
    suggestion: 'Compare identifiers.',
    ...partial,
  };
}

export function reportOf(findings: Finding[], org = { id: 'org_synthetic', name: 'Synthetic Org' }): Report {
  const byCategory: Partial<Record<Category, number>> = {};
  for (const f of findings) byCategory[f.category] = (byCategory[f.category] ?? 0) + 1;
  return {
    format: 'impact-report/1',
    organization: org,
    summary: {
      automatic: findings.filter((f) => f.kind === 'automatic').length,
      manual: findings.filter((f) => f.kind === 'manual').length,
      byCategory,
    },
    incomplete: [],
    findings,
  };
}

/**
 * `count` findings spread over every category; one in ten, and every external-ownership one, is a
 * repository file finding (spread over `count / 20` files). Deterministic, so measurements compare across runs.
 */
export function syntheticReport(count: number): Report {
  const findings: Finding[] = [];
  const files = Math.max(1, Math.floor(count / 20));
  for (let i = 0; i < count; i++) {
    const category = CATEGORIES[i % CATEGORIES.length] as Category;
    const isFile = i % 10 === 9 || category === 'external-ownership';
    const type: ResourceType = isFile ? 'file' : TYPES[category];
    const manual = CATEGORY_DOCS[category].kind === 'manual';
    findings.push(
      finding({
        category: isFile ? 'external-ownership' : category,
        resource: isFile
          ? { type, identifier: `infra/team-${i % files}/main.tf` }
          : { type, identifier: `${type}_${i}`, title: `Resource number ${i}` },
        location: isFile ? `infra/team-${i % files}/main.tf:${i + 1}` : `calculationProperties.prop_${i}.calculation`,
        evidence: `.team | index("Team ${i % 97}") != null and .relations.owning_team != "Squad ${i}"`,
        reason: `The expression compares the team meta property with a team title (item ${i}).`,
        suggestion: `Change it to: .team | index("team_${i % 97}") != null`,
        rewrite: i % 3 === 0 ? `.team | index("team_${i % 97}") != null` : undefined,
        verdict: manual || isFile ? VERDICTS[i % VERDICTS.length] : undefined,
      }),
    );
  }
  if (new Set(findings.map((f) => f.id)).size !== count) throw new Error('synthetic findings must have distinct ids');
  // Drop undefined optionals so the report is what JSON would carry.
  return reportOf(findings.map((f) => JSON.parse(JSON.stringify(f)) as Finding));
}
