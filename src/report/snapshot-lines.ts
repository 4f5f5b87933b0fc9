import type { Finding, ResourceType } from '../model/finding.js';

/** Where each kind of org resource is kept in an org-snapshot/1 file, and the key that names it. */
const SECTIONS: Partial<Record<ResourceType, { section: string; key: string }>> = {
  blueprint: { section: 'blueprints', key: 'identifier' },
  action: { section: 'actions', key: 'identifier' },
  automation: { section: 'actions', key: 'identifier' },
  page: { section: 'pages', key: 'identifier' },
  integration: { section: 'integrations', key: 'installationId' },
  webhook: { section: 'webhooks', key: 'identifier' },
  scorecard: { section: 'scorecards', key: 'identifier' },
};

/**
 * The line of the snapshot file where an org finding's resource is named, so code scanning can
 * show it in the file (it rejects a result with no file). A pure function of the file's text:
 * the first `"identifier": "<id>"` after the resource's section key; that key's line when the
 * resource is not found by name; line 1 when neither is.
 */
export function snapshotLineOf(text: string): (finding: Pick<Finding, 'resource'>) => number {
  const lineAt = (offset: number) => {
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    return line;
  };
  const cache = new Map<string, number>();
  return ({ resource }) => {
    const where = SECTIONS[resource.type];
    if (!where) return 1;
    const cacheKey = `${resource.type}\u0000${resource.identifier}`;
    const known = cache.get(cacheKey);
    if (known !== undefined) return known;
    const sectionAt = new RegExp(`"${where.section}"\\s*:`).exec(text)?.index ?? -1;
    // A scorecard's id is `<blueprint>/<scorecard>`: its own object names only the scorecard.
    const name = resource.type === 'scorecard' ? resource.identifier.slice(resource.identifier.indexOf('/') + 1) : resource.identifier;
    const named = new RegExp(`"${where.key}"\\s*:\\s*${escapeRegExp(JSON.stringify(name))}`, 'g');
    named.lastIndex = Math.max(0, sectionAt);
    const at = named.exec(text)?.index ?? sectionAt;
    const line = at < 0 ? 1 : lineAt(at);
    cache.set(cacheKey, line);
    return line;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
