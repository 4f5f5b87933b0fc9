import type { Catalog } from '../catalog/catalog.js';
import type { FindingDraft } from '../model/finding.js';
import { fileVerdict } from './judge.js';
import { own, asString } from '../model/json.js';
import { plural } from '../plural.js';

/** A scanned mapping config that may be the one a git integration of the org keeps in a repository. */
export interface ScannedMappingFile {
  path: string;
  /** Integration types that read a mapping from this place (`any` for a repository root). */
  providers: readonly string[] | 'any';
  /** The file's own findings: its verdict is theirs. */
  findings: readonly FindingDraft[];
}

/** The git providers whose integrations read a mapping from a repository's folder. */
const BY_FOLDER: Readonly<Record<string, readonly string[]>> = { '.github': ['github'], '.github-private': ['github'], '.gitlab': ['gitlab'], '.bitbucket': ['bitbucket'], '.bitbucket-private': ['bitbucket'], '.azuredevops': ['azure-devops'] };

/**
 * Where a git integration reads its mapping from a repository (docs/repository-scans.md, Integration mappings kept in a repository): the
 * GitHub app from `.github/port-app-config.yml` or the root of `.github-private`, Bitbucket from the
 * root of a repository or `.bitbucket-private`, GitLab from `.gitlab/`. An Ocean integration's
 * `.port/resources/` holds the defaults it ships with, never an org's mapping: undefined.
 */
export function mappingFileProviders(path: string): ScannedMappingFile['providers'] | undefined {
  const folders = path.split('/').slice(0, -1);
  const parent = folders.at(-1) ?? '';
  if (folders.slice(-2).join('/') === '.port/resources') return undefined;
  return own(BY_FOLDER, parent) ?? 'any';
}

const PROVIDER = /^(github|gitlab|bitbucket|azure-devops)/i;

function matches(file: ScannedMappingFile, integrationType: string): boolean {
  const provider = PROVIDER.exec(integrationType)?.[1]?.toLowerCase();
  if (provider === undefined) return false;
  return file.providers === 'any' || file.providers.includes(provider);
}

/**
 * The org's "mapping lives in a repository" item of a git integration, settled by the scanned file
 * that can hold that mapping: it points at the file and takes the file's verdict (`unaffected`, so
 * verified, when the file sets no team and no removed relation). With no such file it stays a review.
 */
export function settleRepositoryMappings(drafts: readonly FindingDraft[], catalog: Catalog, files: readonly ScannedMappingFile[]): FindingDraft[] {
  if (files.length === 0) return [...drafts];
  const types = new Map<string, string>();
  for (const integration of catalog.snapshot.integrations ?? []) {
    const id = asString(integration.installationId) ?? asString(integration.identifier);
    const type = asString(integration.integrationType);
    if (id !== undefined && type !== undefined) types.set(id, type);
  }
  return drafts.map((draft) => {
    if (draft.category !== 'integration-mapping' || draft.resource.type !== 'integration' || draft.location !== 'config') return draft;
    const type = types.get(draft.resource.identifier);
    const matched = type === undefined ? [] : files.filter((file) => matches(file, type));
    if (matched.length === 0) return draft;
    return settledDraft(draft, matched);
  });
}

function settledDraft(draft: FindingDraft, files: readonly ScannedMappingFile[]): FindingDraft {
  const findings = files.flatMap((file) => file.findings);
  const paths = files.map((file) => file.path).join(', ');
  const verdict = fileVerdict(findings);
  const counted = plural(findings.length, 'finding');
  return {
    ...draft,
    evidence: `${draft.evidence}; mapping scanned in ${paths}`,
    reason:
      verdict === 'unaffected'
        ? `The mapping of this git integration is kept in ${paths}, which the repository scan read: it sets no team and no relation the migration removes.`
        : `The mapping of this git integration is kept in ${paths}, which the repository scan read: it has ${counted} of its own, listed under that file.`,
    suggestion: verdict === 'unaffected' ? 'Nothing to change while that file is the mapping the integration reads.' : `Fix the ${counted} of ${paths}; this item follows them.`,
    verdict,
  };
}
