import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_SHOWN, failingFindingLines } from '../../src/cli-text.js';
import { incompleteAnnotations } from '../../src/cli-text.js';
import type { IncompleteItem } from '../../src/model/finding.js';
import { demoReport } from './helpers.js';

// Issue 38 item 11: on GitHub Actions the incomplete state is annotated like a failure, before any
// failing finding and within GitHub's 10 error annotations a step.

const file = (path: string, id = path): IncompleteItem => ({ resource: path, reason: 'could not be read (a NUL byte: binary, not text); the file was not checked', id });

describe('annotations of what could not be read', () => {
  it('one per unreadable file, on the file (and its line when the reading stopped at one); org items without a file', () => {
    const lines = incompleteAnnotations([file('infra/main.tf'), { ...file('svc/port.yml:3'), reason: 'could not be read (line 3): bad; the file was not checked' }, { resource: 'page sre permissions', reason: 'HTTP 503' }], 'out/report.json');
    expect(lines).toEqual([
      '::error file=infra/main.tf,title=teams-migration-audit%3A not read%2C no gate verdict::not read: infra/main.tf: could not be read (a NUL byte: binary, not text); the file was not checked',
      '::error file=svc/port.yml,line=3,title=teams-migration-audit%3A not read%2C no gate verdict::not read: svc/port.yml:3: could not be read (line 3): bad; the file was not checked',
      '::error title=teams-migration-audit%3A not read%2C no gate verdict::not read: page sre permissions: HTTP 503',
    ]);
  });

  it('accepted ones are not annotated; past the cap a notice counts the rest', () => {
    const items = [...Array.from({ length: 12 }, (_, i) => file(`infra/f${i}.tf`)), { ...file('ok.tf'), accepted: { reason: 'generated', by: 'ana' } }];
    const lines = incompleteAnnotations(items, 'out/report.json');
    expect(lines.filter((line) => line.startsWith('::error '))).toHaveLength(ANNOTATIONS_SHOWN);
    expect(lines.some((line) => line.includes('ok.tf'))).toBe(false);
    expect(lines.at(-1)).toBe('::notice title=teams-migration-audit::2 more items that could not be read are not annotated (GitHub shows 10 error annotations per step): out/report.json lists them all');
  });

  it('a file name cannot end the command or start another', () => {
    const [line] = incompleteAnnotations([file('a,b:c\n::warning::x%.tf')], 'r.json');
    expect(line).toMatch(/^::error file=a%2Cb%3Ac%0A%3A%3Awarning%3A%3Ax%25\.tf,title=/);
    expect(line).not.toContain('\n');
  });

  it('failing findings get only the annotations the unread files left', () => {
    const report = demoReport();
    const all = failingFindingLines(report, { annotate: true });
    expect(all.filter((line) => line.startsWith('::error '))).toHaveLength(ANNOTATIONS_SHOWN);
    const left = failingFindingLines(report, { annotate: true, annotationsLeft: 3 });
    expect(left.filter((line) => line.startsWith('::error '))).toHaveLength(3);
    expect(left.at(-1)).toMatch(/^::notice title=teams-migration-audit::\d+ more failing findings are not annotated/);
    expect(failingFindingLines(report, { annotate: true, annotationsLeft: 0 }).filter((line) => line.startsWith('::error '))).toEqual([]);
  });
});
