/**
 * One jq-wasm instance in a worker thread (src/jq/engine.ts says why a thread). The main thread
 * posts a request and blocks on a shared flag with a time limit (`Atomics.wait`), then reads the
 * reply synchronously (`receiveMessageOnPort`), so callers stay synchronous. Each worker has its
 * own flag; every worker of a pool also rings one shared bell when it replies or exits, so the
 * main thread can wait for whichever of several answers first (src/jq/worker-pool.ts).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { JsonValue } from '../model/json.js';

export type Request = { id: number; op: 'raw' | 'json' | 'lines'; input: JsonValue; query: string };
export type Reply =
  | { id: number; kind: 'raw'; exitCode: number; stderr: string }
  | { id: number; kind: 'lines'; exitCode: number; stdout: string }
  | { id: number; kind: 'json'; values: JsonValue[] }
  | { id: number; kind: 'jq-error'; stderr: string }
  | { id: number; kind: 'crash'; message: string }
  | { id: number; kind: 'ready' }
  | { id: number; kind: 'load-failed'; message: string };
export type Answer = Exclude<Reply, { kind: 'ready' } | { kind: 'load-failed' }> | { kind: 'timeout' };

/** Starting a worker compiles nothing (the wasm module is compiled once), so this is generous. */
export const STARTUP_TIMEOUT_MS = 30_000;

/** `Atomics.waitAsync` (Node.js 16 and later; not yet in TypeScript's ES2022 library). */
const waitAsync = (Atomics as unknown as { waitAsync(typed: Int32Array, index: number, value: number, timeout: number): { async: false; value: string } | { async: true; value: Promise<string> } }).waitAsync;

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
const { port, signal, bell, jqWasmPath, wasmModule } = workerData;
const flag = new Int32Array(signal);
const doorbell = new Int32Array(bell);
const ring = () => { Atomics.add(doorbell, 0, 1); Atomics.notify(doorbell, 0); };
const send = (reply) => { port.postMessage(reply); Atomics.store(flag, 0, ${REPLIED}); Atomics.notify(flag, 0); ring(); };
process.on('exit', () => { Atomics.store(flag, 0, ${EXITED}); Atomics.notify(flag, 0); ring(); });
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
    if (request.op === 'lines') {
      // The input is stdin's text (many JSON texts); one compact line per output.
      const result = jq.raw(request.input, request.query, ['-c']);
      send({ id: request.id, kind: 'lines', exitCode: result.exitCode, stdout: result.stdout });
    } else if (request.op === 'raw') {
      const result = jq.raw(request.input, request.query);
      send({ id: request.id, kind: 'raw', exitCode: result.exitCode, stderr: result.stderr });
    } else {
      // jq-wasm takes a string input as JSON text: one input is a string value, written out as one.
      const input = typeof request.input === 'string' ? JSON.stringify(request.input) : request.input;
      send({ id: request.id, kind: 'json', values: jq.json(input, request.query) });
    }
  } catch (error) {
    if (error instanceof JqError) send({ id: request.id, kind: 'jq-error', stderr: error.stderr });
    else send({ id: request.id, kind: 'crash', message: describe(error) });
  }
});
`;

/** What a worker needs to start: jq-wasm's entry, its module compiled once, and the pool's bell. */
export interface WorkerSeed {
  jqWasmPath: string;
  wasmModule: WebAssembly.Module;
  /** An Int32Array(1) on a SharedArrayBuffer every worker of one pool rings. */
  bell: Int32Array;
}

/** One worker with its channel and flag; replaced wholesale after a timeout or a crash. */
export class JqWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private nextId = 1;
  /** The request posted and not answered yet, with the time its limit runs out. */
  private pending: { id: number; deadline: number } | undefined;

  /** Starts the worker without waiting for it: `ready()` waits, so several can start at once. */
  constructor(seed: WorkerSeed) {
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    this.port = channel.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: channel.port2, signal, bell: seed.bell.buffer, jqWasmPath: seed.jqWasmPath, wasmModule: seed.wasmModule },
      transferList: [channel.port2],
      // Not piped to ours: jq-wasm writes `Aborted()` to stderr. The worker silences itself too,
      // since reading these streams would keep the process alive.
      stdout: true,
      stderr: true,
    });
    this.worker.on('error', () => {}); // a crash is seen through the flag; never an unhandled event
    this.worker.unref();
    this.port.unref();
  }

  private loaded = false;
  /** When a worker still loading jq is given up on. */
  readonly startupDeadline = Date.now() + STARTUP_TIMEOUT_MS;

  /**
   * Without waiting: 'ready' once the worker has loaded jq, 'loading' while it still loads,
   * 'failed' when it cannot (it is then stopped). Its ready reply rings the pool's bell too.
   */
  loadState(now: number): 'ready' | 'loading' | 'failed' {
    if (this.loaded) return 'ready';
    if (Atomics.load(this.flag, 0) === WAITING && now < this.startupDeadline) return 'loading';
    try {
      this.ready();
      return 'ready';
    } catch {
      return 'failed';
    }
  }

  /**
   * Resolves once the worker has loaded jq, without blocking the thread meanwhile (a live read may
   * have requests in flight); rejects (and stops it) when it cannot.
   */
  async whenReady(): Promise<void> {
    // The worker and its port are unref'd and an async wait holds nothing: without this timer the
    // process would end here, with the wait still pending.
    const alive = setTimeout(() => undefined, STARTUP_TIMEOUT_MS);
    try {
      while (!this.loaded && Atomics.load(this.flag, 0) === WAITING && Date.now() < this.startupDeadline) {
        const waited = waitAsync(this.flag, 0, WAITING, this.startupDeadline - Date.now());
        if (waited.async) await waited.value;
      }
    } finally {
      clearTimeout(alive);
    }
    this.ready();
  }

  /** Blocks until the worker has loaded jq (at once when it has); throws (and stops it) when it cannot. */
  ready(): void {
    if (this.loaded) return;
    const ready = this.wait(this.startupDeadline);
    this.loaded = ready?.kind === 'ready';
    if (ready?.kind === 'ready') return;
    void this.terminate();
    const why = ready === undefined ? 'it did not start in time' : ready.kind === 'load-failed' ? ready.message : `unexpected ${ready.kind}`;
    throw new Error(`could not start jq: ${why}`);
  }

  /** Send one request and block until the reply, the time limit, or the worker's death. */
  request(op: Request['op'], input: JsonValue, query: string, timeoutMs: number): Answer {
    this.post(op, input, query, timeoutMs);
    return this.collect(this.wait(this.pending!.deadline));
  }

  /** Send one request without waiting; `poll` picks up its answer. One request at a time. */
  post(op: Request['op'], input: JsonValue, query: string, timeoutMs: number): void {
    const id = this.nextId++;
    Atomics.store(this.flag, 0, WAITING);
    this.port.postMessage({ id, op, input, query } satisfies Request);
    this.pending = { id, deadline: Date.now() + timeoutMs };
  }

  /** When the posted request's time limit runs out. */
  get deadline(): number {
    return this.pending?.deadline ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The posted request's answer once the worker replied or died, a timeout once its limit passed
   * (`now`), else undefined: it is still working.
   */
  poll(now: number): Answer | undefined {
    if (Atomics.load(this.flag, 0) === WAITING && now < this.deadline) return undefined;
    return this.collect(receiveMessageOnPort(this.port)?.message as Reply | undefined);
  }

  terminate(): Promise<unknown> {
    return this.worker.terminate().catch(() => undefined);
  }

  private collect(reply: Reply | undefined): Answer {
    const id = this.pending?.id ?? 0;
    this.pending = undefined;
    if (reply === undefined) return Atomics.load(this.flag, 0) === EXITED ? { id, kind: 'crash', message: 'the jq worker exited' } : { kind: 'timeout' };
    if (reply.kind === 'ready' || reply.kind === 'load-failed' || reply.id !== id) return { id, kind: 'crash', message: `unexpected reply ${reply.kind}` };
    return reply;
  }

  private wait(deadline: number): Reply | undefined {
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
