import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { mirrorPathEffect, mirrorsOf, type MirrorDefinition, type MirrorPathEffect } from '../catalog/mirror-paths.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { joinPath } from '../catalog/location.js';
import { blueprintRef } from '../catalog/resources.js';

/**
 * Mirror properties whose path goes through `$team`, or over a relation the migration removes.
 * The first kind keeps working: the service fills it with identifiers instead of titles by
 * itself. What can break is whatever compares its values with titles, which the other rules
 * flag where they can see it (the jq engine treats `.properties.<mirror>` as a team read through
 * `catalog.teamMirrors`). Consumers outside the org (API scripts, exports, dashboards elsewhere)
 * cannot be seen, hence `review` rather than `breaks`. A path over a removed relation does break.
 */
export const mirrorProperty: Rule = {
  category: 'mirror-property',
  asksJq: false,
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const [id, blueprint] of catalog.blueprints) {
      for (const mirror of mirrorsOf(blueprint)) {
        const effect = mirrorPathEffect(id, mirror.path, catalog.blueprints, catalog.removedRelations);
        const finding = mirrorFinding(judge, blueprintRef(blueprint), mirror, effect, catalog.migrated);
        if (finding) findings.push(finding);
      }
    }
    return findings;
  },
};

/** Wording of the other rules for an org that already migrated (see expression-finding). */
const ALREADY_MIGRATED = 'the org already holds team identifiers';

function mirrorFinding(judge: SiteJudge, resource: ResourceRef, mirror: MirrorDefinition, effect: MirrorPathEffect, migrated: boolean): FindingDraft | undefined {
  const base = {
    category: 'mirror-property' as const,
    resource,
    location: joinPath('mirrorProperties', mirror.id, 'path'),
    evidence: JSON.stringify(mirror.title === undefined ? { path: mirror.path } : { title: mirror.title, path: mirror.path }),
  };
  const name = `Mirror property "${mirror.id}" (path "${mirror.path}")`;
  if (migrated && (effect.kind === 'team-values' || effect.kind === 'team-entity')) {
    // Run again after the migration: the mirror already carries identifiers; readers still comparing titles are flagged on their own.
    return {
      ...base,
      reason: `${name} goes through $team, and ${ALREADY_MIGRATED}, so its values already are what they will stay.`,
      suggestion: `Nothing to change: ${ALREADY_MIGRATED}.`,
      verdict: judge.verdict('mirror-after-migration'),
    };
  }
  switch (effect.kind) {
    case 'team-values':
      return {
        ...base,
        reason: `${name} copies team values: it holds team titles today and team identifiers after the migration, so whatever compares its values with titles stops matching.`,
        suggestion:
          'Keep the mirror: the service fills it with identifiers by itself. Make its readers expect team identifiers: filters, calculations, scorecards and jq that read it are listed in their own categories; check API scripts, exports and dashboards outside the org that match or show these values too.',
        verdict: judge.verdict('mirror-of-team-values'),
      };
    case 'team-entity':
      return {
        ...base,
        reason: `${name} follows $team on to "${effect.property}"; the migration turns $team from team titles into a relation to _team entities, so what the path reaches must be checked.`,
        suggestion: `Check that the path still reaches the intended team property once $team points at _team entities, and that readers of "${mirror.id}" expect what it holds then.`,
        verdict: judge.verdict('through-team'),
      };
    case 'removed-relation':
      return {
        ...base,
        reason: `${name} goes over relation "${effect.relation}" of blueprint "${effect.blueprint}", which the migration removes, so it points at nothing afterwards.`,
        suggestion: `The relation's teams move to $team${effect.rewrite.endsWith('$team') ? ', which holds their identifiers' : ''}: use path "${effect.rewrite}".`,
        verdict: judge.verdict('removed-relation'),
        rewrite: effect.rewrite,
      };
    case 'unaffected':
      return undefined;
  }
}
