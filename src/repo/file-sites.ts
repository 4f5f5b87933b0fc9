/**
 * Issue 39: what a file reader reports. A reader parses a file and names each place it read a team
 * value, a resource or a rule (a site: what was read, where, what it is); the repository's judge
 * (judge.ts, the only file of src/repo that asks src/judge) turns the sites of every file into
 * findings at once, so no verdict is born in a reader and jq's work is planned over the whole scan.
 */
import type { FindingDraft } from '../model/finding.js';
import type { JsonValue } from '../model/json.js';
import type { Path, SiteCase } from '../model/sites.js';
import type { FileResource } from './file-resources.js';
import type { Origin } from './located-json.js';
import type { Syntax } from './ownership-rewrite.js';
import type { ProviderFacts } from './provider-version.js';
import type { RepositoryFacts } from './repository-facts.js';
import type { SourceText } from './source-text.js';
import type { TerraformValues } from './terraform-values.js';
import type { Problems } from './tree-to-json.js';
import type { Entry, StringNode } from './tree.js';

/** A finding whose verdict may be a row of the judge's site table: the judge sets it where `settles` stands. */
export type FileDraft = FindingDraft & { settles?: SiteCase };

/** How a site's findings are shown: a script body read as the shell reads it, or a block whose rewrite has no place. */
export interface SiteView {
  /** The body was read with the shell's quotes taken out: evidence shows `$`, and a rewrite stands only where its evidence is this text's. */
  spliced?: SourceText;
  /** A block read apart from its file's indentation (a workflow's `run:`): no rewrite can be placed. */
  noRewrite?: true;
}

export type FileSite = (
  | { kind: 'resources'; resources: readonly FileResource[]; syntax: Syntax; note?: string }
  /** A team value or list (an entity's `team`, `defaultTeam`): titles become identifiers. */
  | { kind: 'team-values'; entry: Entry; title: string | undefined; what: string }
  /** A workflow step's `team` input of the service's action. */
  | { kind: 'step-team'; entry: Entry; text: string; title: string }
  /** A BULK_UPSERT step's `entities` input. */
  | { kind: 'step-entities'; entry: Entry; text: string; title: string }
  /** A SEARCH step's query, or the report sender's `filter_rule`, parsed. */
  | { kind: 'step-query'; node: StringNode; rules: readonly { path: Path; rule: Record<string, JsonValue | undefined> }[]; origins: ReadonlyMap<string, Origin>; title: string; blueprint?: string }
  /** A `port_team` whose name the org's teams may share. */
  | { kind: 'shared-title'; name: Entry; label: string }
  /** A finding the reader saw whole; `unlessReported`: dropped when the file has a finding at that location. */
  | { kind: 'settled'; draft: FileDraft; unlessReported?: string }
) & { view?: SiteView };

/** What one reading of a file gives: its sites, the parts it could not read, its provider facts. */
export interface FileSites {
  sites: FileSite[];
  /** Parts of the file that could not be read; the scan reports them as incomplete. */
  problems: Problems;
  /** A `.tf` file's provider constraint and what it needs: advice per configuration, not findings. */
  provider?: ProviderFacts;
}

/**
 * What a reader reads with: the values of the file's Terraform configuration, and, in a scan, the
 * facts it collects of the org the repository describes (judging waits for every file's facts).
 */
export interface ReadContext {
  gathering?: RepositoryFacts;
  terraformValues?: ReadonlyMap<string, TerraformValues>;
}

export const NO_SITES = (): FileSites => ({ sites: [], problems: [] });

/** The sites with a view added (a body of a workflow's `run:` read as a shell script). */
export function viewed(sites: readonly FileSite[], view: SiteView): FileSite[] {
  return sites.map((site) => ({ ...site, view: { ...site.view, ...view } }));
}
