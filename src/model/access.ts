import type { ResourceRef } from './resource.js';

/**
 * Who can do what before and after the migration (docs/formats.md, the report `access`). `required` and
 * `disabled` extend the contract's list for a self-service input's other jq attributes; `see` is
 * who sees an action whose `execute` has a policy (its lists; the policy alone decides `execute`).
 */
export type AccessPermission = 'execute' | 'approve' | 'read' | 'see' | 'visible' | 'required' | 'disabled';

/** One user as the snapshot keeps them (docs/formats.md, the org snapshot): email, teams and roles, nothing else. */
export interface UserRecord {
  email: string;
  /** As the service returns them: team names (titles before the migration), or `{name}` objects. */
  teams: (string | { name: string })[];
  roles?: (string | { name: string })[];
}

export interface AccessChange {
  resource: ResourceRef;
  permission: AccessPermission;
  /** The self-service input, for `visible`, `required` and `disabled`. */
  input?: string;
  /** The finding that causes the change (absent only when no finding names the place). */
  finding?: string;
  /** Emails of users who hold the permission before the migration and not after it; sorted. */
  loses?: string[];
  /** Emails of users who gain it; sorted. */
  gains?: string[];
  /**
   * Set when the outcome depends on data the tool does not have (the entities a policy query
   * finds, what a user types into the form): why. Nobody is then listed as losing or gaining.
   */
  undecidable?: string;
}
