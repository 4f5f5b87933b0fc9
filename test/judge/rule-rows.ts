/** `$team` rules shared by the query-rule, widget-filter, scorecard and dataset tables. */
import type { ExpectedClass } from './two-worlds.js';

export interface RuleRow {
  name: string;
  operator: string;
  value: string | string[];
  shows: ExpectedClass;
}

export const RULE_ROWS: RuleRow[] = [
  { name: 'a title', operator: 'in', value: ['QA'], shows: 'changed' },
  { name: 'a title and its own identifier: the same entities before and after', operator: 'in', value: ['QA', 'qa'], shows: 'same' },
  { name: 'an identifier before the migration: starts matching', operator: 'in', value: ['data_science'], shows: 'changed' },
  { name: 'not in a title: lets everything through after', operator: 'notIn', value: ['QA'], shows: 'changed' },
  { name: 'equals a title', operator: '=', value: 'Beta', shows: 'changed' },
  { name: 'contains a substring of a title', operator: 'contains', value: 'Data', shows: 'changed' },
  { name: 'contains a substring of an identifier', operator: 'contains', value: 'data', shows: 'changed' },
  { name: 'begins with a prefix both share', operator: 'beginsWith', value: 'z', shows: 'changed' },
  { name: 'a string no team holds', operator: 'in', value: ['Nobody'], shows: 'same' },
];

export const valuesOf = (row: RuleRow) => (Array.isArray(row.value) ? row.value : [row.value]);
