/**
 * A small pool of worker threads for walk-forward analyses (issue 18): each window of a walk-forward
 * (its parameter sets in-sample, the best out of sample) is a job for one thread, so the windows run
 * on every core the pool has (default: the machine's parallelism, at most 4). The windows' outcomes
 * are assembled in order into the report (walkForwardReport), the same report runWalkForward gives in
 * one thread (a spec checks it).
 *
 * The threads run TypeScript through tsx, as the services do: each starts on thread-bootstrap.mjs,
 * which registers tsx's loader in the thread and imports walk-forward-thread.ts. A thread that dies
 * fails the window it ran and is replaced.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ValidatedWalkForwardRequest, WalkForwardReport } from '@papertrade/domain/backtest/contracts';
import { walkForwardReport, windowJobs, type WindowOutcome } from '@papertrade/domain/backtest/walk-forward';
import type { EngineRules } from '@papertrade/domain/trading/engine/paper-engine';
import type { ThreadReply, ThreadRequest } from './walk-forward-thread';

interface Pending {
  request: ThreadRequest;
  resolve: (outcome: WindowOutcome) => void;
  reject: (error: Error) => void;
  onProgress: (done: number) => void;
}

export class WalkForwardPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<Worker, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(readonly size = Math.max(1, Math.min(4, availableParallelism()))) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(new URL('./thread-bootstrap.mjs', import.meta.url), { workerData: { entry: new URL('./walk-forward-thread.ts', import.meta.url).href } });
    worker.on('message', (reply: ThreadReply) => this.onReply(worker, reply));
    worker.on('error', (error) => this.onFailure(worker, error));
    worker.on('exit', (code) => this.onFailure(worker, new Error(`a walk-forward thread exited (${code})`)));
    worker.unref();
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
    const outcomes = await Promise.all(
      jobs.map(
        (job, i) =>
          new Promise<WindowOutcome>((resolve, reject) => {
            this.queue.push({
              request: { id: this.nextId++, key: Array.from(key), job },
              resolve,
              reject,
              onProgress: (n) => {
                done[i] = n;
                report();
              },
            });
            this.dispatch();
          }),
      ),
    );
    return walkForwardReport(request, outcomes);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('the walk-forward pool closed'));
    for (const [, p] of this.running) p.reject(new Error('the walk-forward pool closed'));
    this.running.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.running.set(worker, pending);
      worker.ref();
      worker.postMessage(pending.request);
    }
  }

  private onReply(worker: Worker, reply: ThreadReply): void {
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
    const idle = this.idle.indexOf(worker);
    if (idle >= 0) this.idle.splice(idle, 1);
    const pending = this.running.get(worker);
    this.running.delete(worker);
    pending?.reject(error);
    if (this.closed) return;
    void worker.terminate();
    this.spawn();
    this.dispatch();
  }
}
