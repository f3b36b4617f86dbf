/**
 * One writer per projection on MongoDB (production mode): a lease document per name,
 * `{ _id: name, owner, expiresAt }`, taken only when it is free or expired, renewed by its holder
 * well within its time to live, deleted on release. A crashed holder stops renewing, so its lease
 * expires and another instance takes over.
 *
 * Every time is the server's (`$$NOW` in pipeline updates), so clocks of different containers never
 * matter. Unlike a PostgreSQL session lock, a lease can be lost by a holder that stalls for longer
 * than its time to live; `onLost` reports it (the projections stay correct, their documents only
 * move forward in position, but two writers may briefly overlap).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { MongoClient, type Collection, type Db } from 'mongodb';
import type { Lease, LeaseProvider } from './lease';
import { databaseFromUrl } from '../document-store/mongodb-document-store';

interface LeaseDoc {
  _id: string;
  owner: string;
  expiresAt: Date;
}

export interface MongoLeaseOptions {
  /** Collection holding the lease documents. Default '_leases'. */
  collection?: string;
  /** How long a lease lasts without renewal. Default 15 s. */
  ttlMs?: number;
  /** How often the holder renews. Default a third of the time to live. */
  renewEveryMs?: number;
  /** This instance's name in lease documents. Default host-pid-random. */
  owner?: string;
  /** Called when a renewal finds the lease taken over (this instance stalled beyond the TTL). */
  onLost?: (name: string) => void;
}

const DUPLICATE_KEY = 11000;

export class MongoLeaseProvider implements LeaseProvider {
  private readonly leases: Collection<LeaseDoc>;
  private readonly ttlMs: number;
  private readonly renewEveryMs: number;
  readonly owner: string;
  private readonly onLost: (name: string) => void;
  private readonly held = new Map<string, { timer: NodeJS.Timeout; release(): Promise<void> }>();
  private ownedClient: MongoClient | undefined;

  /** A provider on its own connection (closed by `close()`). */
  static async connect(url: string, options: MongoLeaseOptions & { database?: string } = {}): Promise<MongoLeaseProvider> {
    const client = new MongoClient(url);
    await client.connect();
    const provider = new MongoLeaseProvider(client.db(options.database ?? databaseFromUrl(url) ?? 'papertrade'), options);
    provider.ownedClient = client;
    return provider;
  }

  constructor(db: Db, options: MongoLeaseOptions = {}) {
    this.leases = db.collection<LeaseDoc>(options.collection ?? '_leases');
    this.ttlMs = options.ttlMs ?? 15_000;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(this.ttlMs / 3));
    if (this.renewEveryMs >= this.ttlMs) throw new RangeError('renewEveryMs must be shorter than ttlMs');
    this.owner = options.owner ?? `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.onLost = options.onLost ?? ((name) => process.emitWarning(`lease ${name} was taken over by another instance`, 'LeaseLost'));
  }

  async tryAcquire(name: string): Promise<Lease | null> {
    if (this.held.has(name)) return null;
    const taken = await this.claim(name, true);
    if (!taken) return null;

    let released = false;
    const timer = setInterval(() => {
      void this.claim(name, false).then(
        (ok) => {
          if (!ok && !released) {
            stop();
            this.onLost(name);
          }
        },
        // A failed renewal (server briefly unreachable) is retried at the next tick; the TTL covers it.
        () => undefined,
      );
    }, this.renewEveryMs);
    timer.unref();
    const stop = () => {
      released = true;
      clearInterval(timer);
      this.held.delete(name);
    };
    const release = async () => {
      if (released) return;
      stop();
      await this.leases.deleteOne({ _id: name, owner: this.owner });
    };
    this.held.set(name, { timer, release });
    return { release };
  }

  async close(): Promise<void> {
    await Promise.all([...this.held.values()].map((h) => h.release().catch(() => undefined)));
    if (this.ownedClient) await this.ownedClient.close();
  }

  /**
   * `create` true: takes the lease when it is free, expired or already ours, in one atomic upsert
   * whose pipeline keeps a live lease of another owner untouched (MongoDB allows no `$expr` in an
   * upsert's filter, so the condition lives in the update). `create` false: the holder's renewal,
   * which never re-creates a released lease.
   */
  private async claim(name: string, create: boolean): Promise<boolean> {
    const renewed = { $add: ['$$NOW', this.ttlMs] };
    if (!create) {
      const result = await this.leases.updateOne({ _id: name, owner: this.owner }, [{ $set: { expiresAt: renewed } }]);
      return result.matchedCount > 0;
    }
    const takeable = {
      $or: [{ $eq: ['$owner', this.owner] }, { $lte: [{ $ifNull: ['$expiresAt', new Date(0)] }, '$$NOW'] }],
    };
    const update = [
      { $set: { owner: { $cond: [takeable, this.owner, '$owner'] }, expiresAt: { $cond: [takeable, renewed, '$expiresAt'] } } },
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        const after = await this.leases.findOneAndUpdate({ _id: name }, update, { upsert: true, returnDocument: 'after' });
        return after?.owner === this.owner;
      } catch (err) {
        // Two first claims raced to insert: the document exists now, so the second try decides.
        if ((err as { code?: unknown } | null)?.code !== DUPLICATE_KEY || attempt >= 2) throw err;
      }
    }
  }
}
