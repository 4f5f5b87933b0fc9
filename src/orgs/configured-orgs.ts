import type { Command } from 'commander';
import { ADDRESS_VARIABLES, type AddressFlags } from '../address-options.js';
import { UsageError, isKnownError } from '../errors.js';
import { credentialRedactor } from '../secrets/credentials.js';
import type { SourceFlags } from '../sources/resolve-source.js';
import { analyzeEachThenMerge, type MergeFlags, type MergeIo } from './merge-command.js';
import { readOrgsConfig } from './org-config.js';

/** `--orgs FILE` on `analyze`: the option, kept here so the CLI adds it in one line. */
export function addOrgsOption(command: Command): Command {
  return command.option(
    '--orgs <file>',
    'several live orgs in one report: a YAML or JSON file naming each org (name, region or apiUrl) and the environment variables holding its credentials (clientIdEnv and clientSecretEnv, or tokenEnv); each org\'s reports go to <out>/orgs, the combined ones to --out',
  );
}

interface OrgsFlags extends AddressFlags, MergeFlags, Pick<SourceFlags, 'snapshot' | 'config' | 'configuredOrg'> {
  orgs?: string;
  demo?: boolean;
}

/** Flags that choose one org's address or credentials: the file chooses them per org. */
const ONE_ORG_FLAGS = [
  ['snapshot', '--snapshot'],
  ['demo', '--demo'],
  ['apiUrl', '--api-url'],
  ['region', '--region'],
  ['appUrl', '--app-url'],
  ['config', '--config'],
] as const;

/**
 * `analyze --orgs FILE`: every org the file names read live (read-only, as one run reads one),
 * each analysed into `<out>/orgs/<n>-<name>`, then merged into --out as `merge` would. The file
 * and every variable it names are checked before the first request. Each org's run sees its own
 * address alone: PORT_API_URL, PORT_REGION and PORT_APP_URL speak of one org and are not applied
 * to all. No credential of any org reaches stderr.
 */
export async function runConfiguredOrgs<F extends OrgsFlags, I extends MergeIo>(
  path: string,
  sources: readonly string[],
  flags: F,
  analyzeOne: (flags: F, io: I) => Promise<number>,
  io: I,
): Promise<number> {
  if (sources.length > 0) throw new UsageError(`--orgs ${path} names the orgs to read; leave out the snapshot files (or analyze them without --orgs)`);
  for (const [key, flag] of ONE_ORG_FLAGS) {
    if (flags[key] !== undefined && flags[key] !== false) throw new UsageError(`--orgs ${path} gives each org its address and credentials; leave out ${flag}${key === 'appUrl' ? ' (give appUrl per org in the file)' : ''}`);
  }
  const orgs = await readOrgsConfig(path, io.env);
  const secrets = orgs.flatMap(({ connection: { credentials } }) => (credentials.kind === 'token' ? [credentials.token] : [credentials.clientId, credentials.clientSecret]));
  const env = Object.fromEntries(Object.entries(io.env).filter(([name]) => !(Object.values(ADDRESS_VARIABLES) as string[]).includes(name)));
  const withoutSecrets = credentialRedactor(secrets);
  const orgIo: I = { ...io, env, stderr: (text) => io.stderr(withoutSecrets(text)) };
  const each = orgs.map((org) => ({ name: org.name, flags: { configuredOrg: { name: org.name, connection: org.connection }, ...org.addresses } as Partial<F> }));
  return analyzeEachThenMerge(
    each,
    flags,
    async (one) => {
      try {
        return await analyzeOne(one, orgIo);
      } catch (error) {
        // Which org failed, in the same one line (the merge is not written: its report would be silently shorter).
        const name = one.configuredOrg?.name;
        if (isKnownError(error) && name !== undefined) error.message = `org "${name}": ${error.message}`;
        throw error;
      }
    },
    orgIo,
  );
}
