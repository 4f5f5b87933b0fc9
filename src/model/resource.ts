/** What a finding or an access entry is about: findings and access entries both name it. */

/** `scorecard` (docs/formats.md, the report): identifier `<blueprint>/<scorecard>`, as scorecard identifiers are unique per blueprint. */
export const RESOURCE_TYPES = ['blueprint', 'action', 'automation', 'page', 'integration', 'webhook', 'scorecard', 'file'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface ResourceRef {
  type: ResourceType;
  identifier: string;
  title?: string;
}
