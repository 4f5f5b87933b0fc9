import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { answerWithBodyFault, echoOf, loopingNext, type HostileOptions, type HostileState } from './hostile.js';
import { matchQuery, SearchError } from './search.js';
import { seededRandom } from '../helpers/seeded-random.js';

/**
 * A sandbox of the catalog service: serves one org-snapshot/1 document over exactly the
 * endpoints and envelopes of docs/formats.md, the org snapshot, on 127.0.0.1 only, with switches for the failures
 * the client must survive. Every loop is bounded and the server stops by itself.
 */
export interface SandboxOptions {
  snapshot: OrgSnapshot;
  /** A bearer token accepted as is (PORT_TOKEN); random when absent. */
  token?: string;
  clientId?: string;
  clientSecret?: string;
  /** `expiresIn` of exchanged tokens; after it they answer 401. */
  tokenLifetimeSeconds?: number;
  /** Real delay before every answer (for the benchmark; keep 0 in tests with a fake clock). */
  latencyMs?: number;
  /**
   * At most `limit` requests per window; beyond it 429 with the x-ratelimit-* headers.
   * `sendReset` / `sendRemaining: false` leave out `x-ratelimit-reset` / `x-ratelimit-remaining`.
   */
  rateLimit?: {
    limit: number;
    windowSeconds: number;
    sendReset?: boolean;
    sendRemaining?: boolean;
    /** `x-ratelimit-reset` as the UTC epoch second of the reset instead of seconds to wait (the service documents both). */
    resetAsEpoch?: boolean;
    /** 429 answers also carry `Retry-After` (seconds to the reset). */
    retryAfter?: boolean;
    /**
     * The window restarts from the first request after it ends ("an epoch reset"), not on
     * multiples of the window: a run meets resets at times no fixed grid predicts.
     */
    rolling?: boolean;
  };
  /**
   * Blueprints the search across blueprints (`POST /v1/entities/search`) cannot search: with
   * `allow_partial_results=true` it names them in `failedBlueprints` and leaves them out of
   * `entities`; without it the whole request fails (500), as the service documents.
   */
  failedBlueprints?: string[];
  /** Every Nth request (1-based, all requests counted) answers `failStatus` (503 by default). */
  failEvery?: number;
  failStatus?: number;
  /** Each request fails (`failStatus`) with this chance, drawn from a seeded generator: failures at random, the same for a seed. */
  failRandomly?: { rate: number; seed: number };
  /** Forced answers: the first `times` matching requests (all when absent) get `status`. */
  faults?: Array<{ method?: string; path: string; status: number; times?: number }>;
  /** Users as the service holds them (names, ids, pictures …); by default the snapshot's `users`. */
  users?: Array<Record<string, unknown>>;
  /** Answer GET /v1/users with every field, whatever `fields` asks for. */
  ignoreUserFields?: boolean;
  /** GET /v1/users answers without `teams` (a token or an older service without the field). */
  usersWithoutTeams?: boolean;
  /**
   * GET /v1/teams answers without `users`. By default each team carries its members as the
   * service does (`users[{email, firstName, lastName, picture, status}]`), from the users above.
   */
  teamsWithoutUsers?: boolean;
  /** Every request gets this answer, as a URL that is not the API would (a 404 everywhere, a web page). */
  answerAll?: { status: number; contentType?: string; body?: string };
  /** The sandbox's clock in ms (shared with the client's in tests); Date.now by default. */
  now?: () => number;
  /** Stop after this long without a request (10 minutes by default). */
  idleTimeoutMs?: number;
  /** Stop after this long whatever happens (1 hour by default). */
  maxLifetimeMs?: number;
  port?: number;
  /** Faults of a hostile gateway (hostile.ts). */
  hostile?: HostileOptions;
}

export interface LoggedRequest {
  method: string;
  /** Path with query string, never headers or bodies (they carry secrets). */
  path: string;
  status: number;
}

export interface Sandbox {
  url: string;
  token: string;
  clientId: string;
  clientSecret: string;
  requests: LoggedRequest[];
  /** Tokens handed out by the token exchange (so tests can prove none leaks). */
  issuedTokens(): string[];
  /** Make every exchanged token answer 401 from now on. */
  expireTokens(): void;
  close(): Promise<void>;
  closed: Promise<void>;
}

/** The service's search API answers 413 above 1 MiB. */
const MAX_BODY_BYTES = 1_048_576;
/** docs/formats.md, the org snapshot: `limit` is at most 1000. */
const MAX_PAGE = 1_000;
/** The service's page size when a blueprint's search gives no `limit` (its API reference). */
const DEFAULT_PAGE = 200;
/** A blueprint's search body, as the service's schema lists it (no other member). */
const BLUEPRINT_SEARCH_MEMBERS = ['query', 'include', 'exclude', 'limit', 'from'] as const;
/** The search across blueprints: its body is a query. */
const ACROSS_SEARCH_MEMBERS = ['combinator', 'rules'] as const;
/** Ours: a forgotten sandbox started by hand goes away after 10 idle minutes … */
const DEFAULT_IDLE_MS = 10 * 60_000;
/** … or after an hour in any case. */
const DEFAULT_LIFETIME_MS = 60 * 60_000;

class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = unknown;
type Route = (params: string[], query: URLSearchParams, body: Json) => Record<string, Json>;

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const snapshot = options.snapshot;
  const token = options.token ?? `sandbox-token-${randomBytes(12).toString('hex')}`;
  const clientId = options.clientId ?? 'sandbox-client';
  const clientSecret = options.clientSecret ?? `sandbox-secret-${randomBytes(12).toString('hex')}`;
  const issued = new Map<string, number>();
  const requests: LoggedRequest[] = [];
  const faults = (options.faults ?? []).map((fault) => ({ ...fault, used: 0 }));
  let count = 0;
  const failDraw = options.failRandomly ? seededRandom(options.failRandomly.seed) : undefined;
  let window = { index: -1, used: 0, endsAt: 0 };

  const blueprintIds = new Set(snapshot.blueprints.map((b) => b.identifier).filter((id): id is string => typeof id === 'string'));
  const entitiesOf = (id: string) => (snapshot.entities?.[id] ?? []) as Array<Record<string, Json>>;
  const requireBlueprint = (id: string | undefined) => {
    if (id === undefined || !blueprintIds.has(id)) throw new HttpError(404, 'not_found', `blueprint "${id}" not found`);
    return id;
  };
  const requireIn = (records: readonly Record<string, Json>[] | null | undefined, id: string | undefined, what: string) => {
    if (!records?.some((record) => record.identifier === id)) throw new HttpError(404, 'not_found', `${what} "${id}" not found`);
    return id as string;
  };
  const requireQuery = (query: URLSearchParams, name: string, value: string) => {
    if (query.get(name) !== value) throw new HttpError(422, 'invalid_request', `this sandbox serves only ?${name}=${value}`);
  };

  const allUsers = () => {
    const users = options.users ?? ((snapshot.users ?? []) as unknown as Array<Record<string, unknown>>);
    if (!options.usersWithoutTeams) return users;
    return users.map(({ teams: _teams, ...user }) => user);
  };
  /** The service's teams, each with its members (as wide as the service holds them) unless told otherwise. */
  const allTeams = () => {
    const teams = (snapshot.teams ?? []) as Array<Record<string, unknown>>;
    if (options.teamsWithoutUsers) return teams;
    const users = options.users ?? ((snapshot.users ?? []) as unknown as Array<Record<string, unknown>>);
    const teamName = (team: unknown) => (typeof team === 'string' ? team : (team as { name?: unknown } | null)?.name);
    return teams.map((team) => ({
      ...team,
      users: users
        .filter((user) => Array.isArray(user.teams) && user.teams.some((held) => teamName(held) === team.name))
        .map((user) => ({ email: user.email, firstName: user.firstName ?? 'First', lastName: user.lastName ?? 'Privatename', picture: 'https://pictures.example.com/p.png', status: 'ACTIVE' })),
    }));
  };
  /** `fields=email&fields=teams.name`: the named top-level fields, and of a list of objects only the named keys. */
  const cutToFields = (records: Array<Record<string, unknown>>, fields: string[], ignoreFields = false) => {
    if (fields.length === 0 || ignoreFields) return records;
    return records.map((user) => {
      const picked: Record<string, unknown> = {};
      for (const field of fields) {
        const [key, inner] = field.split('.') as [string, string | undefined];
        const value = user[key];
        if (value === undefined) continue;
        if (inner === undefined || !Array.isArray(value)) picked[key] = value;
        else {
          const earlier = picked[key] as Array<Record<string, unknown>> | undefined; // teams.name, then teams.provider
          picked[key] = value.map((item: unknown, index) => {
            const kept = earlier?.[index] ?? {};
            return typeof item === 'object' && item !== null && inner in item ? { ...kept, [inner]: (item as Record<string, unknown>)[inner] } : item;
          });
        }
      }
      return picked;
    });
  };

  /** Matches of `query` among `candidates`; a query the sandbox cannot read is the service's 422. */
  const matching = (candidates: Array<{ blueprint: string; entity: Record<string, Json> }>, query: Record<string, Json> | undefined) => {
    try {
      return candidates.filter(({ blueprint, entity }) => matchQuery(entity, blueprint, query));
    } catch (error) {
      if (error instanceof SearchError) throw new HttpError(422, 'invalid_request', error.message);
      throw error;
    }
  };
  /** Members outside the route's schema are refused, as the service's `additionalProperties: false` does. */
  const requireOnly = (body: Record<string, Json>, allowed: readonly string[], what: string) => {
    const extra = Object.keys(body).filter((key) => !allowed.includes(key));
    if (extra.length > 0) throw new HttpError(422, 'invalid_request', `${what} does not take ${extra.map((key) => JSON.stringify(key)).join(', ')}`);
  };
  const asObject = (body: Json): Record<string, Json> => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, Json>) : {});

  /** Only the fields `include` names (`$identifier` is the entity's `identifier`), as the service answers: a client that asks too few misses them here too. */
  const included = (entity: Record<string, Json>, include: Json | undefined): Record<string, Json> => {
    if (!Array.isArray(include)) return entity;
    const kept: Record<string, Json> = {};
    for (const field of include) {
      const key = typeof field === 'string' ? field.replace(/^\$/, '') : undefined;
      if (key !== undefined && Object.hasOwn(entity, key)) kept[key] = entity[key]!;
    }
    return kept;
  };

  /** A blueprint's search (docs/live-service.md): `{query, include, exclude, limit, from}`, paged by `next`. */
  const searchBlueprint = (blueprint: string, body: Json) => {
    const request = asObject(body);
    requireOnly(request, BLUEPRINT_SEARCH_MEMBERS, 'a blueprint\'s search body');
    const limit = request.limit ?? DEFAULT_PAGE;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw new HttpError(422, 'invalid_request', `limit must be an integer from 1 to ${MAX_PAGE}`);
    }
    const offset = request.from === undefined ? 0 : decodeCursor(request.from);
    const matched = matching(entitiesOf(blueprint).map((entity) => ({ blueprint, entity })), request.query as Record<string, Json> | undefined);
    const page = matched.slice(offset, offset + limit).map(({ entity }) => included({ ...entity, blueprint }, request.include));
    const result: Record<string, Json> = { entities: page };
    if (offset + limit < matched.length) result.next = encodeCursor(offset + limit);
    if (options.hostile?.loopSearchPages) result.next = loopingNext(offset, limit, encodeCursor);
    return result;
  };

  /**
   * The search across blueprints (docs/live-service.md): the body IS the query, `include`,
   * `exclude` and `allow_partial_results` are query parameters, and the answer is every match at
   * once, with `matchingBlueprints` and `failedBlueprints`: no `limit`, no `next`. A body that
   * wraps the query (`{query: …}`) is refused, as the service's schema refuses it.
   */
  const searchAcross = (parameters: URLSearchParams, body: Json) => {
    const query = asObject(body);
    requireOnly(query, ACROSS_SEARCH_MEMBERS, 'the search across blueprints (its body is the query)');
    if (!Array.isArray(query.rules) || (query.combinator !== 'and' && query.combinator !== 'or')) {
      throw new HttpError(422, 'invalid_request', 'the body must be a query: {combinator, rules}');
    }
    const failed = new Set((options.failedBlueprints ?? []).filter((blueprint) => blueprintIds.has(blueprint)));
    // Without allow_partial_results one blueprint the service cannot search fails the whole request.
    if (failed.size > 0 && parameters.get('allow_partial_results') !== 'true') throw new HttpError(500, 'internal_error', 'a blueprint search failed');
    const searched = [...blueprintIds].filter((blueprint) => !failed.has(blueprint));
    const matched = matching(searched.flatMap((blueprint) => entitiesOf(blueprint).map((entity) => ({ blueprint, entity }))), query);
    const result: Record<string, Json> = {
      matchingBlueprints: [...new Set(matched.map(({ blueprint }) => blueprint))],
      entities: matched.map(({ blueprint, entity }) => ({ ...entity, blueprint })),
    };
    if (failed.size > 0) result.failedBlueprints = [...failed];
    return result;
  };

  const routes: Array<{ method: string; pattern: RegExp; handle: Route }> = [
    { method: 'GET', pattern: /^\/v1\/organization$/, handle: () => ({ organization: snapshot.organization }) },
    { method: 'GET', pattern: /^\/v1\/blueprints$/, handle: () => ({ blueprints: snapshot.blueprints }) },
    {
      method: 'GET',
      pattern: /^\/v1\/blueprints\/([^/]+)\/permissions$/,
      handle: ([id]) => ({ permissions: snapshot.blueprintPermissions?.[requireBlueprint(id)] ?? {} }),
    },
    { method: 'GET', pattern: /^\/v1\/blueprints\/([^/]+)\/entities$/, handle: ([id]) => ({ entities: entitiesOf(requireBlueprint(id)) }) },
    { method: 'GET', pattern: /^\/v1\/blueprints\/([^/]+)\/entities-count$/, handle: ([id]) => ({ count: entitiesOf(requireBlueprint(id)).length }) },
    {
      method: 'POST',
      pattern: /^\/v1\/blueprints\/([^/]+)\/entities\/search$/,
      handle: ([id], _query, body) => searchBlueprint(requireBlueprint(id), body),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/entities\/search$/,
      handle: (_params, query, body) => searchAcross(query, body),
    },
    // docs/live-service.md: the data migrations of the org, filtered by blueprint and status (a logical AND).
    {
      method: 'GET',
      pattern: /^\/v1\/migrations$/,
      handle: (_params, query) => {
        const blueprint = query.get('blueprint');
        const status = query.get('status');
        const all = Object.entries((snapshot.migrations ?? {}) as Record<string, Array<Record<string, Json>>>).flatMap(([id, list]) => list.map((migration): Record<string, Json> => ({ sourceBlueprint: id, ...migration })));
        return { migrations: all.filter((migration) => (blueprint === null || migration.sourceBlueprint === blueprint) && (status === null || migration.status === status)) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/actions$/,
      handle: (_params, query) => {
        requireQuery(query, 'version', 'v2');
        return { actions: snapshot.actions ?? [] };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/actions\/([^/]+)\/permissions$/,
      handle: ([id]) => ({ permissions: snapshot.actionPermissions?.[requireIn(snapshot.actions, id, 'action')] ?? {} }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/pages$/,
      handle: (_params, query) => {
        requireQuery(query, 'compact', 'false');
        return { pages: snapshot.pages ?? [] };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/pages\/([^/]+)\/permissions$/,
      handle: ([id]) => ({ permissions: snapshot.pagePermissions?.[requireIn(snapshot.pages, id, 'page')] ?? {} }),
    },
    { method: 'GET', pattern: /^\/v1\/integration$/, handle: () => ({ integrations: snapshot.integrations ?? [] }) },
    { method: 'GET', pattern: /^\/v1\/webhooks$/, handle: () => ({ integrations: snapshot.webhooks ?? [] }) },
    { method: 'GET', pattern: /^\/v1\/teams$/, handle: (_params, query) => ({ teams: cutToFields(allTeams(), query.getAll('fields')) }) },
    { method: 'GET', pattern: /^\/v1\/scorecards$/, handle: () => ({ scorecards: snapshot.scorecards ?? [] }) },
    // The service's users, as wide as it returns them (`users` option, or the snapshot's), cut to
    // the `fields` asked for unless `ignoreUserFields` plays a service that sends everything.
    { method: 'GET', pattern: /^\/v1\/users$/, handle: (_params, query) => ({ users: cutToFields(allUsers(), query.getAll('fields'), options.ignoreUserFields) }) },
  ];

  const rateLimitHeaders = (response: ServerResponse, overLimit: boolean) => {
    const limit = options.rateLimit;
    if (!limit) return overLimit;
    const windowMs = limit.windowSeconds * 1_000;
    if (limit.rolling) {
      if (now() >= window.endsAt) window = { index: window.index + 1, used: 0, endsAt: now() + windowMs };
    } else {
      const index = Math.floor(now() / windowMs);
      if (index !== window.index) window = { index, used: 0, endsAt: (index + 1) * windowMs };
    }
    window.used++;
    const exceeded = window.used > limit.limit;
    const seconds = Math.ceil((window.endsAt - now()) / 1_000);
    response.setHeader('x-ratelimit-limit', String(limit.limit));
    if (limit.sendRemaining !== false) response.setHeader('x-ratelimit-remaining', String(Math.max(0, limit.limit - window.used)));
    if (limit.sendReset !== false) {
      response.setHeader('x-ratelimit-reset', String(limit.resetAsEpoch ? Math.ceil(window.endsAt / 1_000) : seconds));
    }
    if (exceeded && limit.retryAfter) response.setHeader('retry-after', String(seconds));
    return exceeded;
  };

  const authenticate = (request: IncomingMessage) => {
    const header = request.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (presented === token) return;
    const expiresAt = issued.get(presented);
    if (expiresAt !== undefined && now() < expiresAt) return;
    throw new HttpError(401, 'unauthorized', expiresAt === undefined ? 'missing or unknown bearer token' : 'the access token expired');
  };

  const exchange = (body: Json) => {
    const credentials = (body ?? {}) as Record<string, Json>;
    if (credentials.clientId !== clientId || credentials.clientSecret !== clientSecret) {
      throw new HttpError(401, 'unauthorized', 'invalid client credentials');
    }
    const accessToken = `sandbox-access-${randomBytes(12).toString('hex')}`;
    const lifetime = options.tokenLifetimeSeconds ?? 3_600;
    issued.set(accessToken, now() + lifetime * 1_000);
    return { accessToken, expiresIn: lifetime, tokenType: 'Bearer' };
  };

  const hostileState: HostileState = { timers: new Set() };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<{ status: number; body: Record<string, Json> }> => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    // Numbered on arrival: checked after the latency, `count` would fail every request then in flight at once.
    const nth = ++count;
    const body = await readBody(request);
    if (options.hostile?.echoRequestInErrors) echoed.set(request, echoOf(request, body));
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    if (rateLimitHeaders(response, false)) {
      throw new HttpError(429, 'rate_limited', 'too many requests');
    }
    if ((options.failEvery && nth % options.failEvery === 0) || (failDraw && failDraw() < (options.failRandomly?.rate ?? 0))) {
      throw new HttpError(options.failStatus ?? 503, 'unavailable', 'injected failure');
    }
    const hugeReset = options.hostile?.hugeReset;
    if (hugeReset && hugeReset.path === url.pathname + url.search) {
      response.setHeader('x-ratelimit-reset', String(hugeReset.seconds));
      throw new HttpError(429, 'rate_limited', 'too many requests');
    }
    const fault = faults.find((f) => (f.method ?? method) === method && f.path === url.pathname + url.search && (f.times === undefined || f.used < f.times));
    if (fault) {
      fault.used++;
      throw new HttpError(fault.status, 'injected', `injected HTTP ${fault.status}`);
    }
    if (method === 'POST' && url.pathname === '/v1/auth/access_token') return { status: 200, body: exchange(body) };
    authenticate(request);
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      if (route.method !== method) throw new HttpError(405, 'method_not_allowed', `${method} is not served on ${url.pathname}`);
      const params = match.slice(1).map((p) => decodeURIComponent(p));
      return { status: 200, body: route.handle(params, url.searchParams, body) };
    }
    throw new HttpError(404, 'not_found', `${method} ${url.pathname} is not an endpoint of the sandbox`);
  };

  const echoed = new WeakMap<IncomingMessage, string>();
  let idleTimer: NodeJS.Timeout | undefined;
  const server = createServer((request, response) => {
    touch();
    // The service's own time, as every answer carries it (Node would send the real clock's).
    response.setHeader('date', new Date(now()).toUTCString());
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    if (options.answerAll) {
      const { status, contentType = 'application/json', body = JSON.stringify({ ok: false, error: 'not_found', message: 'not found' }) } = options.answerAll;
      requests.push({ method, path, status });
      request.resume();
      response.writeHead(status, { 'content-type': contentType });
      response.end(body);
      return;
    }
    if (options.hostile && answerWithBodyFault(options.hostile, hostileState, path, response)) {
      requests.push({ method, path, status: 200 });
      request.resume();
      return;
    }
    handle(request, response)
      .catch((error: unknown) => {
        const echo = echoed.get(request);
        if (error instanceof HttpError) return { status: error.status, body: { error: error.code, message: echo ? `${echo}; ${error.message}` : error.message } };
        return { status: 500, body: { error: 'internal', message: error instanceof Error ? error.message : String(error) } };
      })
      .then(({ status, body }) => {
        requests.push({ method, path, status });
        const ok = status >= 200 && status < 300;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok, ...body }));
      });
  });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.on('close', () => resolveClosed());
  const close = async () => {
    if (idleTimer) clearTimeout(idleTimer);
    clearTimeout(lifetimeTimer);
    for (const timer of hostileState.timers) clearInterval(timer);
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const touch = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), options.idleTimeoutMs ?? DEFAULT_IDLE_MS);
    idleTimer.unref();
  };
  const lifetimeTimer = setTimeout(() => void close(), options.maxLifetimeMs ?? DEFAULT_LIFETIME_MS);
  lifetimeTimer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  touch();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    clientId,
    clientSecret,
    requests,
    issuedTokens: () => [...issued.keys()],
    expireTokens: () => {
      for (const key of issued.keys()) issued.set(key, Number.NEGATIVE_INFINITY);
    },
    close,
    closed,
  };
}

async function readBody(request: IncomingMessage): Promise<Json> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', 'request body is over 1 MiB');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the request body is not JSON (${(error as Error).name})`);
  }
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: Json): number {
  const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^offset:(\d+)$/.exec(text);
  if (!match) throw new HttpError(422, 'invalid_request', '"from" is not a cursor this sandbox issued');
  return Number(match[1]);
}

