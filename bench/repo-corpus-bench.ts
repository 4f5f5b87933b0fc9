/**
 * `npm run bench:corpus` (issue 30): precision and recall of the repository scan on the project's
 * corpora, `fixtures/repo-corpus` (with its org) and `fixtures/repo-world` (public third-party
 * repositories, each scanned alone; laid out from clones by `node fixtures/repo-world/materialise.mjs
 * CLONES`). Prints each corpus, both together, every false and every missed finding, and whether
 * both reach the goal (95 %). Exit 1 when they do not.
 */
import { loadJqEngine } from '../src/jq/engine.js';
import { combinedScore, REPO_CORPUS, scanCorpus, scoreLines, scoreRepoCorpus, scoreWorldCorpus } from '../test/helpers/corpus-score.js';

/** The goal of issue 30 on the project's corpus. */
const GOAL = 0.95;

const jq = await loadJqEngine();
try {
  const scores = [scoreRepoCorpus(await scanCorpus(REPO_CORPUS, jq, 'fixtures/repo-corpus-org.json')), await scoreWorldCorpus(jq)];
  for (const line of scoreLines(scores)) console.log(line);
  const { precision, recall } = combinedScore(scores);
  const met = precision >= GOAL && recall >= GOAL;
  console.log(`goal ≥ ${GOAL * 100} % precision and recall: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await jq.close?.();
}
