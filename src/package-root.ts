import { existsSync } from 'node:fs';

/**
 * The folder holding package.json, templates/ and schemas/. Found by walking up from this module,
 * because the code runs from src/ (tests), dist/ (the CLI) and .tools/src/ (bench, sandbox).
 */
function findPackageRoot(): URL {
  let dir = new URL('./', import.meta.url);
  for (let depth = 0; depth < 5; depth++) {
    if (existsSync(new URL('package.json', dir)) && existsSync(new URL('templates/', dir))) return dir;
    dir = new URL('../', dir);
  }
  throw new Error(`cannot find the package root above ${import.meta.url}`);
}

export const PACKAGE_ROOT: URL = findPackageRoot();
