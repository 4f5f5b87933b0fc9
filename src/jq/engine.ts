/**
 * jq itself, through jq-wasm. This is the only module that loads jq-wasm: the version is pinned
 * to 3.0.0-jq-1.8.2 because the `latest` tag (1.0.1) aborts after about 300 evaluations in one
 * process.
 *
 * The expressions are the org's own, so any of them may loop forever (`last(range(1e9))`) or
 * crash the wasm runtime (`def f: [f]; f` aborts it). jq therefore runs in a worker thread that
 * owns the jq-wasm instance; the main thread posts a request, blocks on a shared flag with a time
 * limit (`Atomics.wait`) and reads the reply synchronously (`receiveMessageOnPort`), so rules stay
 * plain synchronous functions. A request that times out or crashes becomes a result saying so,
 * and the worker is replaced by a fresh one before the next request. The worker prints nothing
 * (jq-wasm would print `Aborted()`) and never keeps the process alive.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { JsonValue } from '../model/json.js';

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
}

export interface JqEngineOptions {
  /** Time limit per request to jq, in milliseconds. Tests use a small one. */
  timeoutMs?: number;
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

/** Starting a worker compiles nothing (the wasm module is compiled once), so this is generous. */
const STARTUP_TIMEOUT_MS = 30_000;

/** jq exits with 3 on a compile error and 5 on a runtime error. */
const COMPILE_ERROR_EXIT = 3;

type Request = { id: number; op: 'raw' | 'json'; input: JsonValue; query: string };
type Reply =
  | { id: number; kind: 'raw'; exitCode: number; stderr: string }
  | { id: number; kind: 'json'; values: JsonValue[] }
  | { id: number; kind: 'jq-error'; stderr: string }
  | { id: number; kind: 'crash'; message: string }
  | { id: number; kind: 'ready' }
  | { id: number; kind: 'load-failed'; message: string };
type Answer = Exclude<Reply, { kind: 'ready' } | { kind: 'load-failed' }> | { kind: 'timeout' };

/** Flag values in the shared Int32Array the worker signals on. */
const WAITING = 0;
const REPLIED = 1;
const EXITED = 2;

/**
 * The worker, as CommonJS source (jq-wasm's `require` entry): a file would need a build step of
 * its own to run both from `dist` and under the test runner. It answers one request at a time
 * and never prints; any throw that is not jq's own error is reported as a crash.
 */
const WORKER_SOURCE = `
// Silenced before jq-wasm loads (it binds console.error then): nothing may reach the user, and
// output waiting in the worker's stdio streams would keep the process alive.
for (const stream of [process.stdout, process.stderr]) stream.write = () => true;
for (const method of ['log', 'error', 'warn', 'info', 'debug', 'trace']) console[method] = () => {};
const { workerData } = require('node:worker_threads');
const { port, signal, jqWasmPath, wasmModule } = workerData;
const flag = new Int32Array(signal);
const send = (reply) => { port.postMessage(reply); Atomics.store(flag, 0, ${REPLIED}); Atomics.notify(flag, 0); };
process.on('exit', () => { Atomics.store(flag, 0, ${EXITED}); Atomics.notify(flag, 0); });
const describe = (error) => String(error && error.message ? error.message : error).split('\\n')[0];
let jq;
let JqError;
try {
  ({ JqError } = require(jqWasmPath));
  require(jqWasmPath).loadJq({ wasmModule }).then(
    (loaded) => {
      jq = loaded;
      // Warm up (the first call compiles most of jq's wasm), so no real request pays for it.
      jq.raw(null, 'empty | (.)');
      jq.json({ team: ['a'] }, '[.team[] | ascii_downcase] | join(",")');
      send({ id: 0, kind: 'ready' });
    },
    (error) => send({ id: 0, kind: 'load-failed', message: describe(error) }),
  );
} catch (error) {
  send({ id: 0, kind: 'load-failed', message: describe(error) });
}
port.on('message', (request) => {
  try {
    if (request.op === 'raw') {
      const result = jq.raw(request.input, request.query);
      send({ id: request.id, kind: 'raw', exitCode: result.exitCode, stderr: result.stderr });
    } else {
      send({ id: request.id, kind: 'json', values: jq.json(request.input, request.query) });
    }
  } catch (error) {
    if (error instanceof JqError) send({ id: request.id, kind: 'jq-error', stderr: error.stderr });
    else send({ id: request.id, kind: 'crash', message: describe(error) });
  }
});
`;

/** One worker with its channel and flag; replaced wholesale after a timeout or a crash. */
class JqWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private nextId = 1;

  constructor(jqWasmPath: string, wasmModule: WebAssembly.Module) {
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    this.port = channel.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: channel.port2, signal, jqWasmPath, wasmModule },
      transferList: [channel.port2],
      // Not piped to ours: jq-wasm writes `Aborted()` to stderr. The worker silences itself too,
      // since reading these streams would keep the process alive.
      stdout: true,
      stderr: true,
    });
    this.worker.on('error', () => {}); // a crash is seen through the flag; never an unhandled event
    this.worker.unref();
    this.port.unref();
    const ready = this.wait(STARTUP_TIMEOUT_MS);
    if (ready?.kind !== 'ready') {
      void this.terminate();
      const why = ready === undefined ? 'it did not start in time' : ready.kind === 'load-failed' ? ready.message : `unexpected ${ready.kind}`;
      throw new Error(`could not start jq: ${why}`);
    }
  }

  /** Send one request and block until the reply, the time limit, or the worker's death. */
  request(op: Request['op'], input: JsonValue, query: string, timeoutMs: number): Answer {
    const id = this.nextId++;
    Atomics.store(this.flag, 0, WAITING);
    this.port.postMessage({ id, op, input, query } satisfies Request);
    const reply = this.wait(timeoutMs);
    if (reply === undefined) return Atomics.load(this.flag, 0) === EXITED ? { id, kind: 'crash', message: 'the jq worker exited' } : { kind: 'timeout' };
    if (reply.kind === 'ready' || reply.kind === 'load-failed' || reply.id !== id) return { id, kind: 'crash', message: `unexpected reply ${reply.kind}` };
    return reply;
  }

  terminate(): Promise<unknown> {
    return this.worker.terminate().catch(() => undefined);
  }

  private wait(timeoutMs: number): Reply | undefined {
    const deadline = Date.now() + timeoutMs;
    // `Atomics.wait` returns at the notify, when the flag already changed, or at the time limit.
    while (Atomics.load(this.flag, 0) === WAITING) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(this.flag, 0, WAITING, left);
    }
    // Even past the limit a reply may have arrived in the meantime: it is still the answer.
    return receiveMessageOnPort(this.port)?.message as Reply | undefined;
  }
}

export async function loadJqEngine(options: JqEngineOptions = {}): Promise<JqEngine> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const require = createRequire(import.meta.url);
  const jqWasmPath = require.resolve('jq-wasm');
  // Compiled once here, so starting a (replacement) worker only instantiates it.
  const wasmModule = await WebAssembly.compile(await readFile(require.resolve('jq-wasm/jq.wasm')));
  let worker: JqWorker | undefined = new JqWorker(jqWasmPath, wasmModule);

  const compiled = new Map<string, CompileResult>();
  const evaluated = new Map<string, EvaluateResult>();
  /** Expressions that timed out or crashed once: running them again would only cost the same. */
  const failed = new Map<string, { ok: false; error: string; failure: EvaluationFailure }>();

  /** One request, isolated: a timeout or a crash replaces the worker and is returned, not thrown. */
  const ask = (op: Request['op'], input: JsonValue, query: string): Answer => {
    worker ??= new JqWorker(jqWasmPath, wasmModule);
    const answer = worker.request(op, input, query, timeoutMs);
    if (answer.kind === 'timeout' || answer.kind === 'crash') {
      void worker.terminate();
      worker = undefined; // the next request starts a fresh one
    }
    return answer;
  };

  const failure = (expression: string, answer: Answer): { ok: false; error: string; failure: EvaluationFailure } | undefined => {
    if (answer.kind !== 'timeout' && answer.kind !== 'crash') return undefined;
    const result =
      answer.kind === 'timeout'
        ? { ok: false as const, error: `no result within ${timeoutMs} ms`, failure: 'timeout' as const }
        : { ok: false as const, error: answer.message, failure: 'crash' as const };
    failed.set(expression, result);
    return result;
  };

  const validate = (expression: string): CompileResult => {
    const cached = compiled.get(expression) ?? failed.get(expression);
    if (cached) return cached;
    // Compiled but never run: `empty` produces nothing, so the right side is never evaluated and
    // an expression that loops or is slow costs nothing here. The newlines keep a trailing
    // `# comment` from swallowing the closing parenthesis.
    const wrapped = ask('raw', null, `empty | (\n${expression}\n)`);
    let result: CompileResult = failure(expression, wrapped) ?? { ok: true };
    if (wrapped.kind === 'raw' && wrapped.exitCode !== 0) {
      // The wrapper shifts jq's line numbers; ask again unwrapped for jq's exact message. A
      // compile error stops jq before it runs anything, so this cannot execute the expression
      // unless the wrapper alone was at fault (a comment continued by a trailing backslash),
      // and then the time limit still holds.
      const direct = ask('raw', null, expression);
      result = failure(expression, direct) ?? result;
      if (direct.kind === 'raw' && direct.exitCode === COMPILE_ERROR_EXIT) result = { ok: false, error: firstLine(direct.stderr) };
    }
    compiled.set(expression, result);
    return result;
  };

  const evaluate = (input: JsonValue, expression: string): EvaluateResult => {
    const gaveUp = failed.get(expression);
    if (gaveUp) return gaveUp;
    const key = `${expression}\u0000${JSON.stringify(input)}`;
    const cached = evaluated.get(key);
    if (cached) return cached;
    const answer = ask('json', input, expression);
    let result: EvaluateResult;
    if (answer.kind === 'json') result = { ok: true, values: answer.values };
    else if (answer.kind === 'jq-error') result = { ok: false, error: firstLine(answer.stderr) };
    else result = failure(expression, answer) ?? { ok: false, error: `unexpected reply ${answer.kind}`, failure: 'crash' };
    evaluated.set(key, result);
    return result;
  };

  const close = async () => {
    const current = worker;
    worker = undefined;
    await current?.terminate();
  };

  return { validate, evaluate, close };
}

/**
 * jq's message is the first line of stderr; the rest repeats the source with a caret, which the
 * first line's trailing colon introduces, so that colon goes too.
 */
export function firstLine(stderr: string): string {
  return (stderr.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/:$/, '');
}
