import { actionDynamicPermission } from './action-dynamic-permission.js';
import { actionMapping } from './action-mapping.js';
import { actionUserInput } from './action-user-input.js';
import { calculationProperty } from './calculation-property.js';
import { integrationMapping } from './integration-mapping.js';
import { missedDirectOwnership } from './missed-direct-ownership.js';
import { missedInheritedOwnership } from './missed-inherited-ownership.js';
import { missedPermissionIdentifiers } from './missed-permission-identifiers.js';
import { missedTeamRelationRemoval } from './missed-team-relation-removal.js';
import { mirrorProperty } from './mirror-property.js';
import { ownershipDirect } from './ownership-direct.js';
import { ownershipInherited } from './ownership-inherited.js';
import { pageWidget } from './page-widget.js';
import { relationOwnership } from './relation-ownership.js';
import type { Rule } from './rule.js';
import { scorecardRule } from './scorecard-rule.js';
import { teamPermissionIdentifiers } from './team-permission-identifiers.js';
import { teamRelationRemoved } from './team-relation-removed.js';
import { webhookMapping } from './webhook-mapping.js';

/**
 * The registry: a hand-written list, so adding a rule is a visible, reviewed change.
 * `external-ownership` has no rule here: only repository files (src/repo) produce it.
 */
export const RULES: readonly Rule[] = [
  ownershipDirect,
  ownershipInherited,
  teamRelationRemoved,
  teamPermissionIdentifiers,
  calculationProperty,
  actionUserInput,
  actionMapping,
  actionDynamicPermission,
  integrationMapping,
  webhookMapping,
  pageWidget,
  relationOwnership,
  scorecardRule,
  mirrorProperty,
  // After the migration: what its automatic part should have done and did not, in the same
  // categories. Each speaks only once the migration has run; the four above only before it.
  missedDirectOwnership,
  missedInheritedOwnership,
  missedTeamRelationRemoval,
  missedPermissionIdentifiers,
];
