/**
 * A small pool of worker threads for walk-forward analyses (issue 18): each window of a walk-forward
 * (its parameter sets in-sample, the best out of sample) is a job for one thread, consecutive windows
 * for the same thread (dispatch), so the windows run on every core the pool has (default: the machine's parallelism, at most 4). The windows' outcomes
 * are assembled in order into the report (walkForwardReport), the same report runWalkForward gives in
 * one thread (a spec checks it).
 *
 * The threads run walk-forward-thread.ts bundled once per process (thread-bundle.ts: tsx's per-module
 * compilation defines every closure's name at run time: about 7 % of a window). A thread that dies fails
 * the window it ran and is replaced.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ValidatedWalkForwardRequest, WalkForwardReport } from '@papertrade/domain/backtest/contracts';
import { walkForwardReport, windowJobs, type WindowOutcome } from '@papertrade/domain/backtest/walk-forward';
import type { EngineRules } from '@papertrade/domain/trading/engine/paper-engine';
import { walkForwardThreadCode } from './thread-bundle';
import type { ThreadReply, ThreadRequest } from './walk-forward-thread';

interface Pending {
  request: ThreadRequest;
  /** The thread slot it is meant for (see dispatch). */
  slot: number;
  resolve: (outcome: WindowOutcome) => void;
  reject: (error: Error) => void;
  onProgress: (done: number) => void;
}

export class WalkForwardPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<Worker, Pending>();
  /** Each thread's slot (a replacement takes the slot of the thread it replaces). */
  private readonly slots = new Map<Worker, number>();
  private nextId = 1;
  private closed = false;
  private readonly booted = new Set<Worker>();
  private readonly onBoot: Array<() => void> = [];

  /**
   * `youngGenerationMb`: each thread's young generation (V8's new space). A set's run allocates tens of
   * megabytes of short-lived objects (the engine's decisions and events); V8's default (16 MB semi-spaces)
   * spent about a quarter of a warm run in scavenges, a larger one about a sixth (bench/README.md).
   */
  constructor(
    readonly size = Math.max(1, Math.min(4, availableParallelism())),
    private readonly youngGenerationMb = 192,
    /** Told each window a thread takes (its slot and the window's index), in order: for tests and tracing. */
    private readonly onTake?: (slot: number, window: number) => void,
  ) {
    for (let i = 0; i < size; i++) this.spawn(i);
  }

  private spawn(slot: number): void {
    const worker = new Worker(walkForwardThreadCode(), { eval: true, resourceLimits: { maxYoungGenerationSizeMb: this.youngGenerationMb } });
    worker.on('message', (reply: ThreadReply) => this.onReply(worker, reply));
    worker.on('error', (error) => this.onFailure(worker, error));
    worker.on('exit', (code) => this.onFailure(worker, new Error(`a walk-forward thread exited (${code})`)));
    worker.unref();
    this.slots.set(worker, slot);
    this.workers.push(worker);
    this.idle.push(worker);
  }

  /** The walk-forward of `request` over the market of `key` (the simulation's 8 key words), windows in parallel. */
  async run(request: ValidatedWalkForwardRequest, rules: EngineRules, key: Uint32Array, onProgress?: (fraction: number) => void, userId?: string): Promise<WalkForwardReport> {
    if (this.closed) throw new Error('the walk-forward pool is closed');
    const jobs = windowJobs(request, rules, userId);
    const total = jobs.reduce((a, j) => a + j.sets.length, 0);
    const done = jobs.map(() => 0);
    const report = () => onProgress?.(done.reduce((a, b) => a + b, 0) / total);
    const windows = jobs.map(
      (job, i) =>
        new Promise<WindowOutcome>((resolve, reject) => {
          this.queue.push({
            request: { id: this.nextId++, key: Array.from(key), job },
            slot: Math.floor((i * this.size) / jobs.length),
            resolve,
            reject,
            onProgress: (n) => {
              done[i] = n;
              report();
            },
          });
        }),
    );
    // Every window queued first, then handed out: dispatched as each was queued, the first idle thread
    // (the second slot's) took window 0, then went on to its own block's first, two cold starts.
    this.dispatch();
    return walkForwardReport(request, await Promise.all(windows));
  }

  /** Resolves once every thread has loaded (a thread compiles the engine's modules when it starts: a service's pool does that once, at start). */
  async ready(): Promise<void> {
    while (!this.closed && this.workers.some((w) => !this.booted.has(w))) {
      // Held while waiting (the idle threads are unref'd: a process waiting on this alone would exit).
      for (const w of this.workers) if (!this.booted.has(w)) w.ref();
      await new Promise<void>((resolve) => this.onBoot.push(resolve));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.onBoot.splice(0)) wake();
    for (const p of this.queue.splice(0)) p.reject(new Error('the walk-forward pool closed'));
    for (const [, p] of this.running) p.reject(new Error('the walk-forward pool closed'));
    this.running.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  /**
   * Idle threads take queued windows: each its own slot's first (a request's windows are cut into one
   * consecutive block per slot, so a thread reads about 1/size of the period's path, not all of it: the
   * path's ticks and candles are what a thread computes once and keeps), else, once its block is done,
   * another slot's last window (so no thread idles while windows wait).
   */
  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const slot = this.slots.get(worker);
      let at = this.queue.findIndex((p) => p.slot === slot);
      if (at < 0) at = this.queue.length - 1;
      const pending = this.queue.splice(at, 1)[0]!;
      this.running.set(worker, pending);
      this.onTake?.(slot ?? 0, pending.request.job.window.index);
      worker.ref();
      worker.postMessage(pending.request);
    }
  }

  private onReply(worker: Worker, reply: ThreadReply): void {
    if (reply.type === 'ready') {
      this.booted.add(worker);
      if (!this.running.has(worker)) worker.unref();
      for (const wake of this.onBoot.splice(0)) wake();
      return;
    }
    const pending = this.running.get(worker);
    if (!pending || pending.request.id !== reply.id) return;
    if (reply.type === 'progress') {
      pending.onProgress(reply.done);
      return;
    }
    this.running.delete(worker);
    worker.unref();
    this.idle.push(worker);
    if (reply.type === 'done') pending.resolve(reply.outcome);
    else pending.reject(new Error(reply.message));
    this.dispatch();
  }

  private onFailure(worker: Worker, error: Error): void {
    const known = this.workers.indexOf(worker);
    if (known < 0) return; // already replaced (an error is followed by an exit)
    this.workers.splice(known, 1);
    this.booted.delete(worker);
    const slot = this.slots.get(worker) ?? 0;
    this.slots.delete(worker);
    const idle = this.idle.indexOf(worker);
    if (idle >= 0) this.idle.splice(idle, 1);
    const pending = this.running.get(worker);
    this.running.delete(worker);
    pending?.reject(error);
    if (this.closed) return;
    void worker.terminate();
    this.spawn(slot);
    this.dispatch();
  }
}
