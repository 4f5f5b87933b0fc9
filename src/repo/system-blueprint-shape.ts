import { own } from '../model/json.js';
import type { FileDraft } from './file-sites.js';
import { fileFinding } from './findings.js';
import { findEntry, type Entry, type ObjectNode, type Span } from './tree.js';

/**
 * Properties the service defines on its system blueprints: `_user` and `_team` can be extended,
 * never redefined. Sources: port-docs docs/sso-rbac/users-and-teams/manage-users-teams.md
 * ("Blueprints structure": User has Status, Port Role, Moderated Blueprints, Port type; Team has
 * Description and Size; "default properties cannot be changed") and port-labs/port-cli's
 * `systemblueprints` package, which lists the identifiers the service manages (`_user`:
 * status, port_role, port_type, moderated_blueprints; `_team`: description, plus `size` as an
 * aggregation property, which a property of the same identifier would collide with). A user's
 * email is its identifier, not a property: `email` on `_user` is a property of your own.
 */
const BUILT_IN: Readonly<Record<string, ReadonlySet<string>>> = {
  _team: new Set(['description', 'size']),
  _user: new Set(['status', 'port_role', 'port_type', 'moderated_blueprints']),
};

/**
 * What the service rejects on `_user`/`_team` once they are system blueprints: aggregation
 * properties, and redeclared built-in properties. `block` is a Terraform block or a Pulumi call's
 * arguments (keys in either case style).
 */
export function systemBlueprintShapeFindings(block: ObjectNode, identifier: string, label: string): FileDraft[] {
  const builtIn = own(BUILT_IN, identifier);
  if (!builtIn) return [];
  // Both are the same row of the judge's site table; only what is rejected differs.
  const rejected = (span: Span, reason: string, suggestion: string) => fileFinding(span, label, { category: 'external-ownership', reason, suggestion, settles: 'system-blueprint-shape' });
  const findings: FileDraft[] = [];
  const aggregations = findEntry(block, 'aggregation_properties');
  if (aggregations) findings.push(rejected(aggregations.span, `${identifier} is a system blueprint after the migration, and the service rejects aggregation properties on it.`, 'Remove the aggregation properties from this resource (port_system_blueprint has no such attribute); compute them on a blueprint of your own that relates to it.'));
  for (const property of declaredProperties(block)) {
    if (builtIn.has(property.key)) findings.push(rejected(property.span, `"${property.key}" is a built-in property of the ${identifier} system blueprint: the service rejects a redeclaration of it.`, `Remove "${property.key}" from this resource; the system blueprint already has it.`));
  }
  return findings;
}

/** `properties = { string_props = { x = {…} } }` (Terraform, Pulumi) or `schema.properties.x`. */
function declaredProperties(block: ObjectNode): Entry[] {
  const properties = findEntry(block, 'properties')?.value ?? (() => {
    const schema = findEntry(block, 'schema')?.value;
    return schema?.kind === 'object' ? findEntry(schema, 'properties')?.value : undefined;
  })();
  if (properties?.kind !== 'object') return [];
  return properties.entries.flatMap((entry) => (/props$/i.test(entry.key) && entry.value.kind === 'object' ? entry.value.entries : [entry]));
}
