import { plural } from '../plural.js';
import { splitFileLocation } from '../file-location.js';
import { compareFindings } from '../analyze.js';
import { failsGate, policyOf } from '../gate.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';
import { CATEGORIES, type Category, type Finding, type Report } from '../model/finding.js';
import { controlsShown, jsonControlsEscaped } from '../terminal-text.js';
import { accessLines, accessSummaryLine } from './access-view.js';
import { impactSentence, impactTotals } from './impact-text.js';

/** What the SARIF log needs beyond the report; data only, never the clock. */
export interface SarifMeta {
  toolVersion: string;
  /**
   * Repository-relative path of the file the org was read from (a snapshot). Findings about the
   * org get it as their artifact beside their logical location, because GitHub code scanning
   * rejects a whole upload when one result has no artifact location.
   */
  orgArtifactUri?: string;
  /** The line in that file where each org finding's resource is named (src/report/snapshot-lines.ts). */
  orgLineOf?: (finding: Finding) => number;
  /** Where the org was read from, to say why its findings have no file when they have none. */
  orgOrigin?: OrgOrigin;
  /**
   * `--sarif-accepted`: keep findings the baseline accepts, as suppressed results. Left out by
   * default: code scanning ignores SARIF suppressions, so each would stay an open alert.
   */
  includeAccepted?: boolean;
}

/** Where org findings came from, when they could not be placed in a file. */
export type OrgOrigin = 'live' | 'demo' | 'snapshot-elsewhere';

/** "N findings about <subject> have no place in a file": why, in the words of each origin. */
const UNPLACED_SUBJECT: Record<OrgOrigin | 'unknown', string> = {
  live: 'the org read live',
  demo: 'the bundled demo org',
  'snapshot-elsewhere': 'the org read from a snapshot outside the working directory',
  unknown: 'the org',
};
const UNPLACED_ADVICE: Partial<Record<OrgOrigin, string>> = {
  'snapshot-elsewhere': ' Run from the folder that holds the snapshot (the checkout, in CI) to place them in it.',
};

const TOOL_NAME = 'teams-migration-audit';
const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** Key of our finding id in partialFingerprints: versioned, so a new id scheme never collides with this one. */
export const FINGERPRINT_KEY = 'teamsMigrationAuditFindingId/v1';

/** Namespaced and stable: code-scanning UIs key alerts on the rule id, so it never changes with titles. */
export function sarifRuleId(category: Category): string {
  return `tma/${category}`;
}

type Level = 'none' | 'note' | 'warning' | 'error';

/**
 * Intrinsic to the finding, independent of the gate flags: automatic changes and `unaffected`
 * verdicts are notes, `breaks` is an error, everything else needing a person is a warning.
 */
export function sarifLevel(finding: Pick<Finding, 'kind' | 'verdict'>): Level {
  if (finding.kind === 'automatic' || finding.verdict === 'unaffected') return 'note';
  return finding.verdict === 'breaks' ? 'error' : 'warning';
}

/**
 * SARIF 2.1.0 log: one rule per category, one result per finding. Accepted findings are left out
 * (summary.md lists them) unless `includeAccepted`, which keeps them marked as suppressed.
 */
export function renderSarif(report: Report, meta: SarifMeta): string {
  const policy = policyOf(report);
  const accepted = report.findings.filter((finding) => finding.accepted !== undefined).length;
  const leftOut = meta.includeAccepted === true ? 0 : accepted;
  const findings = [...report.findings].filter((finding) => meta.includeAccepted === true || finding.accepted === undefined).sort(compareFindings);
  // Every result has a file: repository findings have theirs, org findings the snapshot they were read from.
  const placed = findings.filter((finding) => finding.resource.type === 'file' || meta.orgArtifactUri !== undefined);
  const unplaced = findings.filter((finding) => finding.resource.type !== 'file' && meta.orgArtifactUri === undefined);
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: meta.toolVersion,
            rules: CATEGORIES.map(sarifRule),
          },
        },
        invocations: [
          {
            executionSuccessful: report.incomplete.length === 0,
            toolExecutionNotifications: [
              ...report.incomplete.map((item) => ({
                level: 'error',
                message: { text: messageText(`Could not be read: ${item.resource}: ${item.reason}`) },
              })),
              ...(unplaced.length > 0
                ? [{ level: 'note', message: { text: unplacedText(unplaced.length, meta.orgOrigin) } }]
                : []),
              ...(leftOut > 0
                ? [{ level: 'note', message: { text: `${plural(leftOut, 'finding', 'findings')} accepted in the baseline ${leftOut === 1 ? 'is' : 'are'} left out (code scanning ignores suppressions, so ${leftOut === 1 ? 'it' : 'each'} would stay an open alert); summary.md lists them, and --sarif-accepted keeps them as suppressed results.` } }]
                : []),
            ],
          },
        ],
        results: placed.map((finding) => withAccess(sarifResult(finding, failsGate(finding, policy), meta), report.access)),
        properties: {
          organization: report.organization,
          ...(report.gate ? { gate: report.gate } : {}),
          ...(report.access ? { accessSummary: accessSummaryLine(report.access) } : {}),
          impact: impactTotals(report),
          ...(report.run ? { run: report.run } : {}),
        },
      },
    ],
  };
  return `${jsonControlsEscaped(JSON.stringify(log, null, 2))}\n`;
}

function unplacedText(count: number, origin: OrgOrigin | undefined): string {
  const subject = UNPLACED_SUBJECT[origin ?? 'unknown'];
  const what = count === 1 ? `1 finding about ${subject} has no place in a file, so it is not a result` : `${count} findings about ${subject} have no place in a file, so they are not results`;
  return `${what} here (code scanning rejects those): report.json, summary.md and the JUnit report list them.${UNPLACED_ADVICE[origin as OrgOrigin] ?? ''}`;
}

/** Messages are what code scanning shows and CI logs print: org text in them shows its control characters as escapes. */
function messageText(text: string): string {
  return controlsShown(text, ['\n']);
}

/**
 * A rule's help, what a code-scanning alert shows beside its message: when the category is
 * reported and what the migration does, as docs/categories.md says it, then why and what to do.
 */
function ruleHelp(category: Category): { text: string; markdown: string } {
  const doc = CATEGORY_DOCS[category];
  const parts: [label: string, markdown: string][] = [
    ['Reported when', doc.when],
    ...(doc.does !== undefined ? [['What the migration does', doc.does] as [string, string]] : []),
    ['Why', doc.why],
    ['What to do', doc.fix],
  ];
  const plain = (markdown: string) => markdown.replace(/`([^`]*)`/g, '$1').replace(/\*([^*]+)\*/g, '$1');
  return {
    text: `${parts.map(([label, text]) => `${label}: ${plain(text)}`).join('\n\n')}\n\nAll categories: docs/categories.md in the package.`,
    markdown: `${parts.map(([label, text]) => `**${label}:** ${text}`).join('\n\n')}\n\nAll categories: \`docs/categories.md\` in the package.`,
  };
}

function sarifRule(category: Category) {
  const doc = CATEGORY_DOCS[category];
  return {
    id: sarifRuleId(category),
    name: category.replace(/(^|-)([a-z])/g, (_match: string, _dash: string, letter: string) => letter.toUpperCase()),
    shortDescription: { text: doc.title },
    fullDescription: { text: doc.why },
    help: ruleHelp(category),
    defaultConfiguration: { level: doc.kind === 'automatic' ? 'note' : 'warning' },
    properties: { tags: ['teams-migration', doc.kind] },
  };
}

function sarifResult(finding: Finding, failing: boolean, meta: SarifMeta) {
  const isFile = finding.resource.type === 'file';
  const where = isFile ? '' : `${finding.resource.type} ${finding.resource.identifier}, ${finding.location}: `;
  const properties: Record<string, unknown> = {
    findingId: finding.id,
    kind: finding.kind,
    category: finding.category,
    resource: finding.resource,
    location: finding.location,
    evidence: finding.evidence,
    suggestion: finding.suggestion,
    failsGate: failing,
  };
  for (const key of ['verdict', 'rewrite', 'note', 'impact', 'rewriteProof'] as const) {
    if (finding[key] !== undefined) properties[key] = finding[key];
  }
  return {
    ruleId: sarifRuleId(finding.category),
    ruleIndex: CATEGORIES.indexOf(finding.category),
    level: sarifLevel(finding),
    message: { text: messageText([`${where}${finding.reason}`, impactSentence(finding), finding.suggestion].filter(Boolean).join(' ')) },
    locations: [isFile ? fileLocation(finding.location) : orgLocation(finding, meta)],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.id },
    ...(finding.accepted
      ? {
          suppressions: [
            { kind: 'external', status: 'accepted', justification: `${finding.accepted.reason} (accepted by ${finding.accepted.by})` },
          ],
        }
      : {}),
    properties,
  };
}

function fileLocation(location: string) {
  const { path, line: startLine } = splitFileLocation(location);
  return {
    physicalLocation: {
      artifactLocation: { uri: toUri(path) },
      ...(startLine >= 1 ? { region: { startLine } } : {}),
    },
  };
}

function orgLocation(finding: Finding, meta: SarifMeta) {
  const { type, identifier } = finding.resource;
  return {
    ...(meta.orgArtifactUri !== undefined
      ? { physicalLocation: { artifactLocation: { uri: toUri(meta.orgArtifactUri) }, region: { startLine: Math.max(1, meta.orgLineOf?.(finding) ?? 1) } } }
      : {}),
    logicalLocations: [
      {
        name: identifier,
        fullyQualifiedName: `${type}/${identifier}/${finding.location}`,
        kind: 'resource',
        properties: { resourceType: type, path: finding.location },
      },
    ],
  };
}

/** A relative path as a URI reference: each segment percent-encoded, separators kept, Windows ones turned. */
function toUri(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * Issue 14: a result whose finding changes who holds a permission says how many people, in its
 * message and as counts in its properties (the emails stay in report.json).
 */
function withAccess(result: ReturnType<typeof sarifResult>, access: Report['access']): ReturnType<typeof sarifResult> {
  const entries = (access ?? []).filter((entry) => entry.finding === result.partialFingerprints[FINGERPRINT_KEY]);
  if (entries.length === 0) return result;
  const sentences = entries.flatMap(accessLines).map((line) => (line.tone === 'undecidable' ? line.text : `${line.text}.`));
  const counts = { loses: entries.reduce((n, e) => n + (e.loses?.length ?? 0), 0), gains: entries.reduce((n, e) => n + (e.gains?.length ?? 0), 0) };
  return { ...result, message: { text: messageText(`${result.message.text} Access: ${sentences.join(' ')}`) }, properties: { ...result.properties, access: counts } };
}
