import { createHash } from 'node:crypto';
import { compareText } from '../compare-text.js';

/** File names of the kit derived from identifiers, shared by every kind of kit file. */

/** A resource identifier as a file name: path separators and other unsafe characters become `_`. */
export function fileName(identifier: string): string {
  const name = identifier.replace(/[^A-Za-z0-9@_.+=-]/g, '_');
  if (name.length > MAX_FILE_NAME) return `${name.slice(0, MAX_FILE_NAME - 9)}-${shortHash(identifier)}`;
  return name === '' || name === '.' || name === '..' ? `_${name}` : name;
}

/**
 * The most characters (ASCII, so bytes) of a name derived from an identifier: with a clash's hash,
 * `.permissions.json` and a temporary file's suffix it stays far under the 255-byte limit of a
 * file name (an identifier of 251 characters made every output fail with ENAMETOOLONG). A longer
 * one keeps its start and a short hash of the whole identifier, so two long ones stay apart.
 */
export const MAX_FILE_NAME = 100;

/**
 * Names that stay apart: where two keys' names clash (`k8s_cluster/health` and `k8s/cluster_health`
 * are both `k8s_cluster_health`; letter case counts as a clash, for case-insensitive disks), each of
 * them gets a short hash of its key, so no file overwrites another and the same keys give the same names.
 */
export function uniqueNames(items: readonly { key: string; base: string }[]): Map<string, string> {
  const keysByName = new Map<string, Set<string>>();
  for (const { key, base } of items) keysByName.set(base.toLowerCase(), (keysByName.get(base.toLowerCase()) ?? new Set()).add(key));
  const names = new Map<string, string>();
  // A name no other key shares stays as it is; the clashing keys are named after it, in key order.
  const taken = new Set<string>();
  for (const { key, base } of items) {
    if (keysByName.get(base.toLowerCase())!.size === 1) {
      names.set(key, base);
      taken.add(base.toLowerCase());
    }
  }
  const clashing = items.filter(({ key }) => !names.has(key)).sort((a, b) => compareText(a.key, b.key));
  for (const { key, base } of clashing) {
    // The hash is no secret: an org can name a resource `svc-<hash of svc>`, so a taken name is hashed again.
    let name = `${base}-${shortHash(key)}`;
    for (let again = 1; taken.has(name.toLowerCase()); again++) name = `${base}-${shortHash(`${key}\u0000${again}`)}`;
    names.set(key, name);
    taken.add(name.toLowerCase());
  }
  return names;
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
