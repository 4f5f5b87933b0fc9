import { ApiError } from '../errors.js';
import { isObject, type JsonObject } from '../model/json.js';
import { credentialSource, type Credentials } from './connection.js';
import { createConcurrencyController } from './adaptive-concurrency.js';
import { describeNetworkError, oneLine } from './network-error.js';
import { createOwnSecrets } from './own-secrets.js';
import { readRateLimitHeaders, type RateLimitHeaders } from './rate-limit.js';
import { assertReadOnly } from './read-only.js';
import { isPaced, nextStartAfter, type WindowBudget } from './window-pacing.js';
import { DEFAULT_RETRY_POLICY, decideRetry, overlongWaitReason, type AttemptOutcome, type RetryPolicy, type RetryState } from './retry-policy.js';
import type { Transport, TransportResponse } from './transport.js';

/** Credentials missing, rejected or expired beyond repair: the whole run stops (exit 2). */
export class ApiAuthError extends ApiError {
  override name = 'ApiAuthError';
}

/**
 * The API cannot be read at the configured URL at all: nothing listens, the host does not
 * resolve, or what answers is not the catalog API. A configuration error: the run stops (exit 2).
 */
export class ApiUnreachableError extends ApiError {
  override name = 'ApiUnreachableError';
}

/** An answer that is not the service's JSON envelope: a web page, a proxy, another API. */
export class ApiShapeError extends ApiError {
  override name = 'ApiShapeError';
}

/** Whether a failed read says "this URL is not the catalog API" rather than "this resource failed". */
export function isNotTheApi(error: ApiError): boolean {
  return error instanceof ApiShapeError || error.status === 404 || error.status === 405;
}

export type ClientEvent =
  | { type: 'request'; count: number }
  | { type: 'rate-limit-wait'; waitMs: number; reason: '429' | 'budget-spent' }
  | { type: 'retry'; waitMs: number; attempt: number };

export interface ApiClientOptions {
  baseUrl: URL;
  credentials: Credentials;
  transport: Transport;
  /** Milliseconds since the epoch; injected so tests control time. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /**
   * The most requests in flight at once, shared by every call of this client. The client starts
   * at 4 (or this, when lower) and grows towards it while the answers allow.
   */
  concurrency: number;
  policy?: RetryPolicy;
  onEvent?: (event: ClientEvent) => void;
}

export interface ApiStats {
  requests: number;
  /** The most requests that were in flight at once. */
  maxInFlight: number;
  /** Requests that waited for the rate limit (a 429, or a spent budget). */
  rateLimitWaits: number;
  /** Wall time the client was held by the rate limit; concurrent waits count once. */
  rateLimitBlockedMs: number;
  retries: number;
}

export interface SearchQuery {
  combinator: 'and' | 'or';
  rules: JsonObject[];
}

export interface SearchOptions {
  limit: number;
  maxEntities: number;
  include?: string[];
  sample?: boolean;
  /** Each page as it arrives; false stops paging (not a gap: the caller asked to stop). */
  onPage?: (entities: JsonObject[]) => boolean | void;
}

export interface ApiClient {
  /** GET a path and return the payload under `key` of the `{ok: true, <key>: …}` envelope. */
  get(path: string, key: string): Promise<unknown>;
  /**
   * Search a blueprint's entities (every blueprint's when `blueprintId` is undefined), following
   * `next` until the pages end. `limit` is the page size (at most 1000, the service's maximum).
   * More than `maxEntities`, a repeated cursor or too many pages throw: a cut read is a gap,
   * except for a `sample`, which only asks for the first `maxEntities`. With `onPage`, each page
   * goes there as it arrives and nothing is kept.
   */
  searchEntities(blueprintId: string | undefined, query: SearchQuery, options: SearchOptions): Promise<JsonObject[]>;
  stats(): ApiStats;
}

/** contracts.md §1 and the service's search API: `limit` is at most 1000 per page. */
export const MAX_SEARCH_PAGE = 1_000;
/** Ours: refresh an exchanged token this long before it expires, so no request races the expiry. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** Ours: a bound on paging, far above any real org (10 million entities at 1000 per page). */
const MAX_SEARCH_PAGES = 10_000;
/** Ours: a bound on how often one request re-checks the budget as others finish (each pass is an answer). */
const MAX_BUDGET_PASSES = 10_000;

/** What the answers said of the current rate-limit window (§8.1), as the client understands it. */
type Budget = WindowBudget;

interface Token {
  value: string;
  /** Refresh at or after this time (epoch ms); Infinity for a PORT_TOKEN. */
  refreshAt: number;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const concurrency = createConcurrencyController(options.concurrency);
  const emit = (event: ClientEvent) => options.onEvent?.(event);
  const stats: ApiStats = { requests: 0, maxInFlight: 0, rateLimitWaits: 0, rateLimitBlockedMs: 0, retries: 0 };
  /** Shared by every request: nobody sends before this time (a 429 or a spent budget). */
  let blockedUntil = 0;
  let token: Token | undefined =
    options.credentials.kind === 'token' ? { value: options.credentials.token, refreshAt: Number.POSITIVE_INFINITY } : undefined;
  let pendingToken: Promise<Token> | undefined;
  const secrets = createOwnSecrets(
    options.credentials.kind === 'token' ? [options.credentials.token] : [options.credentials.clientSecret],
  );
  /** Set by the first HTTP answer of any status: from then on, network failures are retried as transient. */
  let reached = false;

  const blockUntil = (until: number) => {
    const from = Math.max(blockedUntil, options.now());
    if (until > from) stats.rateLimitBlockedMs += until - from;
    blockedUntil = Math.max(blockedUntil, until);
  };

  /*
   * §8.1 and product.md: slow down before the budget is spent, not after. A request may start
   * only when the remaining budget covers it and every request already in flight (their answers
   * may not be counted in the `remaining` we hold yet); otherwise it waits for those answers
   * (fresher headers) or, when none is in flight, for the reset. So concurrency spends no 429
   * while the service sends the headers.
   */
  let budget: Budget | undefined;
  let inFlight = 0;
  let answered: Array<() => void> = [];
  let sleeping: { until: number; done: Promise<void> } | undefined;

  /*
   * Which window an answer speaks of is known only for requests started after the reset we
   * believe in (each estimate is now + whole seconds rounded up: never before the service's
   * reset). An answer to an earlier request may have been counted in either window, as late as
   * it was answered (a slow answer, or a fake clock moved by others' sleeps): it can only lower
   * what we hold, never open a window. At the believed reset one request goes alone, once every
   * earlier one has landed: its answer is the new window's budget, exact.
   */
  const noteBudget = (headers: RateLimitHeaders, startedAt: number) => {
    if (headers.remaining === undefined) return;
    const now = options.now();
    const resetAt = now + (headers.resetSeconds ?? policy.defaultResetSeconds) * 1_000;
    const next: Budget = { remaining: headers.remaining, resetAt, ...(headers.limit === undefined ? {} : { limit: headers.limit }) };
    if (!budget || startedAt >= budget.resetAt) {
      budget = next; // the first answer, or the probe of a new window
    } else {
      // Answers arrive in any order, and from either side of a reset: the lowest count is the safe
      // one. While it leaves room, the earliest reset is kept (each estimate is late by up to a
      // second; a probe at an early one still fits the budget held). A spent budget keeps the
      // latest reset of the answers that say so: a probe before it would meet a spent window.
      const remaining = Math.min(budget.remaining, headers.remaining);
      const spentAt = budget.remaining === 0 ? Math.max(budget.resetAt, resetAt) : resetAt;
      const until = remaining > 0 ? Math.min(budget.resetAt, resetAt) : headers.remaining > 0 ? budget.resetAt : spentAt;
      budget = { ...next, remaining, resetAt: until };
    }
  };

  /** Whether one more request fits the budget beside those in flight. */
  const budgetAllows = (now: number): boolean => {
    if (!budget) return true;
    if (now >= budget.resetAt) return inFlight === 0; // the probe of the new window
    return budget.remaining - inFlight > 0;
  };

  /** One sleep for everyone waiting for the same instant (a fake clock would otherwise move once per waiter). */
  const sleepUntil = async (until: number) => {
    if (sleeping && sleeping.until >= until) return sleeping.done;
    const done = options.sleep(until - options.now());
    sleeping = { until, done };
    try {
      await done;
    } finally {
      if (sleeping?.done === done) sleeping = undefined;
    }
  };

  /*
   * Concurrency slots, granted in arrival order up to what the controller allows now. A request
   * holds one from its start to its answer only: a retry waits out its backoff without it.
   */
  let slotsTaken = 0;
  const slotQueue: Array<() => void> = [];
  let slotQueueHead = 0;
  /*
   * Retries wait ahead of first attempts: a retry queued behind hundreds of first attempts ran
   * only once they were done, so each 5xx cost its backoff after the rest of the run
   * (issue 17; measured in bench:fetch 1x with 5 % 503s).
   */
  const retryQueue: Array<() => void> = [];
  const grantSlots = () => {
    while (retryQueue.length > 0 && slotsTaken < concurrency.current()) {
      slotsTaken++;
      (retryQueue.shift() as () => void)();
    }
    while (slotQueueHead < slotQueue.length && slotsTaken < concurrency.current()) {
      slotsTaken++;
      const grant = slotQueue[slotQueueHead] as () => void;
      slotQueue[slotQueueHead++] = () => {}; // let the resolver go
      grant();
    }
    if (slotQueueHead === slotQueue.length) {
      slotQueue.length = 0;
      slotQueueHead = 0;
    }
  };
  const takeSlot = async (retry: boolean) => {
    if (retryQueue.length === 0 && (retry || slotQueueHead === slotQueue.length) && slotsTaken < concurrency.current()) {
      slotsTaken++;
      return;
    }
    await new Promise<void>((resolve) => (retry ? retryQueue : slotQueue).push(resolve));
  };
  const freeSlot = () => {
    slotsTaken--;
    grantSlots();
  };

  /** Earliest start of the next request while paced (window-pacing.ts); set at each start. */
  let nextPaceAt = 0;
  const paceAt = (now: number): number =>
    budget && nextPaceAt < budget.resetAt && isPaced(budget, inFlight, now, policy.maxRateLimitWaitMs) ? Math.max(now, nextPaceAt) : now;

  const waitForBudget = async (what: string) => {
    let sleeps = 0;
    for (let pass = 0; pass < MAX_BUDGET_PASSES && sleeps <= policy.maxRateLimitRetries; pass++) {
      const now = options.now();
      let until = blockedUntil; // after a 429, nobody sends before the reset
      if (until <= now) {
        if (budgetAllows(now)) {
          const at = paceAt(now);
          if (at <= now) {
            // Counted in the same tick as the check: a waiter woken beside it must see it.
            inFlight++;
            stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
            nextPaceAt = nextStartAfter(budget, inFlight, now);
            return;
          }
          // Every waiter sleeps to the same instant; the first to wake starts and moves it on.
          await sleepUntil(at);
          continue;
        }
        if (inFlight > 0) {
          await new Promise<void>((resolve) => answered.push(resolve));
          continue;
        }
        until = budget?.resetAt ?? now;
        if (until - now > policy.maxRateLimitWaitMs) throw new ApiError(`${what}: ${overlongWaitReason(policy, until - now, 'the rate-limit budget is spent')}`);
        blockUntil(until);
      }
      sleeps++;
      stats.rateLimitWaits++;
      emit({ type: 'rate-limit-wait', waitMs: until - now, reason: 'budget-spent' });
      await sleepUntil(until);
    }
  };

  /** An answer (or a failure) is in, or a start is called off: the request leaves the flight. */
  const land = () => {
    inFlight--;
    const waiting = answered;
    answered = [];
    for (const resolve of waiting) resolve();
  };

  /**
   * Wait for a concurrency slot (kept until the answer, also through a token refresh, so the
   * request keeps its place) and for the budget, then count the request in flight. The bearer is
   * checked after the budget wait, which may outlast the token. The token exchange itself takes
   * no slot: it may be awaited by every slot holder at once.
   */
  const acquireWithToken = async (auth: boolean, what: string, retry: boolean): Promise<string | undefined> => {
    if (!auth) {
      await waitForBudget(what);
      return undefined;
    }
    await takeSlot(retry);
    try {
      for (let pass = 0; pass < 3; pass++) {
        await currentToken();
        await waitForBudget(what);
        if (token && options.now() < token.refreshAt) return token.value;
        land(); // never await an exchange while counted in flight: it may wait for this answer
      }
      // Bounded: go with the token as it is (a 401 then re-authenticates once).
      const value = (await currentToken()).value;
      await waitForBudget(what);
      return value;
    } catch (error) {
      freeSlot();
      throw error;
    }
  };


  /** One logical request: rate-limit waits, retries and one re-authentication, all bounded. */
  const send = async (method: 'GET' | 'POST', path: string, body: unknown, auth: boolean): Promise<TransportResponse> => {
    const url = new URL(path, options.baseUrl);
    assertReadOnly(method, url, options.baseUrl);
    const state: RetryState = { transientRetries: 0, rateLimitRetries: 0 };
    let reauthenticated = false;
    // Bounded by the two retry budgets plus one re-authentication.
    const maxAttempts = policy.maxRetries + policy.maxRateLimitRetries + 2;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const bearer = await acquireWithToken(auth, `${method} ${url.pathname}`, attempt > 0);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
      stats.requests++;
      emit({ type: 'request', count: stats.requests });

      let outcome: AttemptOutcome;
      let response: TransportResponse | undefined;
      const startedAt = options.now();
      try {
        const request = { method, url: url.href, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
        response = await options.transport(request);
        reached = true;
        const rateLimit = readRateLimitHeaders(response.headers);
        noteBudget(rateLimit, startedAt);
        outcome = { kind: 'response', status: response.status, ...(rateLimit.resetSeconds === undefined ? {} : { resetSeconds: rateLimit.resetSeconds }) };
      } catch (error) {
        const failure = describeNetworkError(error);
        // Before any answer, a refused connection or an unknown host means a wrong URL: no retries.
        if (!reached && failure.permanent) throw new ApiUnreachableError(`${method} ${url.pathname}: ${failure.message}`, undefined, { cause: error });
        outcome = { kind: 'network', message: failure.message };
      } finally {
        concurrency.onAnswer(options.now() - startedAt, response?.status);
        land();
        if (auth) freeSlot();
      }

      if (response?.status === 401 && auth && options.credentials.kind === 'client' && !reauthenticated) {
        // The exchanged token expired early or was revoked: exchange once more, then retry.
        reauthenticated = true;
        token = undefined;
        continue;
      }
      const decision = decideRetry(policy, outcome, state);
      if (decision.action === 'accept' && response) return response;
      if (decision.action === 'give-up') {
        throw new ApiError(`${method} ${url.pathname}: ${decision.reason}`, response?.status);
      }
      if (decision.action === 'retry') {
        stats.retries++;
        if (decision.reason === 'rate-limit') {
          state.rateLimitRetries++;
          blockUntil(options.now() + decision.waitMs);
          stats.rateLimitWaits++;
          emit({ type: 'rate-limit-wait', waitMs: decision.waitMs, reason: '429' });
          await options.sleep(decision.waitMs);
        } else {
          state.transientRetries++;
          emit({ type: 'retry', waitMs: decision.waitMs, attempt: state.transientRetries });
          await options.sleep(decision.waitMs);
        }
      }
    }
    throw new ApiError(`${method} ${url.pathname}: gave up after ${maxAttempts} attempts`);
  };

  const exchangeToken = async (credentials: Extract<Credentials, { kind: 'client' }>): Promise<Token> => {
    const requestedAt = options.now();
    // Without a token nothing can be read: every failure of the exchange stops the run.
    let response: TransportResponse;
    try {
      response = await send('POST', '/v1/auth/access_token', { clientId: credentials.clientId, clientSecret: credentials.clientSecret }, false);
    } catch (error) {
      if (error instanceof ApiError && !(error instanceof ApiUnreachableError)) throw new ApiUnreachableError(error.message, error.status, { cause: error });
      throw error;
    }
    if (response.status === 401 || response.status === 403) {
      throw new ApiAuthError(`the service rejected ${credentialSource(credentials)} (HTTP ${response.status})`, response.status);
    }
    let payload: JsonObject;
    try {
      payload = parseEnvelope(response, 'POST /v1/auth/access_token', secrets.redact);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiUnreachableError(isNotTheApi(error) ? `${error.message}: not the catalog API` : error.message, error.status, { cause: error });
    }
    const accessToken = payload.accessToken;
    const expiresIn = payload.expiresIn;
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new ApiAuthError('the token exchange answered without an access token');
    }
    secrets.add(accessToken);
    const lifetimeMs = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn * 1_000 : Number.POSITIVE_INFINITY;
    const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2);
    return { value: accessToken, refreshAt: requestedAt + lifetimeMs - margin };
  };

  const currentToken = async (): Promise<Token> => {
    if (token && options.now() < token.refreshAt) return token;
    const credentials = options.credentials;
    if (credentials.kind === 'token') {
      if (!token) throw new ApiAuthError('the service rejected PORT_TOKEN (HTTP 401): generate a new token');
      return token;
    }
    // Single flight: concurrent requests share one exchange.
    pendingToken ??= exchangeToken(credentials).finally(() => {
      pendingToken = undefined;
    });
    token = await pendingToken;
    return token;
  };

  // Concurrency is held per attempt inside `send`, so a retry's backoff holds no slot.
  const call = async (method: 'GET' | 'POST', path: string, body: unknown): Promise<JsonObject> => {
    const response = await send(method, path, body, true);
    if (response.status === 401) {
      const which = options.credentials.kind === 'token' ? 'PORT_TOKEN' : 'the exchanged access token';
      throw new ApiAuthError(`the service rejected ${which} (HTTP 401)`, 401);
    }
    return parseEnvelope(response, `${method} ${new URL(path, options.baseUrl).pathname}`, secrets.redact);
  };

  return {
    async get(path, key) {
      const payload = await call('GET', path, undefined);
      if (!(key in payload)) throw new ApiShapeError(`GET ${path}: the response has no "${key}"`);
      return payload[key];
    },
    async searchEntities(blueprintId, query, { limit, maxEntities, include, sample, onPage }) {
      const pageSize = Math.min(limit, MAX_SEARCH_PAGE, maxEntities);
      const path = blueprintId === undefined ? '/v1/entities/search' : `/v1/blueprints/${encodeURIComponent(blueprintId)}/entities/search`;
      // With onPage the caller keeps what it needs of each page: memory stays flat in org size.
      const entities: JsonObject[] = [];
      let read = 0;
      const cursors = new Set<string>();
      let from: string | undefined;
      for (let page = 0; page < MAX_SEARCH_PAGES; page++) {
        const body: JsonObject = { query: { ...query }, limit: pageSize };
        if (include) body.include = include;
        if (from !== undefined) body.from = from;
        const payload = await call('POST', path, body);
        if (!Array.isArray(payload.entities)) throw new ApiError(`POST ${path}: the response has no "entities" array`);
        const found = payload.entities.filter(isObject).slice(0, maxEntities - read);
        read += found.length;
        // onPage answering false ends the search there: the caller has what it needs.
        if (onPage) {
          if (onPage(found) === false) return entities;
        } else entities.push(...found);
        const next = payload.next;
        if (typeof next !== 'string' || next === '') return entities;
        if (read >= maxEntities) {
          // A sample asks whether any exists; a cap on a full read is a gap the report must name.
          if (sample) return entities;
          throw new ApiError(`POST ${path}: more than ${maxEntities} entities match; the read is cut there`);
        }
        if (cursors.has(next)) throw new ApiError(`POST ${path}: the search's next repeats a cursor after ${page + 1} page(s); the read is cut there`);
        cursors.add(next);
        from = next;
      }
      throw new ApiError(`POST ${path}: still more pages after ${MAX_SEARCH_PAGES}; the read is cut there`);
    },
    stats: () => ({ ...stats }),
  };
}

/** Unwrap `{ok: true, …}`; an error envelope or a non-2xx status becomes an ApiError with the status. */
function parseEnvelope(response: TransportResponse, what: string, redact: (text: string) => string): JsonObject {
  let document: unknown;
  try {
    document = JSON.parse(response.text);
  } catch (error) {
    throw new ApiShapeError(`${what}: HTTP ${response.status} with a body that is not JSON`, response.status, { cause: error });
  }
  const success = response.status >= 200 && response.status <= 299;
  if (success && !(isObject(document) && document.ok === true)) {
    throw new ApiShapeError(`${what}: HTTP ${response.status} without the service's {"ok": true} envelope`, response.status);
  }
  if (!success || !isObject(document)) {
    // Redacted before it is cut: a cut could split a secret and let its head through.
    const message = isObject(document) && typeof document.message === 'string' ? `: ${oneLine(redact(document.message).slice(0, 200))}` : '';
    throw new ApiError(`${what}: HTTP ${response.status}${message}`, response.status);
  }
  return document;
}
