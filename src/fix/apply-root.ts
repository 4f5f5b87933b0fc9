import { basename, relative, resolve, sep } from 'node:path';
import { gitTopOf } from '../repo/file-set.js';
import { displayRoots } from '../repo/scan.js';

/** Where one `--repo` directory's patch is applied: paths in it are relative to `root`. */
export interface PatchRepo {
  /** The prefix the findings' paths carry for this directory (`displayRoot`). */
  shown: string;
  /** The directory's own name, for `repo-<name>.patch` when there are several. */
  name: string;
  /** Absolute: the top of the git work tree holding the directory, else the directory itself. */
  root: string;
  /** `root` relative to where the audit ran (`.` when it is there), for the kit's README: no path of this machine. */
  rootFromHere: string;
  /** The directory inside `root`, with `/`; '' when it is the root. */
  prefix: string;
}

/**
 * Inside a git work tree `git apply` reads a patch's paths from the tree's top, whatever directory
 * it runs in (and silently skips paths outside that directory): so each directory's patch is
 * written from the top of its work tree, and from the directory itself when it is in none.
 */
export async function patchRepos(dirs: readonly string[]): Promise<PatchRepo[]> {
  const repos: PatchRepo[] = [];
  const shown = displayRoots(dirs);
  for (const [index, dir] of dirs.entries()) {
    const absolute = resolve(dir);
    const root = (await gitTopOf(absolute)) ?? absolute;
    repos.push({
      shown: shown[index]!,
      name: basename(absolute),
      root,
      rootFromHere: relative(process.cwd(), root).split(sep).join('/') || '.',
      prefix: relative(root, absolute).split(sep).join('/'),
    });
  }
  return repos;
}
