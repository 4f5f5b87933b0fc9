import { orgsView } from './orgs-view.js';
import { isFileFinding, manualElsewhere, placeSplit, VERDICT_LABELS, workCounts, type WorkCounts } from './work-counts.js';
import { CATEGORIES, RESOURCE_TYPES, type Category, type Finding, type FindingKind, type Report } from '../model/finding.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';
import { accessView, type AccessLine, type AccessView } from './access-view.js';
import { impactSentence, impactWeight } from './impact-text.js';
import { BASELINE_FORMAT } from '../baseline/baseline.js';
import { entityBlueprintOf, entityUrl, serviceLinkLabel, serviceUrl } from './service-links.js';
import { buildAfterMigrationView } from './after-migration-view.js';
import { fixLinks } from './fix-links.js';
import { plural } from '../plural.js';
import { compareText } from '../compare-text.js';
import { splitFileLocation } from '../file-location.js';
import { parsedJson } from '../parse-json.js';
import { suggestionBesideChange, suggestionsBesideChange } from './suggestion-text.js';

export interface RenderMeta {
  /** ISO time of the run; passed in so renderers never read the clock. */
  generatedAt: string;
  /** Where the org came from: "snapshot fixtures/demo-org.json", "live https://…". */
  source: string;
  /** The service's web app ("https://app.getport.io"), for "Open in the service" links; none for repositories only. */
  appUrl?: string;
}

/** Where a finding is listed: the two parts admins think in, plus the files in their own repositories. */
type SectionId = 'automatic' | 'manual' | 'repository';

interface ClientGroup {
  key: string;
  heading: string;
  /** A category's why / what-to-do; empty for file groups, whose findings name their category. */
  why: string;
  fix: string;
  /** Indexes into `findings`, in report order (by line for files). */
  items: number[];
}

/**
 * An access sentence with each person's `_user` entity page ('' without an app address); or,
 * when the people are many, only how many and which entry of report.access lists them, so the
 * page does not grow with users × actions and the reader opens report.json to see them.
 */
export type ClientAccessLine = (AccessLine & { people: { email: string; url: string }[] }) | (Omit<AccessLine, 'emails'> & { count: number; entry: number });

/** Ours: up to this many emails over all access lines travel in the page; beyond, it carries counts (issue 41). */
export const INLINE_PEOPLE = 5_000;

/** One row of the chart: a category (or all manual work), its counts in words and its stacked bar. */
interface ChartBarView extends LegendView {
  detail: string;
  /** Its coloured parts; x and width in the bar's own 0..1000 units (SVG attributes, so the CSP holds). */
  segments: (LegendView & { x: number; width: number })[];
}

interface LegendView {
  href: string;
  tone: string;
  label: string;
  count: number;
}

interface GateView {
  shown: boolean;
  tone: string;
  label: string;
  detail: string;
  stale: string[];
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

/** Work first: what breaks, then what needs action, then what needs review, then the rest; each tier badged as it is headed. */
const TIERS = [
  { id: 'breaks', heading: VERDICT_LABELS.breaks, verdicts: ['breaks'] },
  { id: 'action', heading: VERDICT_LABELS.none, verdicts: ['none'] },
  { id: 'review', heading: VERDICT_LABELS.review, verdicts: ['review'] },
  { id: 'rest', heading: VERDICT_LABELS.unaffected, verdicts: ['unaffected'] },
] as const;

/** A verdict after a count, in words that need no agreement with it. */
const COUNT_WORDS = { breaks: 'breaking', review: 'to review', none: 'needing action', unaffected: 'unaffected' } as const;

/** Chart, legend and filter order; each colour means one verdict (or, in grey, automatic) and nothing else. */
const CHART_VERDICTS = ['breaks', 'none', 'review', 'unaffected'] as const;

/** Categories whose new value is used beside the evidence, not written over it (a data move beside the relation it reads). */
const ADDED_BESIDE: ReadonlySet<Category> = new Set(['relation-ownership']);

/** Ownership categories: what IaC users must mirror is the blueprint's ownership, before and after. */
const OWNERSHIP_CATEGORIES: ReadonlySet<Category> = new Set(['ownership-direct', 'ownership-inherited', 'team-relation-removed']);

// Bars are drawn in 0..1000 units and stretched to the column; a segment keeps at least 4 units to stay visible.
const BAR_UNITS = 1000;
const MIN_SEGMENT = 4;

/** Every key the template and the page's script read is filled here; the template holds no logic. */
export function buildReportView(report: Report, meta: RenderMeta) {
  const findings = report.findings;
  const access = accessView(report);
  const counts = workCounts(findings);
  const client = clientData(report, meta.appUrl ?? '', access);
  const sectionCount = (id: SectionId) =>
    client.sections.find((s) => s.id === id)?.groups.reduce((sum, g) => sum + g.items.length, 0) ?? 0;

  return {
    organization: report.organization,
    generatedAt: meta.generatedAt,
    generatedAtLabel: timeLabel(meta.generatedAt),
    // When the org data judged was read (report.run.dataReadAt); empty when the report has none.
    dataReadAt: report.run?.dataReadAt ?? '',
    dataReadAtLabel: report.run?.dataReadAt ? timeLabel(report.run.dataReadAt) : '',
    source: meta.source,
    // The same on every file of one run's outputs.
    runId: report.run?.id ?? '',
    total: findings.length,
    manual: report.summary.manual,
    gate: gateView(report),
    // One line of counts under the gate: manual work by verdict, then the rest.
    cards: countCards(report, counts),
    chart: chartView(report, counts),
    incomplete: report.incomplete.map((item) => ({
      resource: item.resource,
      reason: item.accepted ? `${item.reason} (accepted in the baseline: ${item.accepted.reason}, by ${item.accepted.by})` : item.reason,
    })),
    incompleteHeading: incompleteHeading(report),
    // Input values of an unexpected shape, files the repository scan skipped, advice.
    notes: report.notes ?? [],
    // A merged report (`merge`, issue 41): each org and the cross-org checks.
    orgs: orgsView(report),
    // Notes are of several kinds (values read as far as understood, skipped files, advice): the title names none of them alone.
    notesHeading: `${plural((report.notes ?? []).length, 'note', 'notes')} on what was read`,
    filters: {
      categories: CATEGORIES.filter((c) => findings.some((f) => f.category === c)).map((c) => ({ value: c, label: CATEGORY_DOCS[c].title })),
      types: RESOURCE_TYPES.filter((t) => findings.some((f) => f.resource.type === t)).map((t) => ({ value: t, label: t })),
      verdicts: CHART_VERDICTS.filter((v) => findings.some((f) => (f.verdict ?? 'none') === v)).map((v) => ({ value: v, label: VERDICT_LABELS[v] })),
    },
    // Work first: the manual part opens the list, the automatic part comes last, folded.
    sections: (['manual', 'repository', 'automatic'] as const)
      // Folded on open (the automatic part: nothing to do in the service); a filter or print unfolds it.
      .map((id) => ({ id, ...SECTIONS[id], count: sectionCount(id), folded: id === 'automatic' }))
      .map((section) => (section.id === 'manual' ? { ...section, intro: section.intro + manualElsewhere(counts) } : section))
      // Repository files only appear when a repository was scanned; the two main parts always do.
      .filter((section) => section.id !== 'repository' || section.count > 0),
    client,
    // Who loses or gains access (report.access), summarised; `shown` only when the snapshot listed users.
    access,
    // Progress since `--since`, "Fixed since" and the verified references.
    after: buildAfterMigrationView(report, meta.appUrl ?? ''),
    // What a print holds and leaves out, said after the printed work.
    print: { sentence: printSentence(report, counts) },
  };
}

/** A print holds the work only: it says how much that is, and what it leaves to the page. */
function printSentence(report: Report, { manual, manualBy }: WorkCounts): string {
  const work = (['breaks', 'none', 'review'] as const).filter((verdict) => manualBy[verdict] > 0).map((verdict) => `${manualBy[verdict]} ${COUNT_WORDS[verdict]}`);
  const printed = `Printed: ${plural(manual.all - manualBy.unaffected, 'manual item', 'manual items')}${work.length > 0 ? ` (${work.join(', ')})` : ''}.`;
  const left = [
    report.summary.automatic > 0 ? plural(report.summary.automatic, 'change the migration makes by itself', 'changes the migration makes by itself') : '',
    (report.verified?.length ?? 0) > 0 ? plural(report.verified!.length, 'reference checked and fine', 'references checked and fine') : '',
  ].filter(Boolean);
  return left.length > 0 ? `${printed} Not printed: ${left.join(' and ')}; the page (index.html) lists them.` : printed;
}

/**
 * The counts line: manual work by verdict first (each a filter), then what needs nothing, the
 * repository files and the baseline. Zero counts are left out, except the two kinds. A card's
 * `href` is a filter in the URL hash, so a card is also a shortcut to its findings.
 */
function countCards(report: Report, counts: WorkCounts) {
  const where = (split: string) => (split === '' ? '' : ` (${split})`);
  const cards = [
    { value: counts.manual.all, label: `manual items${where(placeSplit(counts.manual))}`, href: '#kind=manual', tone: 'manual' },
    { value: counts.manualBy.breaks, label: 'breaking', href: '#kind=manual&verdict=breaks', tone: 'breaks' },
    { value: counts.manualBy.none, label: COUNT_WORDS.none, href: '#kind=manual&verdict=none', tone: 'none' },
    { value: counts.manualBy.review, label: 'to review', href: '#kind=manual&verdict=review', tone: 'review' },
    // Unaffected references are `verified`, not findings (docs/formats.md, `verified`): the card opens that list.
    { value: report.verified?.length ?? 0, label: 'checked, nothing to do', href: '#verified-h', tone: 'unaffected' },
    { value: counts.automatic.all, label: `changes the migration makes by itself${where(placeSplit(counts.automatic))}`, href: '#kind=automatic', tone: 'automatic' },
    { value: counts.files, label: 'in your repositories', href: '#type=file', tone: 'neutral' },
    { value: counts.accepted, label: 'accepted in the baseline', href: '', tone: 'neutral' },
  ];
  return cards.filter((card) => card.value > 0 || card.tone === 'manual' || card.tone === 'automatic');
}

/** Unread items make the report incomplete; unreadable files accepted in the baseline are only named. */
function incompleteHeading(report: Report): string {
  const open = report.incomplete.filter((item) => item.accepted === undefined).length;
  const accepted = report.incomplete.length - open;
  const acceptedText = `${plural(accepted, 'unreadable file', 'unreadable files')} accepted in the baseline`;
  if (open === 0) return `Not read: ${acceptedText}`;
  return `Incomplete: ${plural(open, 'item', 'items')} could not be read${accepted > 0 ? `; ${acceptedText}` : ''}`;
}

/** Everything the page's script needs, embedded as JSON; the script itself is static. */
function clientData(report: Report, appUrl: string, access: AccessView) {
  const links = fixLinks(report);
  const besideChange = suggestionsBesideChange();
  // Each with a link to the fix kit's file for it ("Download fix"), or ''.
  const findings = report.findings.map((finding) => ({ ...clientFinding(finding, appUrl, besideChange), fix: links.get(finding.id) ?? '' }));
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
  // Manual work by tier, then category: every breaking item comes before any item to review.
  const byTier = (): ClientGroup[] =>
    TIERS.flatMap((tier) =>
      byCategory('manual').flatMap((group) => {
        const verdicts: readonly string[] = tier.verdicts;
        // Within a tier, the items that move most people and entities come first (issue 21).
        const items = byImpact(group.items.filter((index) => verdicts.includes(report.findings[index]?.verdict ?? 'none')), report.findings);
        return items.length > 0 ? [{ ...group, key: `${group.key}:${tier.id}`, heading: `${tier.heading} · ${group.heading}`, items }] : [];
      }),
    );

  const byFile = new Map<string, { line: number; index: number }[]>();
  for (const { finding, index } of indexed) {
    if (!isFileFinding(finding)) continue;
    const { path, line } = splitFileLocation(finding.location);
    const list = byFile.get(path) ?? [];
    list.push({ line, index });
    byFile.set(path, list);
  }
  const fileGroups: ClientGroup[] = [...byFile.entries()]
    .sort(([a], [b]) => compareText(a, b))
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
    // The format "Download baseline" writes, the one `--baseline` reads.
    baselineFormat: BASELINE_FORMAT,
    findings,
    sections: [
      { id: 'manual', groups: byTier() },
      { id: 'repository', groups: fileGroups },
      { id: 'automatic', groups: byCategory('automatic') },
    ],
    ...clientAccess(access, appUrl),
  };
}

/**
 * report.access as sentences per finding id (issue 14; empty without users), as the page's script
 * reads them: with their people while they are few, else with counts. Then `userUrl` is set (the
 * people are left in report.json, more than INLINE_PEOPLE in all): a person's `_user` entity page
 * is it followed by their encoded email ('' without an app address).
 */
function clientAccess(access: AccessView, appUrl: string): { access: Record<string, ClientAccessLine[]>; userUrl?: string } {
  const byFinding = Object.entries(access.byFinding);
  const people = byFinding.reduce((sum, [, lines]) => lines.reduce((n, line) => n + line.emails.length, sum), 0);
  if (people <= INLINE_PEOPLE) {
    const inline = (line: AccessLine): ClientAccessLine => ({ text: line.text, emails: line.emails, tone: line.tone, people: line.emails.map((email) => ({ email, url: appUrl ? entityUrl(appUrl, '_user', email) : '' })) });
    return { access: Object.fromEntries(byFinding.map(([id, lines]) => [id, lines.map(inline)])) };
  }
  const counted = (line: AccessLine & { entry: number }): ClientAccessLine => ({ text: line.text, tone: line.tone, count: line.emails.length, entry: line.entry });
  return { access: Object.fromEntries(byFinding.map(([id, lines]) => [id, lines.map(counted)])), userUrl: appUrl ? entityUrl(appUrl, '_user', '') : '' };
}

/** Indexes ordered by the weight of their finding's impact, heaviest first; ties keep report order. */
function byImpact(items: readonly number[], findings: readonly Finding[]): number[] {
  return [...items].sort((a, b) => impactWeight(findings[b]!) - impactWeight(findings[a]!));
}

/** One finding as the page's script receives it: every field a string (or null), ready to show. */
function clientFinding(finding: Finding, appUrl: string, besideChange: typeof suggestionBesideChange) {
  const ownership = OWNERSHIP_CATEGORIES.has(finding.category);
  const verdict = finding.verdict ?? 'none';
  const beside = ADDED_BESIDE.has(finding.category);
  const afterLabel = ownership ? 'Ownership after' : finding.category === 'relation-ownership' ? 'Migrate-data mapping' : 'Write instead';
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
    // Issue 21: the blast radius measured on the org's data, after the why.
    reason: [finding.reason, impactSentence(finding)].filter(Boolean).join(' '),
    // What the Change row shows is not said again above it (src/report/suggestion-text.ts).
    suggestion: besideChange(finding.suggestion, finding.rewrite, afterLabel),
    // The concrete new value; shown as "after" beside the evidence as "before", with a copy button.
    rewrite: finding.rewrite ?? '',
    beforeLabel: ownership ? 'Ownership before' : beside ? 'The relation' : 'Now',
    afterLabel,
    // Whether the new value replaces the evidence (marked word by word, the old struck through), or
    // is used beside it: a relation's Migrate-data mapping moves its values and leaves its definition.
    replaces: !beside,
    verdict,
    verdictLabel: VERDICT_LABELS[verdict],
    note: finding.note ?? '',
    accepted: finding.accepted ? { reason: finding.accepted.reason, by: finding.accepted.by } : null,
    // Where the resource is edited in the service; empty for repository files or without an app address.
    serviceUrl: appUrl ? serviceUrl(appUrl, finding.resource) : '',
    // The link's words: the resource's own page, or which list page it opens.
    serviceLabel: serviceLinkLabel(finding.resource),
    exampleEntity: exampleEntity(finding, appUrl),
    copyable: rewriteChecked(finding),
    // As a baseline entry names its resource.
    resourceLabel: `${finding.resource.type} ${finding.resource.identifier}`,
  };
}

/** The entity named in the blast radius ("svc-a: … → …"), linked to its page when its blueprint is known (url '' without an app address). */
function exampleEntity(finding: Finding, appUrl: string): { identifier: string; url: string } | null {
  const identifier = finding.impact?.entities?.example?.identifier;
  if (identifier === undefined) return null;
  const blueprint = entityBlueprintOf(finding.resource);
  return { identifier, url: appUrl && blueprint !== undefined ? entityUrl(appUrl, blueprint, identifier) : '' };
}

/** Whether the rewrite was checked, the only one offered to copy: a jq rewrite carries whether jq compiled it; any other must be JSON that parses. */
function rewriteChecked(finding: Finding): boolean {
  if (finding.rewrite === undefined) return false;
  if (finding.rewriteCompiles !== undefined) return finding.rewriteCompiles;
  return parsedJson(finding.rewrite) !== undefined;
}

function gateView(report: Report): GateView {
  const gate = report.gate;
  if (!gate) return { shown: false, tone: '', label: '', detail: '', stale: [] };
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
  };
}

function chartView(report: Report, counts: WorkCounts): { shown: boolean; legend: LegendView[]; total: ChartBarView; bars: ChartBarView[] } {
  const manual = report.findings.filter((f) => f.kind === 'manual');
  const verdictOf = (f: Finding) => f.verdict ?? 'none';
  const rows = CATEGORIES.map((category) => ({ category, findings: report.findings.filter((f) => f.category === category) })).filter(
    (row) => row.findings.length > 0,
  );
  // Manual categories first, the most breaking first; the automatic ones after, in grey.
  const manualRows = rows
    .filter((row) => CATEGORY_DOCS[row.category].kind === 'manual')
    .sort((a, b) => b.findings.filter((f) => f.verdict === 'breaks').length - a.findings.filter((f) => f.verdict === 'breaks').length);
  const automatic = report.findings.filter((f) => f.kind === 'automatic');
  // One scale for every bar, the total included: a bar's length compares with every other bar's.
  const max = Math.max(1, manual.length, automatic.length, ...manualRows.map((row) => row.findings.length));

  const bar = (label: string, href: string, findings: readonly Finding[], automatic: boolean, scale: number, filter: string): ChartBarView => {
    const parts = automatic
      ? [{ tone: 'automatic', label: 'Automatic', count: findings.length, href }]
      : CHART_VERDICTS.map((verdict) => ({
          tone: verdict,
          label: VERDICT_LABELS[verdict],
          count: findings.filter((f) => verdictOf(f) === verdict).length,
          href: `#${filter}verdict=${verdict}`,
        })).filter((part) => part.count > 0);
    let x = 0;
    const segments = parts.map((part) => {
      const width = Math.max(MIN_SEGMENT, Math.round((part.count / scale) * BAR_UNITS));
      const segment = { ...part, x, width };
      x += width;
      return segment;
    });
    // Words that read the same for any count ("1 breaking", "3 breaking"), unlike "1 breaks".
    const detail = automatic ? 'automatic' : parts.map((part) => `${part.count} ${COUNT_WORDS[part.tone as keyof typeof COUNT_WORDS]}`).join(', ');
    return { href, label, count: findings.length, tone: automatic ? 'automatic' : 'manual', detail, segments };
  };

  const legend: LegendView[] = [
    ...CHART_VERDICTS.map((verdict) => ({ tone: verdict, label: VERDICT_LABELS[verdict], count: counts.manualBy[verdict], href: `#kind=manual&verdict=${verdict}` })),
    { tone: 'automatic', label: 'Automatic (nothing to do)', count: report.summary.automatic, href: '#kind=automatic' },
  ].filter((item) => item.count > 0);
  return {
    shown: rows.length > 0,
    legend,
    total: bar('All manual work', '#kind=manual', manual, false, max, 'kind=manual&'),
    bars: [
      ...manualRows.map((row) => bar(CATEGORY_DOCS[row.category].title, `#category=${row.category}`, row.findings, false, max, `category=${row.category}&`)),
      // The automatic part is one grey row: nothing to do there, so it takes no more room than that.
      ...(automatic.length > 0 ? [bar('Changes the migration makes by itself', '#kind=automatic', automatic, true, max, '')] : []),
    ],
  };
}

/** "2026-01-02T03:04:05.000Z" → "2026-01-02 03:04 UTC"; anything else is shown as given. */
function timeLabel(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
