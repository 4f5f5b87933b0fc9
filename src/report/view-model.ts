import { CATEGORIES, type Category, type Finding, type FindingKind, type Report } from '../model/finding.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';

export interface RenderMeta {
  /** ISO time of the run; passed in so renderers never read the clock. */
  generatedAt: string;
  /** Where the org came from: "snapshot fixtures/demo-org.json", "live https://…". */
  source: string;
}

export interface CategoryView {
  category: Category;
  title: string;
  why: string;
  fix: string;
  count: number;
  findings: FindingView[];
}

export interface FindingView {
  id: string;
  resourceType: string;
  identifier: string;
  title: string;
  location: string;
  evidence: string;
  reason: string;
  suggestion: string;
  verdict: string;
  rewrite: string;
  note: string;
}

export interface SectionView {
  kind: FindingKind;
  heading: string;
  intro: string;
  count: number;
  categories: CategoryView[];
  empty: boolean;
}

export interface ReportView {
  organization: { id: string; name: string };
  generatedAt: string;
  source: string;
  total: number;
  automatic: number;
  manual: number;
  incomplete: { resource: string; reason: string }[];
  hasIncomplete: boolean;
  sections: SectionView[];
}

const SECTIONS: { kind: FindingKind; heading: string; intro: string }[] = [
  {
    kind: 'automatic',
    heading: 'Changes the migration makes by itself',
    intro: 'Nothing to fix in the service. Where these resources are also kept in Terraform, Pulumi, GitOps or API scripts, make the same change there.',
  },
  {
    kind: 'manual',
    heading: 'Manual work',
    intro: 'The migration does not touch these, and they can break. Each item names the exact place, why, and what to write instead.',
  },
];

/** Every key the template reads is filled here; the template holds no logic. */
export function buildReportView(report: Report, meta: RenderMeta): ReportView {
  return {
    organization: report.organization,
    generatedAt: meta.generatedAt,
    source: meta.source,
    total: report.findings.length,
    automatic: report.summary.automatic,
    manual: report.summary.manual,
    incomplete: report.incomplete,
    hasIncomplete: report.incomplete.length > 0,
    sections: SECTIONS.map((section) => {
      const categories = CATEGORIES.filter((c) => CATEGORY_DOCS[c].kind === section.kind)
        .map((category) => categoryView(category, report.findings))
        .filter((view) => view.count > 0);
      const count = categories.reduce((sum, view) => sum + view.count, 0);
      return { ...section, count, categories, empty: count === 0 };
    }),
  };
}

function categoryView(category: Category, findings: readonly Finding[]): CategoryView {
  const doc = CATEGORY_DOCS[category];
  const mine = findings.filter((f) => f.category === category).map(findingView);
  return { category, title: doc.title, why: doc.why, fix: doc.fix, count: mine.length, findings: mine };
}

function findingView(finding: Finding): FindingView {
  return {
    id: finding.id,
    resourceType: finding.resource.type,
    identifier: finding.resource.identifier,
    title: finding.resource.title ?? '',
    location: finding.location,
    evidence: finding.evidence,
    reason: finding.reason,
    suggestion: finding.suggestion,
    verdict: finding.verdict ?? '',
    rewrite: finding.rewrite ?? '',
    note: finding.note ?? '',
  };
}
