/**
 * A worker's periodic rounds (the subscription expiry, the daily auto-retrain): one round at `start`,
 * then the next `intervalMs` after each round ended (rounds never overlap), until `stop`, which waits
 * for the round under way. A round's failure is its own to count and log: the next round runs anyway.
 */
import { realTimer, type Timer } from './signal-engine';

export class PeriodicRounds {
  private running = false;
  private handle: unknown;
  private round: Promise<void> | undefined;

  constructor(
    private readonly runOnce: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly timer: Timer = realTimer,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** A round now, then one every intervalMs until `stop`. Starting twice is harmless. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.timer.clear(this.handle);
    this.handle = undefined;
    await this.round;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.handle = this.timer.set(() => {
      this.round = this.runOnce()
        .then(() => {}, () => {})
        .finally(() => this.schedule(this.intervalMs));
    }, delayMs);
  }
}
