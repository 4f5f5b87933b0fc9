import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { asString, isObject, type JsonObject } from '../model/json.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import { joinPath } from '../catalog/location.js';
import type { Rule } from './rule.js';
import { integrationRef } from '../catalog/resources.js';

/**
 * Git providers can keep their mapping in a repository file (port.yaml / port-app-config.yml).
 * Matched by name and known suffixes, so an unrelated `github-copilot` integration is not one.
 */
const GIT_PROVIDER = /^(github|gitlab|bitbucket|azure-devops)(-(ocean|cloud|app|server|v2))?$/i;

export const integrationMapping: Rule = {
  category: 'integration-mapping',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const integration of catalog.snapshot.integrations ?? []) {
      const resource = integrationRef(integration);
      const type = asString(integration.integrationType) ?? '';
      const config = isObject(integration.config) ? integration.config : undefined;
      // `config: {}` or no resources holds no mapping either: the repository file decides.
      const hasMappings = config !== undefined && Array.isArray(config.resources) && config.resources.length > 0;
      if (!config || !hasMappings) {
        if (GIT_PROVIDER.test(type)) {
          findings.push({
            category: 'integration-mapping',
            resource,
            location: 'config',
            evidence: `integrationType: ${type}; no mapping configuration in the service`,
            reason: 'The mapping of this git integration lives in a port.yaml / port-app-config.yml file in a repository, so whether it sets team cannot be determined here.',
            suggestion: 'Open the repository mapping file and make every team expression produce team identifiers; run this tool with --repo on that repository to check it.',
            verdict: judge.verdict('mapping-elsewhere'),
          });
        }
        continue;
      }
      const resources = Array.isArray(config.resources) ? config.resources : [];
      resources.forEach((entry, index) => {
        const port = isObject(entry) && isObject(entry.port) ? entry.port : undefined;
        const entity = port && isObject(port.entity) ? port.entity : undefined;
        if (!entity) return;
        const base = ['config', 'resources', index, 'port', 'entity', 'mappings'];
        // `mappings` may be one object or a list of them.
        const mappings: [JsonObject, (string | number)[]][] = Array.isArray(entity.mappings)
          ? entity.mappings.flatMap((m, i): [JsonObject, (string | number)[]][] => (isObject(m) ? [[m, [...base, i]]] : []))
          : isObject(entity.mappings)
            ? [[entity.mappings, base]]
            : [];
        for (const [mapping, path] of mappings) {
          findings.push(...judge.entityMapping({ category: 'integration-mapping', resource, path, mapping }));
          findings.push(...metaTeamPropertyFindings(judge, resource, mapping, path));
        }
      });
    }
    return findings;
  },
};

/**
 * `properties: {$team: '[.teams[].id | tostring]'}` (the docs' ownership page) sets the team meta
 * property like `team` does: judged the same way, at its own location.
 */
function metaTeamPropertyFindings(judge: SiteJudge, resource: ResourceRef, mapping: JsonObject, path: (string | number)[]): FindingDraft[] {
  const properties = isObject(mapping.properties) ? mapping.properties : undefined;
  if (!properties || properties.$team === undefined) return [];
  const site = [...path, 'properties'];
  const asTeam: JsonObject = { team: properties.$team, ...(mapping.blueprint !== undefined ? { blueprint: mapping.blueprint } : {}) };
  const written = joinPath(...site, 'team');
  return judge.entityMapping({ category: 'integration-mapping', resource, path: site, mapping: asTeam }).map((finding) =>
    finding.location.startsWith(written) ? { ...finding, location: joinPath(...site, '$team') + finding.location.slice(written.length) } : finding,
  );
}
