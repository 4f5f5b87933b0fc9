import { stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { CATEGORIES, RESOURCE_TYPES, type Finding } from '../model/finding.js';
import { isObject } from '../model/json.js';
import { assertJsonDepth } from '../json-input.js';
import { readInputFile } from '../read-input-file.js';
import type { PreviousReport } from './compute-progress.js';

export interface PreviousReportFile {
  report: PreviousReport;
  /** The file's modification time: when the previous run wrote it (report.json carries no clock). */
  date: string;
}

/** Read `--since FILE`; anything that is not a readable impact-report/1 is one InputError line (exit 2). */
export async function readPreviousReport(path: string): Promise<PreviousReportFile> {
  const text = await readInputFile(path, 'previous report (--since)');
  assertJsonDepth(text, path, 'previous report (--since)');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: the previous report (--since) is not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`, { cause: error });
  }
  const report = validatePreviousReport(document, path);
  const { mtime } = await stat(path);
  return { report, date: mtime.toISOString() };
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
  return { organization: { id: organization.id, name: organization.name }, findings };
}
