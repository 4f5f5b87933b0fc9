import type { Catalog } from '../catalog/catalog.js';
import type { SiteJudge } from '../model/sites.js';
import { isObject } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import type { Rule } from './rule.js';
import { webhookRef } from '../catalog/resources.js';

export const webhookMapping: Rule = {
  category: 'webhook-mapping',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    for (const webhook of catalog.snapshot.webhooks ?? []) {
      const resource = webhookRef(webhook);
      const mappings = Array.isArray(webhook.mappings) ? webhook.mappings : [];
      mappings.forEach((mapping, index) => {
        if (!isObject(mapping) || !isObject(mapping.entity)) return;
        // The target blueprint sits beside `entity`; carry it in so removed relations resolve.
        const entity = typeof mapping.blueprint === 'string' ? { ...mapping.entity, blueprint: mapping.blueprint } : mapping.entity;
        findings.push(
          ...judge.entityMapping({ category: 'webhook-mapping', resource, path: ['mappings', index, 'entity'], mapping: entity }),
        );
      });
    }
    return findings;
  },
};
