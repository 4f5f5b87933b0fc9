import { buildTeamDirectory } from '../../src/catalog/teams.js';
import type { RepoContext } from '../../src/repo/context.js';

/** The demo org's teams: three with known identifiers, one ("Data Science") whose identifier is not known yet. */
export const TEAMS = buildTeamDirectory(
  [
    { name: 'Platform Team', identifier: 'platform' },
    { name: 'Payments', identifier: 'payments' },
    { name: 'SRE On-Call', identifier: 'sre_oncall' },
    { name: 'Data Science' },
  ],
  [],
);

export function context(overrides: Partial<RepoContext> = {}): RepoContext {
  return { teams: TEAMS, directOwnership: new Set(), removedRelations: new Set(), ...overrides };
}

import type { FindingDraft } from '../../src/model/finding.js';

/** The parts of a finding the analyzers decide: where, which category, what to write instead. */
export function brief(findings: readonly FindingDraft[]): { at: string; category: string; rewrite?: string; verdict?: string }[] {
  return findings.map((f) => ({
    at: f.location,
    category: f.category,
    ...(f.rewrite !== undefined ? { rewrite: f.rewrite } : {}),
    ...(f.verdict !== undefined ? { verdict: f.verdict } : {}),
  }));
}

/** A checkout in a temporary folder holding `files` (path → text). */
export async function temporaryRepository(files: Record<string, string>, prefix = 'tma-repo-'): Promise<string> {
  const { mkdir, mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { dirname, join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

import type { FileSites } from '../../src/repo/file-sites.js';
import { judgeReadings } from '../../src/repo/judge.js';

/** A reader's sites judged as the scan judges a file's (src/repo/judge.ts): its findings beside what it read. */
export function judged<A extends unknown[]>(read: (...args: A) => FileSites, ...args: A): FileSites & { findings: FindingDraft[] } {
  const sites = read(...args);
  const ctx = args.find((arg): arg is RepoContext => typeof arg === 'object' && arg !== null && 'teams' in arg && 'removedRelations' in arg)!;
  return { ...sites, findings: judgeReadings([{ sites: sites.sites, ctx, problems: sites.problems }])[0]! };
}
