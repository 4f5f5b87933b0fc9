import { addressesOf } from '../address-options.js';
import { InputError, UsageError } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import { isObject } from '../model/json.js';
import { clearTextRefusal } from './read-only.js';

/** The service's public regions (docs/live-service.md). */
export const REGION_URLS = {
  eu: 'https://api.getport.io',
  us: 'https://api.us.getport.io',
} as const;
export type Region = keyof typeof REGION_URLS;

export type Credentials =
  | {
      kind: 'token';
      token: string;
      /** Where the token came from, for errors: "PORT_TOKEN" when absent. */
      source?: string;
    }
  | {
      kind: 'client';
      clientId: string;
      clientSecret: string;
      /** Where the pair came from, for errors: "PORT_CLIENT_ID / PORT_CLIENT_SECRET" when absent. */
      source?: string;
    };

/** The names the user set, for "the service rejected …": never the values. */
export function credentialSource(credentials: Credentials): string {
  if (credentials.kind === 'token') return credentials.source ?? 'PORT_TOKEN';
  return credentials.source ?? 'PORT_CLIENT_ID / PORT_CLIENT_SECRET';
}

export interface Connection {
  baseUrl: URL;
  credentials: Credentials;
}

export interface ConnectionFlags {
  apiUrl?: string;
  region?: string;
  config?: string;
}

/** The reference script's config.json: `{REGION, CLIENT_ID, CLIENT_SECRET}`. */
interface ReferenceConfig {
  /** The file it was read from, to name it in errors. */
  file?: string;
  region?: Region;
  clientId?: string;
  clientSecret?: string;
}

export function isRegion(value: string): value is Region {
  return Object.hasOwn(REGION_URLS, value);
}

/**
 * Read the reference script's config.json. Errors never quote the file's content: it holds a
 * client secret, and JSON.parse messages echo the text around the fault.
 */
async function readReferenceConfig(path: string): Promise<ReferenceConfig> {
  // The cause is kept for --debug, but the message does not repeat JSON.parse's excerpt.
  const document = await readJsonInput(path, 'config file', { quoteParserError: false });
  if (!isObject(document)) throw new InputError(`${path}: the config file must hold a JSON object`);
  const config: ReferenceConfig = { file: path };
  for (const [key, field] of [['CLIENT_ID', 'clientId'], ['CLIENT_SECRET', 'clientSecret']] as const) {
    const value = document[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new InputError(`${path}: "${key}" must be a string`);
    config[field] = value;
  }
  const region = document.REGION;
  if (region !== undefined) {
    const normalized = typeof region === 'string' ? region.toLowerCase() : '';
    if (!isRegion(normalized)) throw new InputError(`${path}: "REGION" must be "eu" or "us"`);
    config.region = normalized;
  }
  return config;
}

/**
 * Credentials in order of precedence: PORT_TOKEN, then PORT_CLIENT_ID + PORT_CLIENT_SECRET, then
 * the config file. Undefined when none is set, so the caller can print the "two ways" hint.
 */
function pickCredentials(
  env: Readonly<Record<string, string | undefined>>,
  config: ReferenceConfig,
): Credentials | undefined {
  const token = env.PORT_TOKEN?.trim();
  if (token) return { kind: 'token', token };
  const envId = env.PORT_CLIENT_ID?.trim();
  const envSecret = env.PORT_CLIENT_SECRET?.trim();
  if (envId || envSecret) {
    if (!envId || !envSecret) throw new UsageError('set both PORT_CLIENT_ID and PORT_CLIENT_SECRET (or PORT_TOKEN alone)');
    return { kind: 'client', clientId: envId, clientSecret: envSecret };
  }
  if (config.clientId || config.clientSecret) {
    if (!config.clientId || !config.clientSecret) throw new UsageError('the config file needs both CLIENT_ID and CLIENT_SECRET');
    const source = `CLIENT_ID / CLIENT_SECRET of the config file ${config.file ?? ''}`.trimEnd();
    return { kind: 'client', clientId: config.clientId, clientSecret: config.clientSecret, source };
  }
  return undefined;
}

/**
 * --api-url wins over --region, which wins over the config file's REGION; eu by default. Without
 * either flag, PORT_API_URL and PORT_REGION stand in for them (address-options.ts).
 */
function pickBaseUrl(flags: ConnectionFlags, config: ReferenceConfig, env: Readonly<Record<string, string | undefined>> = {}): URL {
  const { apiUrl, region, names } = addressesOf(flags, env);
  if (apiUrl !== undefined) return apiBaseUrl(apiUrl, names.apiUrl);
  if (region !== undefined && !isRegion(region)) throw new UsageError(`${names.region} must be "eu" or "us", got "${region}"`);
  const chosen: Region = (region as Region | undefined) ?? config.region ?? 'eu';
  return new URL(REGION_URLS[chosen]);
}

/**
 * The API's address: an origin, since every request names its own path from /v1 on. `/v1` (as the
 * API reference writes its base URL) names the same API; any other path, a query or a fragment
 * would be dropped, so it is refused rather than silently ignored.
 */
export function apiBaseUrl(value: string, name: string): URL {
  // Errors go to the CI log: a user name or password written in the address is never echoed.
  const shown = value.replace(/^([^:/?#]*:\/*)[^/?#]*@/, '$1***@');
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    // A bare host (`api.getport.io`) is the usual slip: name the URL it most likely means.
    const host = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/?$/i.test(value) ? ` (did you mean https://${value.replace(/\/$/, '')}?)` : '';
    throw new UsageError(`${name}: "${shown}" is not a URL${host}`, { cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${name} must be an http(s) URL`);
  // Refused before any request: the first one carries the token or the client secret.
  const clearText = clearTextRefusal(url);
  if (clearText !== undefined) throw new UsageError(`${name} ${url.origin}: ${clearText}`);
  // Requests go to the origin alone: a user and password there would be dropped, not sent.
  if (url.username !== '' || url.password !== '') throw new UsageError(`${name} ${shown}: a user name or password in the address is never sent; give the credentials as PORT_TOKEN, or PORT_CLIENT_ID and PORT_CLIENT_SECRET`);
  const dropped = (what: string) =>
    new UsageError(`${name} ${shown}: ${what} would be dropped: requests go to ${url.origin}/v1/…; give the address the API answers at, without a path`);
  if (url.search !== '') throw dropped(`the query "${url.search}"`);
  if (url.hash !== '') throw dropped(`the fragment "${url.hash}"`);
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/v1') throw dropped(`the path "${path}"`);
  return new URL(url.origin);
}

/** Undefined when no credentials are configured anywhere. */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Connection | undefined> {
  const config = flags.config ? await readReferenceConfig(flags.config) : {};
  const credentials = pickCredentials(env, config);
  if (!credentials) return undefined;
  return { baseUrl: pickBaseUrl(flags, config, env), credentials };
}
