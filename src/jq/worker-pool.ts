/**
 * jq workers, one per core (issue 33): synchronous callers use the first, and work known ahead
 * (src/jq/engine.ts `prefetch`) is posted to all of them at once, the main thread waiting for
 * whichever answers first on a bell every worker rings. A request that times out or crashes
 * costs only its own worker, which is stopped and started afresh when next needed.
 */
import { availableParallelism, freemem } from 'node:os';
import type { JsonValue } from '../model/json.js';
import { JqWorker, type Answer, type Request, type WorkerSeed } from './jq-worker.js';

/**
 * What one worker costs, measured (RSS of a process before and after starting workers): 12–20 MB
 * each once jq-wasm is loaded, about 8 MB more once it has run access-sized inputs (its wasm
 * memory grows and never shrinks). Rounded up, so the bound below errs on the side of fewer.
 */
export const WORKER_BYTES = 40 * 1024 * 1024;
/**
 * Ours: jq's workers together take at most this much, whatever the core count: the 10x analysis
 * stays under its 600 MB goal (bench:analyze) with room for the org itself.
 */
export const POOL_MEMORY_BYTES = 160 * 1024 * 1024;
/** Ours: and at most this share of the memory free when jq starts. */
const FREE_MEMORY_SHARE = 0.25;

/**
 * How many jq workers a run starts at most: one per core, no more than `--concurrency` allows, and
 * no more than memory allows. At least one.
 */
export function jqPoolSize(bounds: { concurrency?: number; cores?: number; freeBytes?: number } = {}): number {
  const cores = bounds.cores ?? availableParallelism();
  const byMemory = Math.floor(Math.min(POOL_MEMORY_BYTES, (bounds.freeBytes ?? freemem()) * FREE_MEMORY_SHARE) / WORKER_BYTES);
  return Math.max(1, Math.min(cores, bounds.concurrency ?? cores, byMemory));
}

export interface PoolJob {
  op: Request['op'];
  input: JsonValue;
  query: string;
}

export class JqPool {
  /** Slot 0 answers synchronous callers; an empty slot is started when next needed. */
  private readonly workers: (JqWorker | undefined)[];
  private readonly bell = new Int32Array(new SharedArrayBuffer(4));
  private asked = 0;

  constructor(
    private readonly seed: Omit<WorkerSeed, 'bell'>,
    readonly size: number,
    private readonly timeoutMs: number,
  ) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => undefined);
    // The first worker starts loading now; `loaded()` waits for it without blocking, anything else blocks until it has.
    this.workers[0] = this.spawn();
  }

  /** Resolves once the first worker has loaded jq, the thread free meanwhile; rejects when jq cannot start. */
  async loaded(): Promise<void> {
    const first = (this.workers[0] ??= this.spawn());
    try {
      await first.whenReady();
    } catch (error) {
      this.workers[0] = undefined;
      throw error;
    }
  }

  /** Starts every worker and waits until each has loaded jq: for a caller that knows all of them will be needed. */
  warm(): void {
    this.started(this.workers.length);
  }

  /** How many workers are started (loaded or loading). */
  get running(): number {
    return this.workers.filter((worker) => worker !== undefined).length;
  }

  /** How many requests jq has answered (or failed) so far. */
  get requests(): number {
    return this.asked;
  }

  /** One request on the first worker, isolated: a timeout or a crash replaces it and is returned, not thrown. */
  ask(op: Request['op'], input: JsonValue, query: string): Answer {
    this.asked++;
    const worker = this.started(1)[0]!;
    const answer = worker.request(op, input, query, this.timeoutMs);
    if (answer.kind === 'timeout' || answer.kind === 'crash') this.stop(worker);
    return answer;
  }

  /**
   * Every job, spread over the workers, each answered to `onAnswer` as it arrives with the slot of
   * the worker that ran it (which may add follow-up jobs); jobs not posted when `stop` says so, or that `skip` names as they come up, get no answer. The order of the answers depends on the pool, so `onAnswer` must give the same
   * result whatever the order: each job writes what only it answers.
   */
  askAll<J extends PoolJob>(jobs: readonly J[], onAnswer: (job: J, answer: Answer, slot: number) => readonly J[] | void, stop: () => boolean = () => false, skip: (job: J) => boolean = () => false): void {
    if (jobs.length === 0 || stop()) return;
    const queue = [...jobs];
    let head = 0;
    // The first worker runs at once; the others needed start loading jq now and join as each is
    // ready, so the main thread never waits for a worker to load while another could work.
    const idle = this.started(1);
    const loading = this.starting(Math.min(this.workers.length, queue.length));
    idle.push(...this.joined(loading, Date.now()));
    const busy = new Map<JqWorker, J>();
    while (head < queue.length || busy.size > 0) {
      if (loading.length > 0) idle.push(...this.joined(loading, Date.now()));
      // Once the caller says stop (the run's jq budget is spent), nothing more is posted; what is posted is answered.
      if (head < queue.length && stop()) head = queue.length;
      while (head < queue.length && idle.length > 0) {
        const job = queue[head++]!;
        // The caller knows its answer already (its expression failed on another input): not posted, no answer.
        if (skip(job)) continue;
        const worker = idle.shift()!;
        this.asked++;
        worker.post(job.op, job.input, job.query, this.timeoutMs);
        busy.set(worker, job);
      }
      // Read before polling: a reply landing after the poll has changed it, so the wait returns at once.
      const rung = Atomics.load(this.bell, 0);
      const now = Date.now();
      let answered = false;
      for (const [worker, job] of busy) {
        const answer = worker.poll(now);
        if (answer === undefined) continue;
        answered = true;
        busy.delete(worker);
        const slot = this.workers.indexOf(worker);
        if (answer.kind === 'timeout' || answer.kind === 'crash') this.stop(worker);
        else idle.push(worker);
        const more = onAnswer(job, answer, slot);
        if (more) queue.push(...more);
        // The rest goes on with the workers left; with none left and jobs waiting (a follow-up too), a fresh one.
        if (idle.length === 0 && busy.size === 0 && head < queue.length) idle.push(...this.started(1));
      }
      if (!answered && busy.size > 0) {
        const deadline = Math.min(...[...busy.keys()].map((worker) => worker.deadline), ...loading.map((worker) => worker.startupDeadline));
        Atomics.wait(this.bell, 0, rung, Math.max(0, deadline - Date.now()));
      }
    }
  }

  /** The workers of the first `count` slots beyond the first, each started now when its slot was empty: loaded or still loading. */
  private starting(count: number): JqWorker[] {
    const workers: JqWorker[] = [];
    for (let slot = 1; slot < count; slot++) workers.push((this.workers[slot] ??= this.spawn()));
    return workers;
  }

  /** Takes out of `loading` the workers that finished loading: those ready are returned, those that failed are stopped. */
  private joined(loading: JqWorker[], now: number): JqWorker[] {
    const ready: JqWorker[] = [];
    for (const worker of [...loading]) {
      const state = worker.loadState(now);
      if (state === 'loading') continue;
      loading.splice(loading.indexOf(worker), 1);
      if (state === 'ready') ready.push(worker);
      else this.stop(worker);
    }
    return ready;
  }

  /** A new worker of this pool, loading jq on its own thread. */
  private spawn(): JqWorker {
    return new JqWorker({ ...this.seed, bell: this.bell });
  }

  async close(): Promise<void> {
    const running = this.workers.splice(0, this.workers.length, ...this.workers.map(() => undefined));
    await Promise.all(running.map((worker) => worker?.terminate()));
  }

  /**
   * The first `count` slots' workers, starting those that are not running, all at once. A worker
   * that cannot start is dropped, except the first: without it there is no jq, which is an error.
   */
  private started(count: number): JqWorker[] {
    for (let slot = 0; slot < count; slot++) this.workers[slot] ??= this.spawn();
    for (let slot = 0; slot < count; slot++) {
      try {
        this.workers[slot]!.ready();
      } catch (error) {
        this.workers[slot] = undefined;
        if (slot === 0) throw error;
      }
    }
    return this.workers.slice(0, count).filter((worker): worker is JqWorker => worker !== undefined);
  }

  private stop(worker: JqWorker): void {
    void worker.terminate();
    const slot = this.workers.indexOf(worker);
    if (slot >= 0) this.workers[slot] = undefined;
  }
}
