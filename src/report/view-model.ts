import { CATEGORIES, RESOURCE_TYPES, type Category, type Finding, type FindingKind, type Report, type Verdict } from '../model/finding.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';
import { buildAfterMigrationView, type AfterMigrationView } from './after-migration-view.js';
import { fixLinks } from './fix-links.js';

export interface RenderMeta {
  /** ISO time of the run; passed in so renderers never read the clock. */
  generatedAt: string;
  /** Where the org came from: "snapshot fixtures/demo-org.json", "live https://…". */
  source: string;
}

/** Where a finding is listed: the two parts admins think in, plus the files in their own repositories. */
export type SectionId = 'automatic' | 'manual' | 'repository';

/** One finding as the page's script receives it: every field a string (or null), ready to show. */
export interface ClientFinding {
  id: string;
  kind: FindingKind;
  category: Category;
  categoryTitle: string;
  type: string;
  identifier: string;
  title: string;
  location: string;
  evidence: string;
  reason: string;
  suggestion: string;
  /** The concrete new value; shown as "after" beside the evidence as "before", with a copy button. */
  rewrite: string;
  beforeLabel: string;
  afterLabel: string;
  verdict: Verdict | 'none';
  verdictLabel: string;
  note: string;
  accepted: { reason: string; by: string } | null;
  /** A link to the fix kit's file for this finding ("Download fix"), or ''. */
  fix: string;
}

export interface ClientGroup {
  key: string;
  heading: string;
  /** A category's why / what-to-do; empty for file groups, whose findings name their category. */
  why: string;
  fix: string;
  /** Indexes into `findings`, in report order (by line for files). */
  items: number[];
}

export interface ClientSection {
  id: SectionId;
  groups: ClientGroup[];
}

/** Everything the page's script needs, embedded as JSON; the script itself is static. */
export interface ClientData {
  organization: { id: string; name: string };
  findings: ClientFinding[];
  sections: ClientSection[];
}

export interface CardView {
  value: number;
  label: string;
  /** A filter in the URL hash, so a card is also a shortcut to its findings. */
  href: string;
  tone: string;
}

export interface ChartBarView {
  href: string;
  label: string;
  count: number;
  tone: string;
  y: number;
  textY: number;
  width: number;
  countX: number;
}

export interface OptionView {
  value: string;
  label: string;
}

export interface SectionView {
  id: SectionId;
  heading: string;
  intro: string;
  count: number;
}

export interface GateView {
  shown: boolean;
  tone: string;
  label: string;
  detail: string;
  stale: string[];
  hasStale: boolean;
}

export interface ReportView {
  organization: { id: string; name: string };
  generatedAt: string;
  generatedAtLabel: string;
  source: string;
  total: number;
  manual: number;
  gate: GateView;
  cards: CardView[];
  verdictCards: CardView[];
  chart: { shown: boolean; width: number; height: number; labelX: number; barX: number; bars: ChartBarView[] };
  incomplete: { resource: string; reason: string }[];
  hasIncomplete: boolean;
  /** report.notes: input values of an unexpected shape, read as far as understood. */
  notes: string[];
  hasNotes: boolean;
  filters: { categories: OptionView[]; types: OptionView[]; verdicts: OptionView[] };
  sections: SectionView[];
  client: ClientData;
  /** Progress since `--since`, "Fixed since" and the verified references (src/report/after-migration-view.ts). */
  after: AfterMigrationView;
}

const SECTIONS: Record<SectionId, { heading: string; intro: string }> = {
  automatic: {
    heading: 'Changes the migration makes by itself',
    intro: 'Nothing to fix in the service. Where these resources are also kept in Terraform, Pulumi, GitOps or API scripts, make the same change there.',
  },
  manual: {
    heading: 'Manual work',
    intro: 'The migration does not touch these, and they can break. Each item names the exact place, why, and what to write instead.',
  },
  repository: {
    heading: 'Your repositories',
    intro: 'Files in your own repositories (Terraform, GitOps, API scripts, port.yaml) that the migration cannot see. Change them as shown, or the next apply undoes the migration.',
  },
};

const VERDICT_LABELS: Record<Verdict | 'none', string> = {
  breaks: 'Breaks',
  review: 'Needs review',
  unaffected: 'Unaffected',
  none: 'No verdict',
};

/** Ownership categories: what IaC users must mirror is the blueprint's ownership, before and after. */
const OWNERSHIP_CATEGORIES: ReadonlySet<Category> = new Set(['ownership-direct', 'ownership-inherited', 'team-relation-removed']);

// Label column wide enough for the longest category title at 13 px.
const CHART = { width: 660, row: 26, labelWidth: 340, barMax: 270 } as const;

/** Every key the template and the page's script read is filled here; the template holds no logic. */
export function buildReportView(report: Report, meta: RenderMeta): ReportView {
  const findings = report.findings;
  const count = (predicate: (f: Finding) => boolean) => findings.filter(predicate).length;
  const files = count(isFileFinding);
  const client = clientData(report);
  const sectionCount = (id: SectionId) =>
    client.sections.find((s) => s.id === id)?.groups.reduce((sum, g) => sum + g.items.length, 0) ?? 0;

  return {
    organization: report.organization,
    generatedAt: meta.generatedAt,
    generatedAtLabel: timeLabel(meta.generatedAt),
    source: meta.source,
    total: findings.length,
    manual: report.summary.manual,
    gate: gateView(report),
    cards: [
      { value: report.summary.automatic, label: 'changes the migration makes by itself', href: '#kind=automatic', tone: 'automatic' },
      { value: report.summary.manual, label: 'manual items', href: '#kind=manual', tone: 'manual' },
      { value: files, label: 'in your repositories', href: '#type=file', tone: 'neutral' },
      { value: count((f) => f.accepted !== undefined), label: 'accepted in the baseline', href: '', tone: 'neutral' },
    ]
      // Repository and baseline cards only when a repository was scanned or a baseline applied.
      .filter((card, index) => index < 2 || card.value > 0),
    verdictCards: (['breaks', 'review', 'unaffected'] as const).map((verdict) => ({
      // Unaffected references are `verified`, not findings (contracts.md §3.3): the card counts and opens those.
      value: verdict === 'unaffected' ? (report.verified?.length ?? 0) : count((f) => f.verdict === verdict),
      label: verdict === 'unaffected' ? 'checked, nothing to do' : VERDICT_LABELS[verdict].toLowerCase(),
      href: verdict === 'unaffected' ? '#verified-h' : `#verdict=${verdict}`,
      tone: verdict,
    })),
    chart: chartView(report),
    incomplete: report.incomplete,
    hasIncomplete: report.incomplete.length > 0,
    notes: report.notes ?? [],
    hasNotes: (report.notes ?? []).length > 0,
    filters: {
      categories: CATEGORIES.filter((c) => findings.some((f) => f.category === c)).map((c) => ({ value: c, label: CATEGORY_DOCS[c].title })),
      types: RESOURCE_TYPES.filter((t) => findings.some((f) => f.resource.type === t)).map((t) => ({ value: t, label: t })),
      verdicts: (['breaks', 'review', 'unaffected', 'none'] as const)
        .filter((v) => findings.some((f) => (f.verdict ?? 'none') === v))
        .map((v) => ({ value: v, label: VERDICT_LABELS[v] })),
    },
    sections: (['automatic', 'manual', 'repository'] as const)
      .map((id) => ({ id, ...SECTIONS[id], count: sectionCount(id) }))
      // Repository files only appear when a repository was scanned; the two main parts always do.
      .filter((section) => section.id !== 'repository' || section.count > 0),
    client,
    after: buildAfterMigrationView(report),
  };
}

export function isFileFinding(finding: Finding): boolean {
  return finding.resource.type === 'file';
}

/** "path/to/main.tf:12" → path and line; a location without a numeric line is all path. */
export function splitFileLocation(location: string): { path: string; line: number } {
  const match = /^(.*):(\d+)$/.exec(location);
  return match?.[1] !== undefined && match[2] !== undefined ? { path: match[1], line: Number(match[2]) } : { path: location, line: 0 };
}

function clientData(report: Report): ClientData {
  const links = fixLinks(report);
  const findings = report.findings.map((finding) => ({ ...clientFinding(finding), fix: links.get(finding.id) ?? '' }));
  const indexed = report.findings.map((finding, index) => ({ finding, index }));
  const byCategory = (kind: FindingKind): ClientGroup[] =>
    CATEGORIES.filter((c) => CATEGORY_DOCS[c].kind === kind)
      .map((category) => ({
        key: `category:${category}`,
        heading: CATEGORY_DOCS[category].title,
        why: CATEGORY_DOCS[category].why,
        fix: CATEGORY_DOCS[category].fix,
        items: indexed.filter(({ finding }) => finding.category === category && !isFileFinding(finding)).map(({ index }) => index),
      }))
      .filter((group) => group.items.length > 0);

  const byFile = new Map<string, { line: number; index: number }[]>();
  for (const { finding, index } of indexed) {
    if (!isFileFinding(finding)) continue;
    const { path, line } = splitFileLocation(finding.location);
    const list = byFile.get(path) ?? [];
    list.push({ line, index });
    byFile.set(path, list);
  }
  const fileGroups: ClientGroup[] = [...byFile.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, list]) => ({
      key: `file:${path}`,
      heading: path,
      why: '',
      fix: '',
      // Stable sort: same line keeps report order.
      items: [...list].sort((a, b) => a.line - b.line).map(({ index }) => index),
    }));

  return {
    organization: report.organization,
    findings,
    sections: [
      { id: 'automatic', groups: byCategory('automatic') },
      { id: 'manual', groups: byCategory('manual') },
      { id: 'repository', groups: fileGroups },
    ],
  };
}

function clientFinding(finding: Finding): Omit<ClientFinding, 'fix'> {
  const ownership = OWNERSHIP_CATEGORIES.has(finding.category);
  const verdict = finding.verdict ?? 'none';
  return {
    id: finding.id,
    kind: finding.kind,
    category: finding.category,
    categoryTitle: CATEGORY_DOCS[finding.category].title,
    type: finding.resource.type,
    identifier: finding.resource.identifier,
    title: finding.resource.title ?? '',
    location: finding.location,
    evidence: finding.evidence,
    reason: finding.reason,
    suggestion: finding.suggestion,
    rewrite: finding.rewrite ?? '',
    beforeLabel: ownership ? 'Ownership before' : 'Now',
    afterLabel: ownership ? 'Ownership after' : finding.category === 'relation-ownership' ? 'Migrate-data mapping' : 'Write instead',
    verdict,
    verdictLabel: VERDICT_LABELS[verdict],
    note: finding.note ?? '',
    accepted: finding.accepted ? { reason: finding.accepted.reason, by: finding.accepted.by } : null,
  };
}

function gateView(report: Report): GateView {
  const gate = report.gate;
  if (!gate) return { shown: false, tone: '', label: '', detail: '', stale: [], hasStale: false };
  const stale = gate.staleBaselineIds ?? [];
  const label = { passed: 'Gate passed', failed: 'Gate failed', incomplete: 'Incomplete: no gate verdict' }[gate.result];
  const threshold = { none: 'nothing fails it', manual: 'manual items fail it', any: 'any finding fails it' }[gate.failOn];
  const failing = gate.failing === 1 ? '1 finding over the threshold' : `${gate.failing} findings over the threshold`;
  return {
    shown: true,
    tone: gate.result,
    label,
    detail: `--fail-on ${gate.failOn} (${threshold}); ${failing}, not accepted in the baseline`,
    stale,
    hasStale: stale.length > 0,
  };
}

function chartView(report: Report): ReportView['chart'] {
  const rows = CATEGORIES.map((category) => ({ category, count: report.findings.filter((f) => f.category === category).length })).filter(
    (row) => row.count > 0,
  );
  const max = Math.max(1, ...rows.map((row) => row.count));
  const bars = rows.map((row, index) => {
    // At least 2 px, so a category with one finding among thousands is still visible.
    const width = Math.max(2, Math.round((row.count / max) * CHART.barMax));
    const y = index * CHART.row;
    return {
      href: `#category=${row.category}`,
      label: CATEGORY_DOCS[row.category].title,
      count: row.count,
      tone: CATEGORY_DOCS[row.category].kind,
      y: y + 4,
      textY: y + 18,
      width,
      countX: CHART.labelWidth + width + 6,
    };
  });
  return {
    shown: bars.length > 0,
    width: CHART.width,
    height: Math.max(1, rows.length * CHART.row),
    labelX: CHART.labelWidth - 8,
    barX: CHART.labelWidth,
    bars,
  };
}

/** "2026-01-02T03:04:05.000Z" → "2026-01-02 03:04 UTC"; anything else is shown as given. */
function timeLabel(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
