import { posix } from 'node:path';
import type { Entry, ObjectNode } from './tree.js';
import { findEntry, stringValue } from './tree.js';

/** A value Terraform would give `var.x` or `local.x`: the entry it is written in (its line is the one to rewrite). */
export type TerraformValue = Entry;

/** `var.x` / `local.x` → its value, per configuration (a directory). */
export type TerraformValues = ReadonlyMap<string, TerraformValue>;

/** One parsed file of a configuration: a `.tf` file or a `.tfvars` file. */
export interface ConfigurationFile {
  path: string;
  top: ObjectNode;
}

/** `terraform.tfvars`, then `*.auto.tfvars` in name order, override variable defaults (as Terraform loads them). */
const DEFAULT = -1;
const VAR_FILE = 0;
const AUTO = 2;
const LOCAL = 3;

function tfvarsRank(path: string): number | undefined {
  const name = posix.basename(path);
  if (name === 'terraform.tfvars') return 1;
  if (name.endsWith('.auto.tfvars')) return AUTO;
  if (name.endsWith('.tfvars')) return VAR_FILE; // an environment's -var-file: above the default, below what Terraform loads itself
  return undefined;
}

/**
 * The values of one configuration's variables and locals, resolved as Terraform does for what it
 * can see: a variable's default, overridden by `terraform.tfvars` and `*.auto.tfvars`; another
 * `*.tfvars` (an environment's `-var-file`, the first by name) counts above the default only.
 */
export function terraformValues(files: readonly ConfigurationFile[]): TerraformValues {
  const values = new Map<string, TerraformValue>();
  const ranks = new Map<string, number>();
  const set = (key: string, value: TerraformValue, rank: number) => {
    const held = ranks.get(key);
    // A later *.auto.tfvars overrides an earlier one; of the -var-file candidates the first by name is kept.
    if (held !== undefined && (held > rank || (held === rank && rank !== AUTO))) return;
    values.set(key, value);
    ranks.set(key, rank);
  };
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const { top } of sorted.filter((file) => tfvarsRank(file.path) === undefined)) {
    for (const entry of top.entries) {
      const block = entry.value;
      if (block.kind !== 'object') continue;
      if (entry.key === 'variable' && block.labels?.[0] !== undefined) {
        const fallback = findEntry(block, 'default');
        if (fallback) set(`var.${block.labels[0]}`, fallback, DEFAULT);
      } else if (entry.key === 'locals') {
        for (const local of block.entries) set(`local.${local.key}`, local, LOCAL);
      } else if (entry.key === 'resource' && block.labels?.[0]?.startsWith('port_') && block.labels[1] !== undefined) {
        // `target = port_blueprint.service.identifier`: the identifier the resource writes.
        const identifier = findEntry(block, 'identifier');
        if (identifier?.value.kind === 'string') set(`${block.labels[0]}.${block.labels[1]}.identifier`, identifier, LOCAL);
      }
    }
  }
  for (const file of sorted) {
    const rank = tfvarsRank(file.path);
    if (rank === undefined) continue;
    for (const entry of file.top.entries) set(`var.${entry.key}`, entry, rank);
  }
  return values;
}

/**
 * Terraform functions whose value is one of their arguments, or all of them joined
 * (`coalesce(var.team, "Platform Team")`): each argument is a value the result may hold.
 */
export const PICKS_AMONG_ARGUMENTS: ReadonlySet<string> = new Set(['coalesce', 'coalescelist', 'try', 'concat', 'flatten', 'tolist', 'toset', 'compact', 'distinct', 'sort', 'one']);

/** How deep `local.a = local.b` chains are followed: further is a loop or beyond "simple". */
const MAX_HOPS = 8;

/** The value a reference stands for, following locals and variables, or undefined when it is not ours to see. */
export function resolveReference(values: TerraformValues | undefined, path: string): TerraformValue | undefined {
  let found: TerraformValue | undefined;
  let current = path;
  for (let hop = 0; hop < MAX_HOPS && values; hop++) {
    const next = values.get(current);
    if (!next) break;
    found = next;
    if (next.value.kind !== 'ref') return found;
    current = next.value.path;
  }
  return found?.value.kind === 'ref' ? undefined : found;
}

/** `var.x`, `local.x` or `port_blueprint.x.identifier`: a value of the configuration that may be resolved. */
export const isConfigurationReference = (path: string): boolean => /^(var|local)\.[A-Za-z_][\w-]*$/.test(path) || /^port_[a-z_]+\.[A-Za-z_][\w-]*\.identifier$/.test(path);

/** How many calls of one module folder are judged; a configuration that calls it more is judged with the first ones. */
export const MAX_MODULE_CALLS = 32;

/** Arguments of a module call that are Terraform's own, not the module's variables. */
const META_ARGUMENTS: ReadonlySet<string> = new Set(['source', 'version', 'providers', 'count', 'for_each', 'depends_on']);

/**
 * Each call of a module kept in the repository (`module "x" { source = "./modules/svc" … }`): the
 * folder it instantiates and what its variables hold for that call, one level deep, as Terraform
 * would give them. An argument that is a variable or local of the calling configuration is resolved
 * there, so a value is found where it is written: the line to change. The module's own defaults and
 * locals hold where the call sets nothing.
 */
export function moduleInstances(files: readonly ConfigurationFile[], values: ReadonlyMap<string, TerraformValues>): { instances: Map<string, TerraformValues[]>; calls: Map<string, number> } {
  const instances = new Map<string, TerraformValues[]>();
  const counted = new Map<string, number>();
  for (const { path, top } of files) {
    if (!path.endsWith('.tf')) continue;
    const caller = posix.dirname(path);
    for (const entry of top.entries) {
      const block = entry.value;
      if (entry.key !== 'module' || block.kind !== 'object') continue;
      const source = stringValue(findEntry(block, 'source')?.value);
      if (source === undefined || !/^\.\.?\//.test(source)) continue; // a registry or git module is not in the repository
      const folder = posix.normalize(posix.join(caller, source)).replace(/\/$/, '');
      const instance = new Map(values.get(folder) ?? []);
      for (const argument of block.entries) {
        if (META_ARGUMENTS.has(argument.key)) continue;
        const node = argument.value;
        const resolved = node.kind === 'ref' && isConfigurationReference(node.path) ? resolveReference(values.get(caller), node.path) : undefined;
        instance.set(`var.${argument.key}`, resolved ?? argument);
      }
      const calls = instances.get(folder) ?? [];
      counted.set(folder, (counted.get(folder) ?? 0) + 1);
      // Each call judges the module's files once more: past this many, the rest add cost, not cases.
      if (calls.length < MAX_MODULE_CALLS) instances.set(folder, [...calls, instance]);
    }
  }
  return { instances, calls: counted };
}
