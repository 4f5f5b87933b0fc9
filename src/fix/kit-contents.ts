import type { FixesSummary } from '../model/finding.js';
import { plural } from '../plural.js';

/** What the kit holds, as written (no file it did not write is named): for the summary's one line. */
export function kitContents(files: FixesSummary['files']): string {
  const count = (kind: FixesSummary['files'][number]['kind']) => files.filter((file) => file.kind === kind).length;
  const named = (kind: FixesSummary['files'][number]['kind']) => files.filter((file) => file.kind === kind).map((file) => `\`${file.path}\``);
  const parts = [
    count('resource') > 0 ? plural(count('resource'), 'corrected resource') : '',
    ...named('repo-patch'),
    count('data-migration') > 0 ? plural(count('data-migration'), 'data-migration mapping') : '',
    count('bulk-upsert') > 0 ? plural(count('bulk-upsert'), 'bulk payload') : '',
    ...named('predicted-org'),
  ];
  return parts.filter(Boolean).join(', ');
}
