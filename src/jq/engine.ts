/**
 * jq itself, through jq-wasm. This is the only module that loads jq-wasm: the version is pinned
 * to 3.0.0-jq-1.8.2 because the `latest` tag (1.0.1) aborts after about 300 evaluations in one
 * process.
 *
 * The expressions are the org's own, so any of them may loop forever (`last(range(1e9))`) or
 * crash the wasm runtime (`def f: [f]; f` aborts it). jq therefore runs in worker threads that
 * each own a jq-wasm instance (src/jq/jq-worker.ts); the main thread posts a request, blocks on a
 * shared flag with a time limit (`Atomics.wait`) and reads the reply synchronously
 * (`receiveMessageOnPort`), so rules stay plain synchronous functions. A request that times out or
 * crashes becomes a result saying so, and its worker is replaced by a fresh one before the next
 * request. The workers print nothing (jq-wasm would print `Aborted()`) and never keep the process
 * alive. There is one worker per core (src/jq/worker-pool.ts): lone calls use the first, and the
 * work known ahead (`prefetch`, `evaluateEach`) is spread over all of them.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { JsonValue } from '../model/json.js';
import { chunks } from '../chunks.js';
import { batchable, batchStdin, evaluationProgram, parseBatchOutput, validationProgram, type BatchInput } from './batch.js';
import type { Answer } from './jq-worker.js';
import { JqBudget, type JqBudgetOptions } from './budget.js';
import { JqPool, jqPoolSize, type PoolJob } from './worker-pool.js';

/**
 * Why jq gave no answer: it ran past the time limit, or the wasm runtime (or the worker) died.
 * Neither says anything about the expression's meaning, only that it must be checked by hand.
 */
export type EvaluationFailure = 'timeout' | 'crash';

export type CompileResult = { ok: true } | { ok: false; error: string; failure?: EvaluationFailure };
/** `failure` is set when jq did not answer; otherwise `error` is jq's own (runtime) error. */
export type EvaluateResult = { ok: true; values: JsonValue[] } | { ok: false; error: string; failure?: EvaluationFailure };

export interface JqEngine {
  /** Does jq compile the expression? Cached per expression string: big orgs repeat them. */
  validate(expression: string): CompileResult;
  /** Run the expression on one input; every output value, jq's own error message, or a failure. */
  evaluate(input: JsonValue, expression: string): EvaluateResult;
  /** Stop the worker. Optional: it never keeps the process alive, this only frees it sooner. */
  close?(): Promise<void>;
  /**
   * Answer validations and evaluations that will be asked for, in a few large requests (src/jq/batch.ts).
   * Only what a batch answers for certain is kept, in the caches `validate` and `evaluate` read;
   * everything else they answer themselves, as without it. Optional: an engine may do nothing.
   */
  prefetch?(work: JqWork): void;
  /**
   * Lone calls known ahead, run at once on every worker: each answer exactly as `evaluate` would
   * give it asked in this order (an expression that failed is not run again after that call).
   */
  evaluateEach?(calls: readonly EvaluateCall[]): EvaluateResult[];
  /**
   * True when every answer is jq's own (the engine `loadJqEngine` makes): then a caller may answer
   * an expression jq's way without asking (src/access/fast-conditions.ts). A stand-in that answers
   * otherwise (a test's) leaves it unset, and is asked everything.
   */
  answersAsJq?: boolean;
  /** Set on an engine that only writes down what it is asked (src/jq/prefetch-rules.ts): its answers are no one's to keep. */
  plansOnly?: boolean;
  /** On such an engine, the real one: calculations a context holds are filled with its answers, so the plan holds the real run's contexts. */
  fillsWith?: JqEngine;
  /** How many workers jq runs on at most. */
  workers?(): number;
  /** How many requests jq has answered (or failed) so far: what the benchmark and tests count. */
  requests?(): number;
  /**
   * Once the run's jq budget is spent (src/jq/budget.ts): why, and the expressions that were then
   * left unjudged, in the order first asked. Undefined while every expression asked was run.
   */
  unjudged?(): { reason: string; expressions: string[] } | undefined;
}

export interface EvaluateCall {
  input: JsonValue;
  expression: string;
}

/** What rules are about to ask jq: expressions to validate, and expressions with the inputs to run them on. */
export interface JqWork {
  validate?: readonly string[];
  evaluate?: readonly { expression: string; inputs: readonly JsonValue[] }[];
}

export interface JqEngineOptions {
  /** Time limit per request to jq, in milliseconds. Tests use a small one. */
  timeoutMs?: number;
  /**
   * Workers to run jq on at most: `jqPoolSize()` by default (one per core, bounded by memory).
   * The answers are the same with one worker and with several; only the time differs.
   */
  workers?: number;
  /**
   * Load jq on every worker before returning. By default only the first is, and the others start
   * when a request set first needs them, joining as each is ready (a small org never needs them).
   */
  warm?: boolean;
  /** The run's jq time budget and its clock (src/jq/budget.ts); tests inject a clock that moves by itself. */
  budget?: JqBudgetOptions;
}

/**
 * 1 s per evaluation. Every input is a small sample (one entity, a run context), on which a
 * real calculation or condition answers in well under a millisecond (the whole synthetic bench
 * averages microseconds per call). The margin is for the worker thread, not for jq: on a 2-core
 * runner busy with other work, 250 ms was once seen to expire on an ordinary expression, which
 * turned a verdict into a review. An org full of pathological expressions still finishes: each one
 * costs at most one time limit plus a worker restart, because a failed expression is not run again.
 */
export const DEFAULT_TIMEOUT_MS = 1000;

/** jq exits with 3 on a compile error and 5 on a runtime error. */
const COMPILE_ERROR_EXIT = 3;

export async function loadJqEngine(options: JqEngineOptions = {}): Promise<JqEngine> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const require = createRequire(import.meta.url);
  const jqWasmPath = require.resolve('jq-wasm');
  // Compiled once here, so starting a (replacement) worker only instantiates it.
  const wasmModule = await WebAssembly.compile(await readFile(require.resolve('jq-wasm/jq.wasm')));
  const pool = new JqPool({ jqWasmPath, wasmModule }, options.workers ?? jqPoolSize(), timeoutMs);
  // Not blocking: the CLI loads jq while it reads the org, maybe live, with requests in flight.
  await pool.loaded();
  if (options.warm) pool.warm();

  const compiled = new Map<string, CompileResult>();
  /** By expression, then by the input's JSON text: no key is built by joining the two. */
  const evaluated = new Map<string, Map<string, EvaluateResult>>();
  const answersFor = (expression: string): Map<string, EvaluateResult> => {
    let answers = evaluated.get(expression);
    if (!answers) evaluated.set(expression, (answers = new Map()));
    return answers;
  };
  /** Expressions that timed out or crashed once: running them again would only cost the same. */
  const failed = new Map<string, { ok: false; error: string; failure: EvaluationFailure }>();

  const budget = new JqBudget(options.budget);
  /** Expressions not run because the budget was spent, in the order first asked. */
  const unjudged = new Set<string>();
  const isFailure = (answer: Answer) => answer.kind === 'timeout' || answer.kind === 'crash';

  /**
   * One request for `expression`, isolated: a timeout or a crash replaces the worker and is
   * returned, not thrown. Once the budget is spent nothing is sent: the answer says why.
   */
  const ask = (op: PoolJob['op'], input: JsonValue, query: string, expression: string): Answer | Spent => {
    const reason = budget.spentReason();
    if (reason !== undefined) {
      unjudged.add(expression);
      return { kind: 'spent', reason };
    }
    const started = budget.now();
    const answer = pool.ask(op, input, query);
    const took = budget.now() - started;
    budget.spend(took, isFailure(answer) ? took : 0, expression);
    return answer;
  };

  /** Jobs over the workers, each answer's time spent from the budget as it lands; none is posted once it is spent. */
  const askAll = <J extends PoolJob & { expressions: readonly string[]; batch: boolean }>(jobs: readonly J[], onAnswer: (job: J, answer: Answer) => readonly J[] | void): void => {
    let last = budget.now();
    // A lone call that timed out or crashed fails its expression: its calls not yet posted would only cost the same (lone calls settle so).
    const failedHere = new Set<string>();
    pool.askAll(
      jobs,
      (job, answer) => {
        if (!job.batch && isFailure(answer)) failedHere.add(job.expressions[0]!);
        const now = budget.now();
        // A batch that timed out is lost only once one of its expressions times out alone (budget.ts).
        const batchTimeout = answer.kind === 'timeout' && job.batch;
        if (batchTimeout) budget.batchTimedOut(job.expressions, timeoutMs);
        // A timeout cost its whole limit, on whichever worker; a crash about the time since the last answer.
        budget.spend(now - last, batchTimeout ? 0 : answer.kind === 'timeout' ? timeoutMs : answer.kind === 'crash' ? Math.min(now - last, timeoutMs) : 0, job.batch ? undefined : job.expressions[0]);
        last = now;
        return onAnswer(job, answer);
      },
      () => budget.spentReason() !== undefined,
      (job) => !job.batch && failedHere.has(job.expressions[0]!),
    );
  };

  const failure = (expression: string, answer: Answer | Spent, compiling = false): { ok: false; error: string; failure: EvaluationFailure } | undefined => {
    if (answer.kind !== 'timeout' && answer.kind !== 'crash' && answer.kind !== 'spent') return undefined;
    const result =
      answer.kind === 'spent'
        ? { ok: false as const, error: `not run: ${answer.reason}`, failure: 'timeout' as const }
        : answer.kind === 'timeout'
          ? { ok: false as const, error: `no result within ${timeoutMs} ms`, failure: 'timeout' as const }
          : { ok: false as const, error: crashWords(answer.message, compiling), failure: 'crash' as const };
    failed.set(expression, result);
    return result;
  };

  const validate = (expression: string): CompileResult => {
    const cached = compiled.get(expression) ?? failed.get(expression);
    if (cached) return cached;
    // Compiled but never run: `empty` produces nothing, so the right side is never evaluated and
    // an expression that loops or is slow costs nothing here. The newlines keep a trailing
    // `# comment` from swallowing the closing parenthesis.
    const wrapped = ask('raw', null, `empty | (\n${expression}\n)`, expression);
    let result: CompileResult = failure(expression, wrapped, true) ?? { ok: true };
    if (wrapped.kind === 'raw' && wrapped.exitCode !== 0) {
      // The wrapper shifts jq's line numbers; ask again unwrapped for jq's exact message. A
      // compile error stops jq before it runs anything, so this cannot execute the expression
      // unless the wrapper alone was at fault (a comment continued by a trailing backslash),
      // and then the time limit still holds.
      const direct = ask('raw', null, expression, expression);
      result = failure(expression, direct, true) ?? result;
      if (direct.kind === 'raw' && direct.exitCode === COMPILE_ERROR_EXIT) result = { ok: false, error: firstLine(direct.stderr) };
    }
    compiled.set(expression, result);
    return result;
  };

  /** What a lone evaluation's answer means, kept by expression and input; a timeout or crash also marks the expression failed. */
  const settleEvaluation = (expression: string, key: string, answer: Answer | Spent): EvaluateResult => {
    let result: EvaluateResult;
    if (answer.kind === 'json') result = { ok: true, values: answer.values };
    else if (answer.kind === 'jq-error') result = { ok: false, error: firstLine(answer.stderr) };
    else result = failure(expression, answer) ?? { ok: false, error: `unexpected reply ${answer.kind}`, failure: 'crash' };
    answersFor(expression).set(key, result);
    return result;
  };

  /** The answer the caches already hold (a failed expression's failure first), if any. */
  const known = (expression: string, key: string): EvaluateResult | undefined => failed.get(expression) ?? evaluated.get(expression)?.get(key);

  const evaluate = (input: JsonValue, expression: string): EvaluateResult => {
    const key = jsonText(input);
    return known(expression, key) ?? settleEvaluation(expression, key, ask('json', input, expression, expression));
  };

  const evaluateEach = (calls: readonly EvaluateCall[]): EvaluateResult[] => {
    // Each distinct call not answered yet runs once, on whichever worker is free.
    const jobs = new Map<string, PoolJob & { expression: string; expressions: readonly string[]; batch: false; key: string }>();
    const keys = calls.map(({ input, expression }) => {
      const key = jsonText(input);
      const id = `${expression.length}:${expression}${key}`;
      if (!known(expression, key) && !jobs.has(id)) jobs.set(id, { op: 'json', input, query: expression, expression, expressions: [expression], batch: false, key });
      return key;
    });
    const answers = new Map<PoolJob, Answer>();
    askAll([...jobs.values()], (job, answer) => void answers.set(job, answer));
    // Settled in the callers' order, as lone calls would be: after a call that failed, its expression's later calls give that failure.
    for (const job of jobs.values()) {
      const answer = answers.get(job);
      if (answer !== undefined && answer.kind !== 'timeout' && answer.kind !== 'crash') settleEvaluation(job.expression, job.key, answer);
    }
    return calls.map(({ expression }, i) => {
      const key = keys[i]!;
      const cached = known(expression, key);
      if (cached) return cached;
      const job = jobs.get(`${expression.length}:${expression}${key}`)!;
      const answer = answers.get(job);
      if (answer !== undefined) return settleEvaluation(expression, key, answer);
      // Not posted: the budget was spent first (a call skipped after its expression failed gave that failure above).
      unjudged.add(expression);
      return settleEvaluation(expression, key, { kind: 'spent', reason: budget.spentReason() ?? 'jq\'s budget for this run is spent' });
    });
  };

  /** Expressions whose batch timed out or crashed: they are answered one call at a time from then on. */
  const unbatchable = new Set<string>();

  /**
   * A batched request and what its answer fills in. Handlers write only their own expressions'
   * entries and sets, so the answers may arrive in any order (one worker or several).
   */
  type Batch = PoolJob & { expressions: readonly string[]; batch: true; settle: (answer: Answer) => Batch[] | void };

  /** Compiles a group in one request; a group jq rejects is halved until the culprit is alone, left to `validate`. */
  const validateGroup = (expressions: readonly string[]): Batch[] => {
    if (expressions.length < 2) return [];
    const settle = (answer: Answer): Batch[] | void => {
      if (answer.kind === 'raw' && answer.exitCode === 0) {
        for (const expression of expressions) compiled.set(expression, { ok: true });
        return;
      }
      if (answer.kind !== 'raw') return; // a timeout or crash while only compiling: left to `validate`
      const half = Math.ceil(expressions.length / 2);
      return [...validateGroup(expressions.slice(0, half)), ...validateGroup(expressions.slice(half))];
    };
    return [{ op: 'raw', input: null, query: validationProgram(expressions), expressions, batch: true, settle }];
  };

  /** One request for a group of expressions, each with the inputs (as JSON text) still to answer; it compiles those not known to (one that does not is found by halving, left to lone calls). */
  const evaluateGroup = (tasks: readonly { expression: string; inputs: string[] }[]): Batch => {
    const byText = new Map<string, BatchInput>();
    tasks.forEach((task, t) => {
      for (const text of task.inputs) {
        let input = byText.get(text);
        if (!input) byText.set(text, (input = { i: byText.size, t: [], x: text }));
        input.t.push(t);
      }
    });
    const inputs = [...byText.values()];
    const settle = (answer: Answer): Batch[] | void => {
      const unknown = [...new Set(tasks.map((task) => task.expression).filter((expression) => !compiled.has(expression)))];
      if (answer.kind !== 'lines') {
        // A loop or a crash somewhere in the group: each expression is asked on its own from now on.
        for (const task of tasks) unbatchable.add(task.expression);
        return validateGroup(unknown);
      }
      if (answer.exitCode === COMPILE_ERROR_EXIT && unknown.length > 0) return tasks.length < 2 ? [] : [tasks.slice(0, (tasks.length + 1) >> 1), tasks.slice((tasks.length + 1) >> 1)].map(evaluateGroup);
      for (const expression of unknown) compiled.set(expression, { ok: true });
      for (const found of parseBatchOutput(answer.stdout, inputs)) {
        const expression = tasks[found.t]!.expression;
        const result = 'values' in found ? { ok: true as const, values: found.values } : loneError(expression, found.error);
        if (result) answersFor(expression).set(inputs[found.i]!.x, result);
      }
    };
    return { op: 'lines', input: batchStdin(inputs), query: evaluationProgram(tasks.map((task) => task.expression)), expressions: tasks.map((task) => task.expression), batch: true, settle };
  };

  // A batch not posted (the budget spent) settles nothing: its calls are then asked alone, and refused alike.
  const runBatches = (batches: readonly Batch[]): void => askAll(batches, (batch, answer) => batch.settle(answer));

  const batchableOnce = new Map<string, boolean>();
  const canBatch = (expression: string): boolean => batchableOnce.get(expression) ?? batchableOnce.set(expression, batchable(expression)).get(expression)!;

  const prefetch = (work: JqWork): void => {
    const toValidate = [...new Set(work.validate ?? [])].filter((expression) => !compiled.has(expression) && !failed.has(expression) && canBatch(expression));
    const compiling = new Set(toValidate);
    // Only expressions jq compiles on their own are run together: a batch must not run what a lone call rejects.
    const tasks = new Map<string, Set<string>>();
    for (const { expression, inputs } of work.evaluate ?? []) {
      if ((compiled.get(expression)?.ok !== true && !compiling.has(expression)) || failed.has(expression) || unbatchable.has(expression)) continue;
      const answers = evaluated.get(expression);
      for (const input of inputs) {
        const text = jsonText(input);
        if (answers?.has(text)) continue;
        let texts = tasks.get(expression);
        if (!texts) tasks.set(expression, (texts = new Set()));
        texts.add(text);
      }
    }
    // Those to run are compiled by the request that runs them (compiled first alone, jq compiled each twice, in 51 of the 10x org's 200 requests).
    // One list, pushed to: lists made by flatMap, empty or not, had V8 leave this code again and again (a thousand times a run).
    const batches: Batch[] = [];
    for (const group of evaluationGroups(toValidate.filter((expression) => !tasks.has(expression)).map((expression) => ({ expression, inputs: [] })))) batches.push(...validateGroup(group.map((task) => task.expression)));
    // An expression over more inputs than a group holds is split, so its parts can run on several workers.
    const all = [...tasks].filter(([expression]) => canBatch(expression)).flatMap(([expression, texts]) => chunks([...texts], GROUP_LIMITS.inputs).map((inputs) => ({ expression, inputs })));
    for (const group of evaluationGroups(all)) batches.push(evaluateGroup(group));
    if (batches.length > 0) runBatches(batches);
  };

  const unjudgedNow = () => {
    const reason = budget.spentReason();
    return reason === undefined || unjudged.size === 0 ? undefined : { reason, expressions: [...unjudged] };
  };
  return { validate, evaluate, close: () => pool.close(), prefetch, evaluateEach, answersAsJq: true, workers: () => pool.size, requests: () => pool.requests, unjudged: unjudgedNow };
}

/**
 * A runtime error's text as a lone call gives it (one input on stdin): jq prints a string message
 * after this. Undefined where the lone call's stderr may differ: something else printed first
 * (`debug`, `stderr`), or a NUL, where jq's print stops; that call is then asked alone.
 */
function loneError(expression: string, message: string): EvaluateResult | undefined {
  if (expression.includes('debug') || expression.includes('stderr') || message.includes('\u0000')) return undefined;
  return { ok: false, error: firstLine(`jq: error (at /dev/stdin:0): ${message}`) };
}

/** A request not sent: the run's jq budget is spent. */
interface Spent {
  kind: 'spent';
  reason: string;
}

/**
 * A crash in the user's words: jq-wasm reports running out of memory or stack as
 * `Aborted(). Build with -sASSERTIONS for more info.`, which says nothing to a user. jq computes
 * constant parts when it compiles (`"x" * 1e9`), so running out of memory there is no syntax error.
 */
export function crashWords(message: string, compiling: boolean): string {
  const when = compiling ? 'while compiling it (jq computes constant parts such as "x" * 1e9 when it compiles; the expression is not invalid)' : 'while running it';
  if (/Aborted\(|out of memory|memory access out of bounds|Maximum call stack|too much recursion/i.test(message)) return `jq ran out of memory or stack ${when}`;
  if (message === 'the jq worker exited') return `the jq worker stopped ${when}`;
  return `jq stopped ${when}: ${message.replace(/\s*Build with -s\w+.*$/, '')}`;
}

/**
 * An input's JSON text, the key of its answers. A probe hands the same sample objects to
 * `prefetch` and then to `evaluate`, so each is written out once (a plan's recorder keys what it
 * was asked by the same text, src/jq/prefetch-rules.ts).
 */
const texts = new WeakMap<object, string>();

/**
 * Says what `JSON.stringify(input)` is, for an input its maker wrote out already (a context filled
 * from one JSON text per probe): thousands of such inputs are then not written out again.
 */
export function rememberJsonText(input: object, text: string): void {
  texts.set(input, text);
}

export function jsonText(input: JsonValue): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  let text = texts.get(input);
  if (text === undefined) texts.set(input, (text = JSON.stringify(input)));
  return text;
}

/**
 * Ours: at most this much per batched request. jq's start costs about 2 ms; a hundred expressions
 * over the few contexts they share take 10–30 ms (measured on the 10x org), which keeps a batch far
 * inside the 1 s limit even on a busy runner, and a batch that fails costs little to redo one call
 * at a time. Fifty made 253 requests of the 10x org's work, a hundred 165 (4 % less CPU), and
 * the bound on runs (the old batches' own: their inputs were counted once per expression) 202.
 */
const GROUP_LIMITS: GroupLimits = { expressions: 100, inputs: 1000, chars: 512 * 1024, evaluations: 1000 };

export interface GroupLimits {
  expressions: number;
  /** Distinct inputs a request carries. */
  inputs: number;
  chars: number;
  /**
   * Expression-and-input runs a request makes: expressions sharing their inputs would otherwise
   * make a request of 100 × 1,000 runs, past the time limit, and a batch that fails is asked again
   * one call at a time.
   */
  evaluations?: number;
}

/**
 * Evaluation tasks cut into requests within GROUP_LIMITS, counting what a request carries: each
 * distinct input once. Tasks over the same inputs go together (most expressions of an org are
 * judged on the same few contexts), so an input is sent and parsed by jq once per request that
 * needs it, not once per fifty expressions that happen to be listed together: jq parses JSON at
 * about 13 MB/s in wasm, and the 10x org's work sent each of its 1,015 contexts 15 times.
 */
export function evaluationGroups<T extends { expression: string; inputs: readonly string[] }>(tasks: readonly T[], limits: GroupLimits = GROUP_LIMITS): T[][] {
  const ids = new Map<string, number>();
  const signature = (task: T): string =>
    task.inputs
      .map((text) => {
        let id = ids.get(text);
        if (id === undefined) ids.set(text, (id = ids.size));
        return id;
      })
      .sort((a, b) => a - b)
      .join(',');
  const signed = tasks.map((task, order) => ({ task, order, key: signature(task) }));
  // By the inputs they share, then as listed: the same work always makes the same requests.
  signed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.order - b.order));
  const result: T[][] = [];
  let group: T[] = [];
  let carried = new Set<string>();
  let chars = 0;
  let runs = 0;
  const maxRuns = limits.evaluations ?? Number.POSITIVE_INFINITY;
  for (const { task } of signed) {
    const fresh = task.inputs.filter((text) => !carried.has(text));
    const more = task.expression.length + fresh.reduce((sum, text) => sum + text.length, 0);
    const full = group.length + 1 > limits.expressions || carried.size + fresh.length > limits.inputs || chars + more > limits.chars || runs + task.inputs.length > maxRuns;
    if (group.length > 0 && full) {
      result.push(group);
      group = [];
      carried = new Set(task.inputs);
      chars = task.expression.length + task.inputs.reduce((sum, text) => sum + text.length, 0);
    } else {
      for (const text of fresh) carried.add(text);
      chars += more;
    }
    runs = (group.length === 0 ? 0 : runs) + task.inputs.length;
    group.push(task);
  }
  if (group.length > 0) result.push(group);
  return result;
}

/**
 * jq's message is the first line of stderr; the rest repeats the source with a caret, which the
 * first line's trailing colon introduces, so that colon goes too.
 */
export function firstLine(stderr: string): string {
  return (stderr.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/:$/, '');
}
