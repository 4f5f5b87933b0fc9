import { apiBaseUrl, isRegion, REGION_URLS, type Connection, type Credentials } from '../api/connection.js';
import { InputError, UsageError } from '../errors.js';
import type { AddressFlags } from '../address-options.js';
import { isObject } from '../model/json.js';
import { readYamlInput } from '../read-yaml-input.js';

/**
 * `analyze --orgs FILE` (issue 41): several live orgs in one run, as development, staging and
 * production usually are. The file names each org, where its API is, and the environment
 * variables that hold its credentials: never the credentials, so the file can be committed
 * beside the workflow that sets the variables from its secrets.
 *
 * ```yaml
 * orgs:
 *   - name: production
 *     region: eu
 *     clientIdEnv: PROD_PORT_CLIENT_ID
 *     clientSecretEnv: PROD_PORT_CLIENT_SECRET
 *   - name: staging
 *     apiUrl: https://api.us.getport.io
 *     tokenEnv: STAGING_PORT_TOKEN
 * ```
 */
export interface ConfiguredOrg {
  name: string;
  connection: Connection;
  /** As --api-url / --region / --app-url would give them, for the report's links into the app. */
  addresses: AddressFlags;
}

const ORG_KEYS = ['name', 'region', 'apiUrl', 'appUrl', 'clientIdEnv', 'clientSecretEnv', 'tokenEnv'] as const;
type OrgKey = (typeof ORG_KEYS)[number];
/** An environment variable's name as a shell or a CI workflow writes one. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Read and check the file, then the variables it names: every failure one line, no value quoted. */
export async function readOrgsConfig(path: string, env: Readonly<Record<string, string | undefined>>): Promise<ConfiguredOrg[]> {
  return orgsOf(await readYamlInput(path, 'orgs file', 'YAML or JSON'), path, env);
}

/** The orgs a parsed file names, with their credentials from `env`. Pure. */
export function orgsOf(document: unknown, path: string, env: Readonly<Record<string, string | undefined>>): ConfiguredOrg[] {
  if (!isObject(document)) throw new InputError(`${path}: expected a map with "orgs", a list of orgs (name, region or apiUrl, clientIdEnv and clientSecretEnv, or tokenEnv)`);
  for (const key of Object.keys(document)) if (key !== 'orgs') throw new InputError(`${path}: unknown key ${JSON.stringify(key)} (the file holds "orgs" alone)`);
  const list = document.orgs;
  if (!Array.isArray(list) || list.length === 0) throw new InputError(`${path}: "orgs" must be a list of one org or more`);
  const seen = new Map<string, number>();
  const orgs = list.map((entry, index) => {
    const org = orgEntry(entry, path, index + 1);
    // Case folded: "Staging" beside "staging" is a slip, and their folders would clash on a case-insensitive disk.
    const earlier = seen.get(org.name.toLowerCase());
    if (earlier !== undefined) throw new InputError(`${path}: org ${index + 1}: the name "${org.name}" is org ${earlier}'s already; give each org its own name`);
    seen.set(org.name.toLowerCase(), index + 1);
    return org;
  });
  // Every unset variable in one line: a CI job learns them all from one failed run.
  const unset = orgs.flatMap((org) => org.variables.filter((name) => !env[name]?.trim()).map((name) => `${name} (org "${org.name}")`));
  if (unset.length > 0) throw new UsageError(`${path}: environment variable${unset.length === 1 ? '' : 's'} not set: ${unset.join(', ')}`);
  return orgs.map(({ name, addresses, variables, source }) => ({ name, addresses, connection: { baseUrl: baseUrlOf(addresses, `${path}: org "${name}"`), credentials: credentialsOf(variables, env, source) } }));
}

interface OrgEntry {
  name: string;
  addresses: ConfiguredOrg['addresses'];
  /** [token] or [client id, client secret]: the variables' names. */
  variables: string[];
  /** How errors name the credentials: the variables, never their values. */
  source: string;
}

function orgEntry(entry: unknown, path: string, number: number): OrgEntry {
  let where = `${path}: org ${number}`;
  if (!isObject(entry)) throw new InputError(`${where}: expected a map (name, region or apiUrl, clientIdEnv and clientSecretEnv, or tokenEnv)`);
  for (const key of Object.keys(entry)) {
    if (!(ORG_KEYS as readonly string[]).includes(key)) throw new InputError(`${where}: unknown key ${JSON.stringify(key)} (known: ${ORG_KEYS.join(', ')})`);
  }
  const text = (key: OrgKey): string | undefined => {
    const value = entry[key];
    if (value === undefined) return undefined;
    // The value is not quoted: a secret pasted where a name belongs must not reach the CI log.
    if (typeof value !== 'string' || value.trim() === '') throw new InputError(`${where}: "${key}" must be a non-empty string`);
    return value.trim();
  };
  const name = text('name');
  if (name === undefined) throw new InputError(`${where}: "name" is missing (each org's reports go under its name)`);
  where = `${path}: org "${name}"`;
  const variable = (key: OrgKey) => {
    const value = text(key);
    if (value !== undefined && !VARIABLE_NAME.test(value)) {
      throw new InputError(`${where}: "${key}" must name an environment variable (letters, digits and _), not hold its value: the file never carries credentials`);
    }
    return value;
  };
  const [token, clientId, clientSecret] = [variable('tokenEnv'), variable('clientIdEnv'), variable('clientSecretEnv')];
  let variables: string[];
  if (token !== undefined) {
    if (clientId !== undefined || clientSecret !== undefined) throw new InputError(`${where}: give tokenEnv, or clientIdEnv and clientSecretEnv, not both`);
    variables = [token];
  } else {
    if (clientId === undefined || clientSecret === undefined) throw new InputError(`${where}: give clientIdEnv and clientSecretEnv (or tokenEnv): the variables holding its credentials`);
    variables = [clientId, clientSecret];
  }
  const [region, apiUrl, appUrl] = [text('region')?.toLowerCase(), text('apiUrl'), text('appUrl')];
  if (region !== undefined && apiUrl !== undefined) throw new InputError(`${where}: give region or apiUrl, not both`);
  if (region !== undefined && !isRegion(region)) throw new InputError(`${where}: "region" must be "eu" or "us"`);
  // The region always set when no apiUrl is: PORT_REGION speaks of one org, and eu is the default of every run.
  const addresses = { ...(apiUrl === undefined ? { region: region ?? 'eu' } : { apiUrl }), ...(appUrl === undefined ? {} : { appUrl }) };
  return { name, addresses, variables, source: variables.join(' / ') };
}

/** The same rules as --api-url: https, or http only to this machine, since the first request carries a credential. */
function baseUrlOf(addresses: ConfiguredOrg['addresses'], where: string): URL {
  if (addresses.apiUrl !== undefined) return apiBaseUrl(addresses.apiUrl, `${where}: apiUrl`);
  return new URL(REGION_URLS[(addresses.region ?? 'eu') as keyof typeof REGION_URLS]);
}

function credentialsOf(variables: string[], env: Readonly<Record<string, string | undefined>>, source: string): Credentials {
  const value = (name: string) => (env[name] as string).trim();
  const [first, second] = variables as [string, string | undefined];
  if (second === undefined) return { kind: 'token', token: value(first), source };
  return { kind: 'client', clientId: value(first), clientSecret: value(second), source };
}
