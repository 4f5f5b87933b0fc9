import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JqEngine } from '../../src/jq/engine.js';
import type { Finding, Report } from '../../src/model/finding.js';
import { repositoryFindings, repositoryOnlySnapshot } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';

/**
 * Precision and recall of the repository scan on the project's corpora: `fixtures/repo-corpus`
 * (written here from the service's public shapes, scanned with its org) and `fixtures/repo-world`
 * (public third-party repositories, each scanned alone, as `analyze --repo DIR`). Shared by
 * test/repo/corpus.test.ts and `npm run bench:corpus`.
 */
export interface CorpusScore {
  corpus: string;
  /** Findings the scan gave that count (the generic repository-mapping item does not). */
  found: number;
  /** True findings the labels list. */
  expected: number;
  truePositives: number;
  /** Distinct labelled findings the scan gave with their verdict. */
  recalled: number;
  falseFindings: string[];
  missed: string[];
  /** Set when the corpus is not on this machine (the world corpus is laid out from clones). */
  skipped?: string;
}

export const REPO_CORPUS = 'fixtures/repo-corpus';
export const WORLD_CORPUS = 'fixtures/repo-world';

/** `analyze --repo DIR`, with the org when one is given, as the CLI runs it. */
export async function scanCorpus(dir: string, jq: JqEngine, orgFile?: string): Promise<Report> {
  const catalog = buildCatalog(orgFile ? await readSnapshotFile(orgFile) : repositoryOnlySnapshot([dir]), { jq });
  return analyze(catalog, await repositoryFindings([dir], catalog, [], [], orgFile !== undefined));
}

/** The org's "the mapping lives in a repository we cannot see" item: the one generic finding, not counted. */
export const isGenericMappingItem = (f: Finding) => f.category === 'integration-mapping' && f.resource.type === 'integration' && f.verdict === 'review' && !f.evidence.includes('mapping scanned in');

interface RepoCorpusLabels {
  findings: { at: string; category: string; verdict: string }[];
  org: { resource: string; category: string; verdict: string }[];
}

export function repoCorpusLabels(): RepoCorpusLabels {
  return JSON.parse(readFileSync(join(REPO_CORPUS, 'expected.json'), 'utf8')) as RepoCorpusLabels;
}

/** fixtures/repo-corpus with its org: every file finding by `path:line category verdict`, every org finding by resource. */
export function scoreRepoCorpus(report: Report): CorpusScore {
  const labels = repoCorpusLabels();
  const expected = new Set([...labels.findings.map((f) => `${f.at} ${f.category} ${f.verdict}`), ...labels.org.map((f) => `${f.resource} ${f.category} ${f.verdict}`)]);
  const keys = report.findings
    .filter((f) => !isGenericMappingItem(f))
    .map((f) => (f.resource.type === 'file' ? `${f.location.slice(REPO_CORPUS.length + 1)} ${f.category} ${f.verdict ?? '-'}` : `${f.resource.identifier} ${f.category} ${f.verdict ?? '-'}`));
  const truePositives = keys.filter((key) => expected.has(key));
  const recalled = new Set(truePositives);
  return {
    corpus: REPO_CORPUS,
    found: keys.length,
    expected: expected.size,
    truePositives: truePositives.length,
    recalled: recalled.size,
    falseFindings: keys.filter((key) => !expected.has(key)),
    missed: [...expected].filter((key) => !recalled.has(key)),
  };
}

interface WorldLabels {
  findings: { at: string; category: string; verdict: string }[];
  repositories: { dir: string }[];
}

/**
 * fixtures/repo-world, each repository scanned alone: a finding is true when its `path:line` and
 * category are labelled with its verdict (as fixtures/repo-world/score.mjs counts). Skipped, and
 * said, when the repositories are not laid out (`node fixtures/repo-world/materialise.mjs CLONES`).
 */
export async function scoreWorldCorpus(jq: JqEngine): Promise<CorpusScore> {
  const labels = JSON.parse(readFileSync(join(WORLD_CORPUS, 'expected.json'), 'utf8')) as WorldLabels;
  const want = new Map(labels.findings.map((f) => [`${f.at} ${f.category}`, f.verdict]));
  const absent = labels.repositories.filter((repo) => !existsSync(join(WORLD_CORPUS, repo.dir)));
  const empty = { corpus: WORLD_CORPUS, found: 0, expected: want.size, truePositives: 0, recalled: 0, falseFindings: [], missed: [] };
  if (absent.length > 0) {
    return { ...empty, skipped: `${absent.length} of ${labels.repositories.length} repositories are not laid out (node ${WORLD_CORPUS}/materialise.mjs CLONES lays them out from clones)` };
  }
  const got: { key: string; verdict: string }[] = [];
  for (const repo of labels.repositories) {
    const report = await scanCorpus(join(WORLD_CORPUS, repo.dir), jq);
    for (const f of report.findings) got.push({ key: `${f.location.slice(WORLD_CORPUS.length + 1)} ${f.category}`, verdict: f.verdict ?? '-' });
  }
  const truePositives = got.filter((g) => want.get(g.key) === g.verdict);
  const recalled = new Set(truePositives.map((g) => g.key));
  return {
    ...empty,
    found: got.length,
    truePositives: truePositives.length,
    recalled: recalled.size,
    falseFindings: got.filter((g) => want.get(g.key) !== g.verdict).map((g) => `${g.key} ${g.verdict}${want.has(g.key) ? ` (labelled ${want.get(g.key)})` : ''}`),
    missed: [...want.keys()].filter((key) => !recalled.has(key)).map((key) => `${key} ${want.get(key)}`),
  };
}

/** Precision and recall over the corpora together (a skipped corpus adds nothing). */
export function combinedScore(scores: readonly CorpusScore[]): { precision: number; recall: number; found: number; expected: number } {
  const counted = scores.filter((score) => !score.skipped);
  const found = counted.reduce((n, s) => n + s.found, 0);
  const expected = counted.reduce((n, s) => n + s.expected, 0);
  const truePositives = counted.reduce((n, s) => n + s.truePositives, 0);
  const recalled = counted.reduce((n, s) => n + s.recalled, 0);
  return { precision: found === 0 ? 1 : truePositives / found, recall: expected === 0 ? 1 : recalled / expected, found, expected };
}

const percent = (n: number) => `${(n * 100).toFixed(1)} %`;

/** One line per corpus and one for both, then what is false and what is missed. */
export function scoreLines(scores: readonly CorpusScore[]): string[] {
  const lines: string[] = [];
  for (const score of scores) {
    if (score.skipped) {
      lines.push(`${score.corpus}: not measured: ${score.skipped}`);
      continue;
    }
    lines.push(`${score.corpus}: ${score.found} findings, ${score.expected} expected: precision ${score.truePositives}/${score.found} (${percent(score.found === 0 ? 1 : score.truePositives / score.found)}), recall ${score.recalled}/${score.expected} (${percent(score.expected === 0 ? 1 : score.recalled / score.expected)})`);
    for (const key of score.falseFindings) lines.push(`  false finding: ${key}`);
    for (const key of score.missed) lines.push(`  missed: ${key}`);
  }
  const all = combinedScore(scores);
  lines.push(`both: precision ${percent(all.precision)}, recall ${percent(all.recall)} (${all.found} findings, ${all.expected} expected)`);
  return lines;
}
