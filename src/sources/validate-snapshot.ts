import { InputError } from '../errors.js';
import { isObject } from '../model/json.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';

type Check = (value: unknown, field: string) => string | undefined;

const describe = (value: unknown) =>
  value === undefined ? 'nothing (the field is missing)' : value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);

const objectWith =
  (required: Record<string, 'string'>): Check =>
  (value, field) => {
    if (!isObject(value)) return `${field}: expected an object, got ${describe(value)}`;
    for (const [key, type] of Object.entries(required)) {
      if (typeof value[key] !== type) return `${field}.${key}: expected a ${type}, got ${describe(value[key])}`;
    }
    return undefined;
  };

const anObject: Check = (value, field) => (isObject(value) ? undefined : `${field}: expected an object, got ${describe(value)}`);

const arrayOf =
  (item: Check): Check =>
  (value, field) => {
    if (!Array.isArray(value)) return `${field}: expected an array, got ${describe(value)}`;
    for (const [index, element] of value.entries()) {
      const problem = item(element, `${field}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  };

const mapOf =
  (item: Check): Check =>
  (value, field) => {
    if (!isObject(value)) return `${field}: expected an object keyed by identifier, got ${describe(value)}`;
    for (const [key, element] of Object.entries(value)) {
      const problem = item(element, `${field}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };

const withIdentifier = objectWith({ identifier: 'string' });

/** contracts.md §1, field by field. Unknown extra fields are kept, not rejected. */
const FIELDS: Record<string, { required: boolean; check: Check }> = {
  organization: { required: true, check: objectWith({ id: 'string', name: 'string' }) },
  blueprints: { required: true, check: arrayOf(withIdentifier) },
  blueprintPermissions: { required: false, check: mapOf(anObject) },
  actions: { required: false, check: arrayOf(withIdentifier) },
  actionPermissions: { required: false, check: mapOf(anObject) },
  pages: { required: false, check: arrayOf(withIdentifier) },
  pagePermissions: { required: false, check: mapOf(anObject) },
  integrations: { required: false, check: arrayOf(anObject) },
  webhooks: { required: false, check: arrayOf(anObject) },
  teams: { required: false, check: arrayOf(objectWith({ name: 'string' })) },
  entities: { required: false, check: mapOf(arrayOf(withIdentifier)) },
  incomplete: { required: false, check: arrayOf(objectWith({ resource: 'string', reason: 'string' })) },
};

/** Check a parsed document against org-snapshot/1; `source` names the file in the one-line error. */
export function validateSnapshot(document: unknown, source: string): OrgSnapshot {
  if (!isObject(document)) throw new InputError(`${source}: expected an org-snapshot/1 JSON object, got ${describe(document)}`);
  if (document.format !== SNAPSHOT_FORMAT) {
    throw new InputError(`${source}: field "format": expected "${SNAPSHOT_FORMAT}", got ${describe(document.format)}`);
  }
  for (const [key, { required, check }] of Object.entries(FIELDS)) {
    const value = document[key];
    if (value === undefined) {
      if (required) throw new InputError(`${source}: field "${key}" is missing; org-snapshot/1 requires it`);
      continue;
    }
    const problem = check(value, key);
    if (problem) throw new InputError(`${source}: field ${quoteField(problem)}`);
  }
  return document as unknown as OrgSnapshot;
}

/** "a.b[0].c: expected …" → "\"a.b[0].c\": expected …" */
function quoteField(problem: string): string {
  const colon = problem.indexOf(': ');
  return `"${problem.slice(0, colon)}"${problem.slice(colon)}`;
}
