/**
 * The runtime of a process manager: follows the event store's global order from its own durable
 * checkpoint (a document in `_process-checkpoints`), one instance at a time (a lease, like a
 * projection's), and hands the events it cares about to a handler that may issue commands.
 * Projectors never issue commands; this is their counterpart for workers.
 *
 * At least once: the checkpoint is saved after the handler has finished with an event, so an event
 * whose handling was cut short (a crash, a stop, a failure) is handled again on restart; handlers
 * must be idempotent (derived command ids). Events the handler ignores move the checkpoint lazily
 * (every SAVE_EVERY events or after SAVE_AFTER_MS of quiet), so the global stream costs no write
 * per event. A failing handler ends the subscription; it resumes from the checkpoint after RETRY_MS.
 */
import type { Collection, DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { EventStore, RecordedEvent, Subscription } from '@papertrade/platform/event-store/event-store';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import type { Logger } from '@papertrade/platform/config/logger';
import type { Lease, LeaseProvider } from '@papertrade/platform/projections/lease';

export const PROCESS_CHECKPOINT_COLLECTION = '_process-checkpoints';
const SAVE_EVERY = 500;
const SAVE_AFTER_MS = 1000;
const RETRY_MS = 1000;
const LEASE_RETRY_MS = 2000;

export interface EventFollowerDeps {
  eventStore: EventStore;
  documents: DocumentStore;
  leases: LeaseProvider;
  logger: Logger;
}

export interface EventFollowerStatus {
  /** Whether this instance holds the lease and follows the store. */
  following: boolean;
  checkpoint: string | null;
  handled: number;
  failures: number;
  lastError: string | null;
}

export class EventFollower {
  private readonly checkpoints: Collection<{ position: string }>;
  private subscription: Subscription | undefined;
  private lease: Lease | null = null;
  private running = false;
  private saved: Position | undefined;
  private seen: Position | undefined;
  private unsaved = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private handled = 0;
  private failures = 0;
  private lastError: string | null = null;

  constructor(
    readonly name: string,
    private readonly deps: EventFollowerDeps,
    private readonly wants: (event: RecordedEvent) => boolean,
    private readonly handle: (event: RecordedEvent) => Promise<void>,
  ) {
    this.checkpoints = deps.documents.collection(PROCESS_CHECKPOINT_COLLECTION);
  }

  /** Takes the lease (or keeps trying every 2 s while another instance holds it) and follows. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.tryFollow();
  }

  private async tryFollow(): Promise<void> {
    if (!this.running) return;
    try {
      this.lease ??= await this.deps.leases.tryAcquire(`process:${this.name}`);
    } catch (error) {
      this.deps.logger.warn('process manager lease failed', { processManager: this.name, error: String(error) });
    }
    if (!this.lease) {
      this.retryTimer = setTimeout(() => void this.tryFollow(), LEASE_RETRY_MS);
      this.retryTimer.unref();
      return;
    }
    try {
      const stored = await this.checkpoints.get(this.name);
      this.saved = this.seen = stored?.position as Position | undefined;
      this.deps.logger.info('process manager following', { processManager: this.name, from: this.saved ?? 'start' });
      const subscription = this.deps.eventStore.subscribe((event) => this.onEvent(event), this.saved ? { after: this.saved } : {});
      this.subscription = subscription;
      subscription.done.catch((error: unknown) => this.failed(error));
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    this.subscription = undefined;
    if (!this.running) return;
    this.failures += 1;
    this.lastError = error instanceof Error ? error.message : String(error);
    this.deps.logger.error('process manager failed; resuming from its checkpoint', { processManager: this.name, error: this.lastError });
    this.retryTimer = setTimeout(() => void this.tryFollow(), RETRY_MS);
    this.retryTimer.unref();
  }

  private async onEvent(event: RecordedEvent): Promise<void> {
    if (this.wants(event)) {
      await this.handle(event);
      this.handled += 1;
      this.seen = event.position;
      await this.save();
      return;
    }
    this.seen = event.position;
    this.unsaved += 1;
    clearTimeout(this.saveTimer);
    if (this.unsaved >= SAVE_EVERY) await this.save();
    else {
      this.saveTimer = setTimeout(() => void this.save().catch(() => {}), SAVE_AFTER_MS);
      this.saveTimer.unref();
    }
  }

  private async save(): Promise<void> {
    clearTimeout(this.saveTimer);
    const position = this.seen;
    if (!position || position === this.saved) return;
    await this.checkpoints.put(this.name, { position });
    this.saved = position;
    this.unsaved = 0;
  }

  /** Stops following (waits for the event in hand), saves the checkpoint and releases the lease. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retryTimer);
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.save().catch(() => {});
    await this.lease?.release();
    this.lease = null;
  }

  /** Resolves once the checkpoint has reached `position` (tests, bench). */
  async reached(position: Position | undefined, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (comparePositions(this.seen, position) < 0) {
      if (Date.now() > deadline) throw new Error(`${this.name} did not reach ${String(position)} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  status(): EventFollowerStatus {
    return { following: this.subscription !== undefined, checkpoint: this.saved ?? null, handled: this.handled, failures: this.failures, lastError: this.lastError };
  }
}
