import { BASELINE_FORMAT } from './baseline/baseline.js';
import { SNAPSHOT_FORMAT } from './model/snapshot.js';

/** The `format` of each document this tool reads or writes, and what a person calls it. */
const OWN_FORMATS: Readonly<Record<string, string>> = {
  [SNAPSHOT_FORMAT]: 'an org snapshot',
  'impact-report/1': 'a report this tool wrote (impact-report/1)',
  [BASELINE_FORMAT]: `a baseline (${BASELINE_FORMAT})`,
  'teams-migration-audit/review-state/1': 'a review state exported from the report page',
};

/** What a parsed JSON document is when it is one of ours, or a SARIF log; undefined for anything else. */
export function ownDocumentKindOf(document: unknown): string | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const { format, $schema, version, runs } = document as Record<string, unknown>;
  if (typeof format === 'string' && Object.hasOwn(OWN_FORMATS, format)) return format;
  if ((typeof $schema === 'string' && /sarif/i.test($schema)) || (version === '2.1.0' && Array.isArray(runs))) return 'SARIF';
  return undefined;
}

/** "a baseline (…)": how an error line names a document of that kind. */
export function describeOwnKind(kind: string): string {
  return OWN_FORMATS[kind] ?? 'a SARIF log (report.sarif)';
}

/** Where a document of that kind goes instead, said after "not an org snapshot". */
export const OWN_KIND_USE: Readonly<Record<string, string>> = {
  'impact-report/1': 'pass it to --since to see what changed since that run',
  [BASELINE_FORMAT]: 'pass it to --baseline',
  'teams-migration-audit/review-state/1': 'import it on the report page ("Import review state")',
  SARIF: 'upload it to code scanning',
};
