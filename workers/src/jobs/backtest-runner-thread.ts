/**
 * One worker thread for the backtest jobs of this process (backtest-thread.ts): a backtest runs off
 * the event loop, so the job runner keeps renewing its lease and publishing JOB_PROGRESS while it
 * runs. Started on first use and kept; the job runner runs one job at a time per process, and a second
 * call queues behind the first. A run asked to stop (its claim lost) has the thread terminated (a
 * fresh one starts for the next run): a synchronous pass cannot be interrupted otherwise.
 *
 * The thread runs TypeScript through tsx, as the services do. Node 20 does not carry the parent's
 * `--import tsx` loader into a worker thread (a .ts entry fails with ERR_UNKNOWN_FILE_EXTENSION), so the
 * thread starts from a small script that registers tsx's loader (tsx/esm/api) and then imports the
 * thread's module.
 */
import { Worker } from 'node:worker_threads';
import type { BacktestRun } from '@papertrade/domain/backtest/contracts';
import type { BacktestThreadReply, BacktestThreadRequest } from './backtest-thread';

export class BacktestRunnerThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private start(): Worker {
    if (this.worker) return this.worker;
    const entry = new URL('./backtest-thread.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); }).catch((error) => { console.error(error); process.exit(1); });`;
    const worker = new Worker(bootstrap, { eval: true });
    worker.unref();
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
    return worker;
  }

  /** Runs one backtest on the thread (after any run before it). */
  run(request: Omit<BacktestThreadRequest, 'id'>, progress: (fraction: number) => void, signal: AbortSignal): Promise<BacktestRun> {
    const next = this.queue.then(() => this.runNow(request, progress, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private runNow(request: Omit<BacktestThreadRequest, 'id'>, progress: (fraction: number) => void, signal: AbortSignal): Promise<BacktestRun> {
    if (this.closed) return Promise.reject(new Error('the backtest thread is closed'));
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<BacktestRun>((resolve, reject) => {
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
        worker.unref();
      };
      const onMessage = (reply: BacktestThreadReply) => {
        if (reply.id !== id) return;
        if (reply.type === 'progress') return progress(reply.fraction);
        cleanup();
        if (reply.type === 'done') resolve(reply.run);
        else reject(new Error(reply.message));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(signal.aborted ? (signal.reason as Error) : new Error(`the backtest thread exited (${code})`));
      };
      const onAbort = () => void worker.terminate();
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.ref();
      worker.postMessage({ ...request, id } satisfies BacktestThreadRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }
}
