import { InputError } from '../errors.js';
import { CATEGORIES, RESOURCE_TYPES, type Finding, type Report } from '../model/finding.js';
import type { AccessChange } from '../model/access.js';
import { isObject } from '../model/json.js';
import { readJsonInput } from '../json-input.js';

/** What progress reads of the previous report: a report as `validatePreviousReport` checked it. */
export type PreviousReport = Pick<Report, 'organization' | 'findings'> & Partial<Pick<Report, 'access'>>;

export interface PreviousReportFile {
  report: PreviousReport;
  /**
   * When the previous report's org data was read (its `run.dataReadAt`). Not the file's
   * modification time: a copied or downloaded report would say "since today". A report written
   * before `run` existed has no date, and progress names none.
   */
  date?: string;
}

/** Read `--since FILE`; anything that is not a readable impact-report/1 is one InputError line (exit 2). */
export async function readPreviousReport(path: string): Promise<PreviousReportFile> {
  const document = await readJsonInput(path, 'previous report (--since)');
  const report = validatePreviousReport(document, path);
  const date = dataReadAtOf(document);
  return date === undefined ? { report } : { report, date };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** `run.dataReadAt` when it is an ISO time; anything else is no date (never a wrong one). */
export function dataReadAtOf(document: unknown): string | undefined {
  const run = isObject(document) ? document.run : undefined;
  const at = isObject(run) ? run.dataReadAt : undefined;
  return typeof at === 'string' && ISO_TIME.test(at) ? at : undefined;
}

/**
 * Only what progress needs is checked, but all of it: an id of the wrong type would silently
 * count a finding as fixed. Fields a newer report adds are ignored, as the contract allows.
 */
export function validatePreviousReport(document: unknown, path: string): PreviousReport {
  const fail = (what: string): never => {
    throw new InputError(`${path}: not a teams-migration-audit report (report.json, "format": "impact-report/1"): ${what}`);
  };
  if (!isObject(document)) return fail('expected a JSON object');
  if (document.format !== 'impact-report/1') return fail(`"format" is ${JSON.stringify(document.format ?? null)}`);
  const organization = document.organization;
  if (!isObject(organization) || typeof organization.id !== 'string' || typeof organization.name !== 'string') {
    return fail('"organization" must be an object with string "id" and "name"');
  }
  if (!Array.isArray(document.findings)) return fail('"findings" must be an array');
  const findings = document.findings.map((item, index): Finding => {
    const at = `findings[${index}]`;
    if (!isObject(item)) return fail(`${at} must be an object`);
    if (typeof item.id !== 'string' || item.id === '') fail(`${at}.id must be a non-empty string`);
    if (!(CATEGORIES as readonly unknown[]).includes(item.category)) fail(`${at}.category is not a known category`);
    const resource = item.resource;
    if (!isObject(resource) || !(RESOURCE_TYPES as readonly unknown[]).includes(resource.type) || typeof resource.identifier !== 'string') {
      fail(`${at}.resource must have a known "type" and a string "identifier"`);
    }
    if (typeof item.location !== 'string') fail(`${at}.location must be a string`);
    return item as unknown as Finding;
  });
  const access = document.access === undefined ? undefined : validateAccess(document.access, fail);
  return { organization: { id: organization.id, name: organization.name }, findings, ...(access && { access }) };
}

/** `access` as "still locked out" reads it: where, which permission, and who lost it. */
function validateAccess(access: unknown, fail: (what: string) => never): AccessChange[] {
  if (!Array.isArray(access)) return fail('"access" must be an array');
  return access.map((item, index): AccessChange => {
    const at = `access[${index}]`;
    if (!isObject(item)) return fail(`${at} must be an object`);
    const resource = item.resource;
    if (!isObject(resource) || typeof resource.type !== 'string' || typeof resource.identifier !== 'string') fail(`${at}.resource must have a string "type" and "identifier"`);
    if (typeof item.permission !== 'string') fail(`${at}.permission must be a string`);
    if (item.loses !== undefined && !(Array.isArray(item.loses) && item.loses.every((email) => typeof email === 'string'))) fail(`${at}.loses must be a list of emails`);
    return item as unknown as AccessChange;
  });
}
