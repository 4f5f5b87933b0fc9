import type { Catalog } from '../catalog/catalog.js';
import type { Category, FindingDraft } from '../model/finding.js';

/** One rule per category: it only reports, it never fetches, logs, reads files or mutates. */
export interface Rule {
  category: Category;
  check(catalog: Catalog): FindingDraft[];
}
