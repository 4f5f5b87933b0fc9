import { ApiError } from '../errors.js';
import { isObject, type JsonObject } from '../model/json.js';
import { credentialSource, type Credentials } from './connection.js';
import { createConcurrencyController } from './adaptive-concurrency.js';
import { describeNetworkError, oneLine } from './network-error.js';
import { learningRedactor } from '../secrets/credentials.js';
import { rateLimitedForSeconds, readRateLimitHeaders, requestClassOf, type RateLimitHeaders, type RequestClass } from './rate-limit.js';
import { assertReadOnly } from './read-only.js';
import { isPaced, nextStartAfter, type WindowBudget } from './window-pacing.js';
import { DEFAULT_RETRY_POLICY, decideRetry, overlongWaitReason, overTotalWaitReason, type AttemptOutcome, type RetryPolicy, type RetryState } from './retry-policy.js';
import { NotJsonAnswerError, type Transport, type TransportResponse } from './transport.js';

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
  /** A request gave up instead of waiting past a cap; `reason` names the cap. */
  | { type: 'rate-limit-cap'; reason: string }
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
   * at `startConcurrency` (this, by default), and after a cut grows back while the answers allow.
   */
  concurrency: number;
  /** Requests in flight before any answer is in (adaptive-concurrency.ts); the bench measures others. */
  startConcurrency?: number;
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
  /** What the service sent that the spec does not describe (issue 25), for the snapshot's record. */
  seen: LiveServiceSightings;
}

interface LiveServiceSightings {
  /** `x-ratelimit-reset` answers read as seconds, and as a UTC epoch (a value over 10,000). */
  resetSeconds: number;
  resetEpoch: number;
  /** 429 answers that carried `Retry-After`. */
  retryAfter: number;
  /** Requests that gave up at a rate-limit cap rather than wait. */
  capped: number;
}

export interface SearchQuery {
  combinator: 'and' | 'or';
  rules: JsonObject[];
}

interface SearchOptions {
  limit: number;
  maxEntities: number;
  include?: string[];
  sample?: boolean;
  /** Each page as it arrives. */
  onPage?: (entities: JsonObject[]) => void;
}

export interface ApiClient {
  /** GET a path and return the payload under `key` of the `{ok: true, <key>: …}` envelope. */
  get(path: string, key: string): Promise<unknown>;
  /**
   * Search a blueprint's entities, following `next` until the pages end. `limit` is the page size
   * (at most 1000, the service's maximum). Not the search across blueprints: it has no paging nor
   * page size, so its one answer holds every match (docs/live-service.md). More than `maxEntities`, a repeated cursor or too many pages throw: a cut read is a gap,
   * except for a `sample`, which only asks for the first `maxEntities`. With `onPage`, each page
   * goes there as it arrives and nothing is kept.
   */
  searchEntities(blueprintId: string, query: SearchQuery, options: SearchOptions): Promise<JsonObject[]>;
  stats(): ApiStats;
}

/** docs/formats.md, the org snapshot and the service's search API: `limit` is at most 1000 per page. */
export const MAX_SEARCH_PAGE = 1_000;
/** Ours: refresh an exchanged token this long before it expires, so no request races the expiry. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** Ours: a bound on paging, far above any real org (10 million entities at 1000 per page). */
const MAX_SEARCH_PAGES = 10_000;
/** Ours: a bound on how often one request re-checks the budget as others finish (each pass is an answer). */
const MAX_BUDGET_PASSES = 10_000;

/** A sleep shared by everyone waiting for the same instant. */
interface SharedSleep {
  sleeping?: { until: number; done: Promise<void> };
}

/** The budget the answers' headers tell, with the requests in flight against it and their waiters. */
interface BudgetState extends SharedSleep {
  /** What the answers said of the current rate-limit window (docs/live-service.md, Rate limits), as the client understands it. */
  budget?: WindowBudget;
  inFlight: number;
  /** Waiters for the next answer (fresher headers). */
  answered: Array<() => void>;
  /** Earliest start of the next request while paced (window-pacing.ts); set at each start. */
  nextPaceAt: number;
}

/** What a 429 of one request class (rate-limit.ts) holds: nobody of the class sends before the reset. */
interface ClassBlock extends SharedSleep {
  blockedUntil: number;
}

interface Token {
  value: string;
  /** Refresh at or after this time (epoch ms); Infinity for a PORT_TOKEN. */
  refreshAt: number;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const concurrency = createConcurrencyController(options.concurrency, options.startConcurrency);
  const emit = (event: ClientEvent) => options.onEvent?.(event);
  const stats: ApiStats = { requests: 0, maxInFlight: 0, rateLimitWaits: 0, rateLimitBlockedMs: 0, retries: 0, seen: { resetSeconds: 0, resetEpoch: 0, retryAfter: 0, capped: 0 } };
  /** For stats only: the latest time any class is held until (concurrent waits count once). */
  let heldUntil = 0;
  let token: Token | undefined =
    options.credentials.kind === 'token' ? { value: options.credentials.token, refreshAt: Number.POSITIVE_INFINITY } : undefined;
  let pendingToken: Promise<Token> | undefined;
  let exchangeFailure: Error | undefined;
  // The run's own credentials (PORT_TOKEN, the client secret, every exchanged token), cut from any
  // text the server sends back, at the source: gateways that echo the request would otherwise put
  // the bearer token into `incomplete[].reason`. The exchanged tokens exist only here, so the final
  // pass over the report (secrets/credentials.ts) cannot know them.
  const secrets = learningRedactor(options.credentials.kind === 'token' ? [options.credentials.token] : [options.credentials.clientSecret]);
  /** Set by the first HTTP answer of any status: from then on, network failures are retried as transient. */
  let reached = false;

  /*
   * Issue 23 item 7 and the service's rate limits: the limits are organised in categories, so a 429 holds only its own
   * request class (rate-limit.ts): one on the entity API holds no permission read. The budget the
   * 2xx answers tell stays one for all: whether categories share it is not documented, and the
   * lowest count seen is safe either way.
   */
  const classes = new Map<RequestClass, ClassBlock>();
  const classOf = (name: RequestClass): ClassBlock => {
    let block = classes.get(name);
    if (!block) classes.set(name, (block = { blockedUntil: 0 }));
    return block;
  };
  const pool: BudgetState = { inFlight: 0, answered: [], nextPaceAt: 0 };

  const capped = (message: string, status?: number) => {
    stats.seen.capped++;
    emit({ type: 'rate-limit-cap', reason: message });
    return new ApiError(message, status);
  };

  /**
   * Book a rate-limit wait until `until`: checked against the cap on all waits together (beyond it
   * the request gives up: its resource is a gap), counted once however many wait beside it, and
   * announced; a 429 also blocks its class.
   */
  const holdUntil = (what: string, until: number, event: { waitMs: number; reason: '429' | 'budget-spent' }, cls?: ClassBlock) => {
    const from = Math.max(heldUntil, options.now());
    const waitMs = until - from;
    if (waitMs > 0) {
      // rateLimitBlockedMs already counts the waits booked up to heldUntil.
      if (stats.rateLimitBlockedMs + waitMs > policy.maxTotalRateLimitWaitMs) throw capped(`${what}: ${overTotalWaitReason(policy, stats.rateLimitBlockedMs, waitMs)}`);
      stats.rateLimitBlockedMs += waitMs;
    }
    stats.rateLimitWaits++;
    emit({ type: 'rate-limit-wait', ...event });
    heldUntil = Math.max(heldUntil, until);
    if (cls) cls.blockedUntil = Math.max(cls.blockedUntil, until);
  };

  /*
   * The service's rate limits (docs/live-service.md): slow down before the budget is spent, not after. A request may start
   * only when the remaining budget covers it and every request already in flight (their answers
   * may not be counted in the `remaining` we hold yet); otherwise it waits for those answers
   * (fresher headers) or, when none is in flight, for the reset. So concurrency spends no 429
   * while the service sends the headers.
   */

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
    const budget = pool.budget;
    const now = options.now();
    const resetAt = now + (headers.resetSeconds ?? policy.defaultResetSeconds) * 1_000;
    const next: WindowBudget = { remaining: headers.remaining, resetAt, ...(headers.limit === undefined ? {} : { limit: headers.limit }) };
    if (!budget || startedAt >= budget.resetAt) {
      pool.budget = next; // the first answer, or the first of a new window
    } else {
      // Answers arrive in any order, and from either side of a reset: the lowest count is the safe
      // one. While it leaves room, the earliest reset is kept (each estimate is late by up to a
      // second; a probe at an early one still fits the budget held). A spent budget keeps the
      // latest reset of the answers that say so: a probe before it would meet a spent window.
      const remaining = Math.min(budget.remaining, headers.remaining);
      const spentAt = budget.remaining === 0 ? Math.max(budget.resetAt, resetAt) : resetAt;
      const until = remaining > 0 ? Math.min(budget.resetAt, resetAt) : headers.remaining > 0 ? budget.resetAt : spentAt;
      pool.budget = { ...next, remaining, resetAt: until };
    }
  };

  /**
   * Whether one more request fits the budget beside those in flight. Past the reset the window is
   * restored, and every waiting request may use it at once, up to its limit (concurrency bounds
   * the rest): a lone probe per window serialised a 429 storm, one retry per reset across all
   * waiting requests (issue 23 item 7: 4 resources with a 5 s reset took 171 s).
   */
  const budgetAllows = (now: number): boolean => {
    const budget = pool.budget;
    if (!budget) return true;
    if (now >= budget.resetAt) return budget.limit === undefined || pool.inFlight < budget.limit;
    return budget.remaining - pool.inFlight > 0;
  };

  /** One sleep for everyone waiting for the same instant (a fake clock would otherwise move once per waiter). */
  const sleepUntil = async (cls: SharedSleep, until: number) => {
    const sleeping = cls.sleeping;
    if (sleeping && sleeping.until >= until) return sleeping.done;
    const done = options.sleep(until - options.now());
    cls.sleeping = { until, done };
    try {
      await done;
    } finally {
      if (cls.sleeping?.done === done) delete cls.sleeping;
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
   * (issue 17; measured in bench:fetch 1x with 5 % 503s). A search's next page waits here too.
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
  const takeSlot = async (ahead: boolean) => {
    if (retryQueue.length === 0 && (ahead || slotQueueHead === slotQueue.length) && slotsTaken < concurrency.current()) {
      slotsTaken++;
      return;
    }
    await new Promise<void>((resolve) => (ahead ? retryQueue : slotQueue).push(resolve));
  };
  const freeSlot = () => {
    slotsTaken--;
    grantSlots();
  };

  /** Earliest start of the next request of a class while paced (window-pacing.ts); set at each start. */
  const paceAt = (now: number): number =>
    pool.budget && pool.nextPaceAt < pool.budget.resetAt && isPaced(pool.budget, pool.inFlight, now, policy.maxRateLimitWaitMs) ? Math.max(now, pool.nextPaceAt) : now;

  const waitForBudget = async (cls: ClassBlock, what: string) => {
    let sleeps = 0;
    for (let pass = 0; pass < MAX_BUDGET_PASSES && sleeps <= policy.maxRateLimitRetries; pass++) {
      const now = options.now();
      let until = cls.blockedUntil; // after a 429, nobody of the class sends before the reset
      if (until <= now) {
        if (budgetAllows(now)) {
          const at = paceAt(now);
          if (at <= now) {
            // Counted in the same tick as the check: a waiter woken beside it must see it.
            pool.inFlight++;
            stats.maxInFlight = Math.max(stats.maxInFlight, pool.inFlight);
            pool.nextPaceAt = nextStartAfter(pool.budget, pool.inFlight, now);
            return;
          }
          // Every waiter sleeps to the same instant; the first to wake starts and moves it on.
          await sleepUntil(pool, at);
          continue;
        }
        if (pool.inFlight > 0) {
          await new Promise<void>((resolve) => pool.answered.push(resolve));
          continue;
        }
        until = pool.budget?.resetAt ?? now;
        if (until - now > policy.maxRateLimitWaitMs) throw capped(`${what}: ${overlongWaitReason(policy, until - now, 'the rate-limit budget is spent')}`);
        holdUntil(what, until, { waitMs: until - now, reason: 'budget-spent' });
        sleeps++;
        await sleepUntil(pool, until);
        continue;
      }
      // After a 429 of the class: wait with the others of the class for its reset.
      sleeps++;
      await sleepUntil(cls, until);
    }
  };

  /** An answer (or a failure) is in, or a start is called off: the request leaves the flight. */
  const land = () => {
    pool.inFlight--;
    const waiting = pool.answered;
    pool.answered = [];
    for (const resolve of waiting) resolve();
  };

  /**
   * Wait for a concurrency slot (kept until the answer, also through a token refresh, so the
   * request keeps its place) and for the budget, then count the request in flight. The bearer is
   * checked after the budget wait, which may outlast the token. The token exchange itself takes
   * no slot: it may be awaited by every slot holder at once.
   */
  const acquireWithToken = async (cls: ClassBlock, auth: boolean, what: string, ahead: boolean, slotHeld = false): Promise<string | undefined> => {
    if (!auth) {
      await waitForBudget(cls, what);
      return undefined;
    }
    if (!slotHeld) await takeSlot(ahead);
    try {
      for (let pass = 0; pass < 3; pass++) {
        await currentToken();
        await waitForBudget(cls, what);
        if (token && options.now() < token.refreshAt) return token.value;
        land(); // never await an exchange while counted in flight: it may wait for this answer
      }
      // Bounded: go with the token as it is (a 401 then re-authenticates once).
      const value = (await currentToken()).value;
      await waitForBudget(cls, what);
      return value;
    } catch (error) {
      freeSlot();
      throw error;
    }
  };

  /**
   * One logical request: rate-limit waits, retries and one re-authentication, all bounded.
   * `underWay`: the request continues a read already under way (a search's next page), so it waits
   * for a slot with the retries, ahead of reads not yet started: a chain of pages queued behind
   * thousands of permission reads ran one page at a time after them, at the end of the run (issue 33).
   */
  const send = async (method: 'GET' | 'POST', path: string, body: unknown, auth: boolean, underWay = false): Promise<TransportResponse> => {
    // The first slot is waited for before anything else: when a list lands, thousands of reads are
    // queued at once, and each one's URL and checks, made then, held the answers already in for a
    // tenth of a second or more (issue 33). The request still passes every check before it leaves.
    if (auth) await takeSlot(underWay);
    let url: URL;
    try {
      url = new URL(path, options.baseUrl);
      assertReadOnly(method, url, options.baseUrl);
    } catch (error) {
      if (auth) freeSlot();
      throw error;
    }
    const cls = classOf(requestClassOf(url.pathname));
    const what = `${method} ${url.pathname}`;
    const state: RetryState = { transientRetries: 0, rateLimitRetries: 0 };
    let reauthenticated = false;
    // Bounded by the two retry budgets plus one re-authentication.
    const maxAttempts = policy.maxRetries + policy.maxRateLimitRetries + 2;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const bearer = await acquireWithToken(cls, auth, what, underWay || attempt > 0, auth && attempt === 0);
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
        const rateLimit = readRateLimitHeaders(response.headers, options.now());
        noteSightings(rateLimit, response.status);
        // A 429's own headers speak of the spent class: they block it (below), not the shared budget.
        if (response.status !== 429) noteBudget(rateLimit, startedAt);
        const waitSeconds = response.status === 429 ? rateLimitedForSeconds(rateLimit) : undefined;
        outcome = { kind: 'response', status: response.status, ...(waitSeconds === undefined ? {} : { resetSeconds: waitSeconds }) };
      } catch (error) {
        const failure = describeNetworkError(error);
        // Before any answer, a refused connection or an unknown host means a wrong URL: no retries.
        // An answer a retry would get again ends this read now, in words (the organization's read
        // turns it into the run's one line). No JSON at all is the answer of something that is
        // not the API: its shape error says so.
        if (failure.repeats) throw new (error instanceof NotJsonAnswerError ? ApiShapeError : ApiError)(`${what}: ${failure.message}`, undefined, { cause: error });
        if (!reached && failure.permanent) throw new ApiUnreachableError(`${what}: ${failure.message}`, undefined, { cause: error });
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
        const message = `${what}: ${decision.reason}`;
        if (decision.capped) throw capped(message, response?.status);
        throw new ApiError(message, response?.status);
      }
      if (decision.action === 'retry') {
        stats.retries++;
        if (decision.reason === 'rate-limit') {
          state.rateLimitRetries++;
          const until = options.now() + decision.waitMs;
          holdUntil(what, until, { waitMs: decision.waitMs, reason: '429' }, cls);
          // Shared with every request of the class waiting for the same reset; all go together after it.
          await sleepUntil(cls, until);
        } else {
          state.transientRetries++;
          emit({ type: 'retry', waitMs: decision.waitMs, attempt: state.transientRetries });
          await options.sleep(decision.waitMs);
        }
      }
    }
    throw new ApiError(`${what}: gave up after ${maxAttempts} attempts`);
  };

  const noteSightings = (headers: RateLimitHeaders, status: number) => {
    if (headers.resetForm === 'epoch') stats.seen.resetEpoch++;
    else if (headers.resetForm === 'seconds') stats.seen.resetSeconds++;
    if (status === 429 && headers.retryAfterSeconds !== undefined) stats.seen.retryAfter++;
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
      payload = parseEnvelope(response, 'POST /v1/auth/access_token', secrets.clean);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiUnreachableError(isNotTheApi(error) ? `${error.message}: not the catalog API` : error.message, error.status, { cause: error });
    }
    const accessToken = payload.accessToken;
    const expiresIn = payload.expiresIn;
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new ApiAuthError('the token exchange answered without an access token');
    }
    secrets.learn([accessToken]);
    const lifetimeMs = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn * 1_000 : Number.POSITIVE_INFINITY;
    const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2);
    return { value: accessToken, refreshAt: requestedAt + lifetimeMs - margin };
  };

  const currentToken = async (): Promise<Token> => {
    if (token && options.now() < token.refreshAt) return token;
    const credentials = options.credentials;
    if (credentials.kind === 'token') {
      if (!token) throw new ApiAuthError(`the service rejected ${credentialSource(credentials)} (HTTP 401): generate a new token`);
      return token;
    }
    // A failed exchange stops the run (the credentials or the URL are wrong): the requests still
    // queued for a slot meet the same failure instead of each sending an exchange of its own.
    if (exchangeFailure) throw exchangeFailure;
    // Single flight: concurrent requests share one exchange.
    pendingToken ??= exchangeToken(credentials)
      .catch((error: unknown) => {
        exchangeFailure = error instanceof Error ? error : new Error(String(error));
        throw error;
      })
      .finally(() => {
        pendingToken = undefined;
      });
    token = await pendingToken;
    return token;
  };

  // Concurrency is held per attempt inside `send`, so a retry's backoff holds no slot.
  const call = async (method: 'GET' | 'POST', path: string, body: unknown, underWay = false): Promise<JsonObject> => {
    const response = await send(method, path, body, true, underWay);
    if (response.status === 401) {
      const which = options.credentials.kind === 'token' ? credentialSource(options.credentials) : 'the exchanged access token';
      throw new ApiAuthError(`the service rejected ${which} (HTTP 401)`, 401);
    }
    return parseEnvelope(response, `${method} ${new URL(path, options.baseUrl).pathname}`, secrets.clean);
  };

  return {
    async get(path, key) {
      const payload = await call('GET', path, undefined);
      if (!(key in payload)) throw new ApiShapeError(`GET ${path}: the response has no "${key}"`);
      return payload[key];
    },
    async searchEntities(blueprintId, query, { limit, maxEntities, include, sample, onPage }) {
      const pageSize = Math.min(limit, MAX_SEARCH_PAGE, maxEntities);
      const path = `/v1/blueprints/${encodeURIComponent(blueprintId)}/entities/search`;
      // With onPage the caller keeps what it needs of each page: memory stays flat in org size.
      const entities: JsonObject[] = [];
      let read = 0;
      const cursors = new Set<string>();
      let from: string | undefined;
      for (let page = 0; page < MAX_SEARCH_PAGES; page++) {
        const body: JsonObject = { query: { ...query }, limit: pageSize };
        if (include) body.include = include;
        if (from !== undefined) body.from = from;
        // A next page continues a read under way: it goes ahead of reads not yet started.
        const payload = await call('POST', path, body, from !== undefined);
        const found = entitiesOf(payload, path).slice(0, maxEntities - read);
        read += found.length;
        const next = payload.next;
        if (onPage) onPage(found);
        else entities.push(...found);
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
    stats: () => ({ ...stats, seen: { ...stats.seen } }),
  };
}

/** A search answer's `entities`, objects only; an answer without the array is not a search's. */
function entitiesOf(payload: JsonObject, path: string): JsonObject[] {
  if (!Array.isArray(payload.entities)) throw new ApiError(`POST ${path}: the response has no "entities" array`);
  return payload.entities.filter(isObject);
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
