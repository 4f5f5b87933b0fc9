import { readFileSync } from 'node:fs';
import type { Schema } from './json-schema.js';

const load = (name: string): Schema => JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as Schema;

export const REPORT_SCHEMA = load('report.schema.json');
export const SARIF_SCHEMA = load('sarif-2.1.0.schema.json');
