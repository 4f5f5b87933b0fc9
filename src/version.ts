import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from './package-root.js';

const PACKAGE = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string; engines?: { node?: string } };

export const VERSION: string = PACKAGE.version;

/** package.json's `engines.node`: the Node lines the tool is tested on. */
export const ENGINES_NODE: string | undefined = PACKAGE.engines?.node;
