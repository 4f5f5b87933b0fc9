import type { Rule } from './rule.js';

/** The registry: a hand-written list, so adding a rule is a visible, reviewed change. */
export const RULES: readonly Rule[] = [];
