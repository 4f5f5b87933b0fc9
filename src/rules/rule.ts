import type { Catalog } from '../catalog/catalog.js';
import type { Category, FindingDraft } from '../model/finding.js';
import type { SiteJudge } from '../model/sites.js';

/** One rule per category: it only reports, it never fetches, logs, reads files or mutates. */
export interface Rule {
  category: Category;
  /**
   * False for a rule that never asks jq anything: the dry run that plans jq's work ahead
   * (src/jq/prefetch-rules.ts) skips it. A test runs each such rule on every fixture with an engine
   * that counts what it is asked, so a rule that starts asking jq cannot keep the flag.
   */
  asksJq?: false;
  /** The rule names its sites to `judge` (src/judge/site-judge.ts `judgeRule` runs it) and returns the findings it answers. */
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[];
}
