import { placeOf, placeSplit, VERDICT_LABELS, workCounts, type WorkCounts } from './work-counts.js';
import { compareFindings } from '../analyze.js';
import { failsGate, policyOf } from '../gate.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';
import { CATEGORIES, type Finding, type FindingKind, type Report } from '../model/finding.js';
import { accessSummaryLine } from './access-view.js';
import { orgsView } from './orgs-view.js';
import { impactTotals } from './impact-text.js';
import { kitContents } from '../fix/kit-contents.js';
import { progressSentence } from '../progress/progress-text.js';
import { controlsShown, markdownEscape, workflowCommandsDisarmed } from '../terminal-text.js';
import { appendAll } from '../model/arrays.js';
import { agreeing, plural } from '../plural.js';

export interface MarkdownMeta {
  /** How many manual items to list before "…and N more". */
  topItems?: number;
  /** Where the full report was saved (`output/index.html`), named so a CI reader can find it. */
  reportPath?: string;
  /** The CI run's page, whose artifacts hold the saved report (built from GITHUB_* variables). */
  runUrl?: string;
  /** The artifact the action uploads the reports in (TMA_ARTIFACT_NAME, set by the action). */
  artifactName?: string;
}

const DEFAULT_TOP_ITEMS = 10;
/** Most urgent first: a verdict of `breaks`, then unjudged findings, then those to review. */
const URGENCY: Record<string, number> = { breaks: 0, none: 1, review: 2, unaffected: 3 };

/** A short step summary for CI: counts, the gate, the top manual items. Pure and clock-free. */
export function renderMarkdown(report: Report, meta: MarkdownMeta = {}): string {
  const policy = policyOf(report);
  const findings = [...report.findings].sort(compareFindings);
  const failing = (finding: Finding) => failsGate(finding, policy);
  const out: string[] = [];

  out.push(`## Teams migration audit: ${cell(report.organization.name)}`, '', gateLine(report), '');
  // Issue 38: what could not be read is why the gate has no verdict, so it is the first section; accepted ones say so.
  listSection(
    out,
    '### Incomplete',
    'These could not be read, so the audit cannot pass:',
    report.incomplete.map((item) => `- ${cell(item.resource)}: ${cell(item.reason)}${item.accepted ? ' (accepted in the baseline)' : ''}`),
  );
  if (report.progress) out.push(`**Progress:** ${progressSentence(report.progress)}`, '');
  if (report.verified) out.push(`${plural(report.verified.length, 'team reference', 'team references')} checked and fine (nothing to do): see report.json \`verified\`.`, '');
  out.push(...orgLines(report));
  // What to do first, before any count: the step summary is read top down, and wide tables scroll.
  out.push(...topItems(findings, failing, meta), ...savedReport(meta));

  out.push('| kind | findings | accepted | failing the gate |', '|---|--:|--:|--:|');
  for (const kind of ['automatic', 'manual'] as const satisfies readonly FindingKind[]) {
    const mine = findings.filter((f) => f.kind === kind);
    const label = kind === 'automatic' ? 'automatic (the migration does it)' : 'manual (a person must act)';
    out.push(`| ${label} | ${mine.length} | ${mine.filter((f) => f.accepted).length} | ${mine.filter(failing).length} |`);
  }
  out.push('');
  // The page splits the manual work by where it is; so does the summary, from the same counts.
  const counts = workCounts(findings);
  if (counts.files > 0) out.push(`Manual items: ${placeSplit(counts.manual)}; automatic: ${placeSplit(counts.automatic)}.`, '');

  const categories = CATEGORIES.filter((category) => findings.some((f) => f.category === category));
  if (categories.length > 0) {
    out.push('| category | kind | findings | failing the gate |', '|---|---|--:|--:|');
    for (const category of categories) {
      const mine = findings.filter((f) => f.category === category);
      const doc = CATEGORY_DOCS[category];
      out.push(`| ${cell(doc.title)} (${cell(category)}) | ${doc.kind} | ${mine.length} | ${mine.filter(failing).length} |`);
    }
    out.push('');
  }

  // Issue 14: who loses or gains access, when the snapshot listed users.
  if (report.access !== undefined) out.push(`**Access:** ${cell(accessSummaryLine(report.access))} (see report.json \`access\`).`, '');
  out.push(...impactLines(report));

  out.push(...verdictTable(counts));

  if (report.fixes) out.push(fixKitLine(report.fixes), '');

  const accepted = findings.filter((f) => f.accepted !== undefined);
  // Code scanning ignores SARIF suppressions, so report.sarif leaves these out: this is where they are listed.
  listSection(
    out,
    '### Accepted in the baseline',
    `${plural(accepted.length, 'finding', 'findings')} accepted in the baseline (not in report.sarif unless --sarif-accepted):`,
    accepted.map((f) => `- ${cell(f.id)} ${cell(placeOf(f))}: ${cell(f.accepted!.reason)} (${cell(f.accepted!.by)})`),
  );
  const expired = report.gate?.expiredBaselineIds ?? [];
  listSection(
    out,
    '### Expired baseline entries',
    `${plural(expired.length, 'baseline entry', 'baseline entries')} expired, so ${agreeing(expired.length, 'its finding counts', 'their findings count')} again:`,
    expired.map((id) => `- ${cell(id)}`),
  );
  const stale = report.gate?.staleBaselineIds ?? [];
  listSection(
    out,
    '### Stale baseline entries',
    `${plural(stale.length, 'baseline entry', 'baseline entries')} ${agreeing(stale.length, 'matches', 'match')} no finding any more; remove ${stale.length === 1 ? 'it' : 'them'} from the baseline:`,
    stale.map((id) => `- ${cell(id)}`),
  );

  const notes = report.notes ?? [];
  const limit = meta.topItems ?? DEFAULT_TOP_ITEMS;
  listSection(
    out,
    '### Notes',
    `${plural(notes.length, 'note', 'notes')}: values of the org of a shape this tool does not fully know (read as far as understood), files the repository scan skipped, expressions jq does not compile (they fail alike before and after the migration), and advice (see report.json \`notes\`):`,
    [...notes.slice(0, limit).map((note) => `- ${cell(note)}`), ...(notes.length > limit ? [`- …and ${notes.length - limit} more`] : [])],
  );

  // Every file of one run's outputs carries the same run id (report.run).
  if (report.run) out.push(`Run \`${cell(report.run.id)}\``);
  // It goes to GITHUB_STEP_SUMMARY and CI logs: no org or file text may act on them (ESC, BEL, bidi).
  return `${workflowCommandsDisarmed(controlsShown(out.join('\n'), ['\n']), markdownEscape).trimEnd()}\n`;
}

/** A heading, what the list is, and its items, each on its line; nothing when there are no items. */
function listSection(out: string[], heading: string, sentence: string, items: readonly string[]): void {
  if (items.length === 0) return;
  out.push(heading, '', sentence, '');
  appendAll(out, items);
  out.push('');
}

/** Manual items by verdict, named as the page names them; "needs action" (no verdict) has its own row, so the rows add up to the manual total. */
function verdictTable({ manual, manualBy }: WorkCounts): string[] {
  if (manual.all === 0) return [];
  // Unaffected references are no findings (they are the "checked and fine" count), so their row is shown only when a report still has one.
  const rows = (['breaks', 'review', 'unaffected', 'none'] as const).flatMap((verdict) =>
    verdict === 'unaffected' && manualBy[verdict] === 0 ? [] : [`| ${VERDICT_LABELS[verdict].toLowerCase()} | ${manualBy[verdict]} |`],
  );
  return ['| manual items by verdict | findings |', '|---|--:|', ...rows, `| total | ${manual.all} |`, ''];
}

/**
 * The manual work, most urgent first, with the value to write: listed whatever the gate says
 * (also under `--fail-on none`), less what is accepted or judged unaffected.
 */
function topItems(findings: readonly Finding[], failing: (f: Finding) => boolean, meta: MarkdownMeta): string[] {
  const top = findings
    .filter((f) => f.kind === 'manual' && f.verdict !== 'unaffected' && !f.accepted)
    .sort((a, b) => (URGENCY[a.verdict ?? 'none'] ?? 1) - (URGENCY[b.verdict ?? 'none'] ?? 1) || compareFindings(a, b));
  const limit = meta.topItems ?? DEFAULT_TOP_ITEMS;
  const out = ['### Top manual items', ''];
  if (top.length === 0) return [...out, 'No manual item is left to do: each is accepted in the baseline or judged unaffected.', ''];
  // Four columns, the value to write last and whole, to copy: seven columns pushed it off a CI page.
  out.push('| # | verdict | where | write instead |', '|--:|---|---|---|');
  top.slice(0, limit).forEach((f, index) => {
    const verdict = `${VERDICT_LABELS[f.verdict ?? 'none'].toLowerCase()}${failing(f) ? ', fails the gate' : ''}`;
    out.push(`| ${index + 1} | ${verdict} | ${cell(placeOf(f))} | ${writeInstead(f)} |`);
  });
  out.push('');
  if (top.length > limit) out.push(`…and ${top.length - limit} more: see report.json or index.html.`, '');
  return out;
}

/** The value to write, whole (a value cut to fit would be wrong when copied into the service); else what to do. */
function writeInstead(finding: Finding): string {
  return finding.rewrite === undefined ? `no value computed: ${cell(finding.suggestion)}` : cell(finding.rewrite);
}

function savedReport(meta: MarkdownMeta): string[] {
  if (meta.reportPath === undefined) return [];
  // Only a plain https address becomes a link; anything else could break out of the Markdown.
  const runLink = meta.runUrl !== undefined && /^https:\/\/[^\s()<>\[\]]+$/.test(meta.runUrl) ? `[this run](${meta.runUrl})` : undefined;
  // In a code span nothing is Markdown but its closing backtick: that and line breaks are all to keep out.
  const artifact = meta.artifactName === undefined ? undefined : `the artifact \`${meta.artifactName.replace(/[`\u0000-\u001f\u007f]/g, "'")}\``;
  const run = runLink === undefined ? (artifact === undefined ? '' : ` (in ${artifact} of this run)`) : artifact === undefined ? ` (in the artifacts of ${runLink})` : ` (in ${artifact} of ${runLink})`;
  return [`Full report: ${cell(meta.reportPath)}${run}.`, ''];
}

function gateLine(report: Report): string {
  const gate = report.gate;
  if (!gate) return '**Gate:** not applied.';
  const threshold = `\`--fail-on ${gate.failOn}\`${gate.failOnVerdict ? ` \`--fail-on-verdict ${gate.failOnVerdict}\`` : ''}`;
  const accepted = gate.accepted ?? 0;
  const acceptedText = accepted > 0 ? `; ${accepted} accepted in the baseline` : '';
  if (gate.result === 'incomplete') {
    return `**Gate: incomplete** (exit 3): ${plural(report.incomplete.length, 'item', 'items')} could not be read; ${plural(gate.failing, 'finding', 'findings')} over ${threshold}${acceptedText}.`;
  }
  if (gate.result === 'failed') return `**Gate: failed** (exit 1): ${plural(gate.failing, 'finding', 'findings')} over ${threshold}${acceptedText}.`;
  return `**Gate: passed** (exit 0): nothing over ${threshold}${acceptedText}.`;
}

/** Entities, not backslashes, for HTML's characters: no renderer can read `&lt;img` as a tag. */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Org values go into table cells: backslash-escape Markdown punctuation (so a title cannot open a
 * link, emphasis or HTML tag) and the cell separator, and fold line breaks.
 */
export function cell(value: string): string {
  return value
    .replace(/[&<>]/g, (char) => HTML_ENTITIES[char] ?? char)
    .replace(/[\\`*_{}[\]()#+!|~]/g, (char) => `\\${char}`)
    .replace(/\r\n|\r|\n/g, ' ');
}

/** The fix kit in one line: where it is and how much of the work it holds. */
function fixKitLine(fixes: NonNullable<Report['fixes']>): string {
  const resolved = new Set(fixes.files.flatMap((file) => file.findings)).size;
  const left = fixes.unresolved?.length ?? 0;
  // `dir` is relative to the report's folder (--out), which a reader of a CI summary cannot guess.
  return `**Fix kit:** \`${cell(fixes.dir)}/\` (a path from the report folder, \`--out\`) holds ${plural(fixes.files.length, 'file', 'files')} that ${agreeing(fixes.files.length, 'fixes', 'fix')} ${plural(resolved, 'finding', 'findings')} (${kitContents(fixes.files)}); ${plural(left, 'breaking finding')} ${agreeing(left, 'needs', 'need')} a person. Start with its README.md.`;
}

/** Issue 21: what the findings move, measured on the org's data; nothing when none was measured. */
function impactLines(report: Report): string[] {
  const { findings, entitiesChanged: changed, usersLose: lose, usersGain: gain } = impactTotals(report);
  if (findings === 0) return [];
  return [`**Impact:** ${plural(findings, 'finding', 'findings')} measured on the org's data: ${plural(changed, 'entity', 'entities')} ${agreeing(changed, 'changes', 'change')} value or result; ${plural(lose, 'person', 'people')} ${agreeing(lose, 'loses', 'lose')} and ${gain} ${agreeing(gain, 'gains', 'gain')} a permission (see report.json \`impact\`).`, ''];
}

/** A merged report (issue 41): each org's figures and gate, then what only the orgs side by side show. */
function orgLines(report: Report): string[] {
  const view = orgsView(report);
  if (!view.shown) return [];
  const lines = ['| org | automatic | manual | gate |', '|---|--:|--:|---|'];
  for (const row of view.rows) lines.push(`| ${cell(row.name)} (${cell(row.id)}) | ${row.automatic} | ${row.manual} | ${cell(row.gate)} |`);
  lines.push('');
  if (view.checks.length > 0) {
    lines.push(`**Across orgs:** ${plural(view.checks.length, 'finding', 'findings')}`, '');
    for (const check of view.checks) lines.push(`- **${cell(check.label)}** (${cell(check.org)}): ${cell(check.message)}`);
    lines.push('');
  }
  return lines;
}
