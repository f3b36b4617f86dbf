/**
 * Read-your-own-writes without a header: after a command answered 2xx, the same client's next read
 * shows its effect even when it sends no X-Min-Position (a script that places a trade and lists its
 * trades, an admin who edits a user and lists the users).
 *
 * A route group whose reads concern the caller declares it once with `readsOwnWrites(ownWrites)`,
 * naming the projections each route reads as it does for X-Min-Position. For a signed-in request
 * without the header, the caller's last write is the last event whose actor is the caller, on any
 * stream: their own streams, and for an admin the users they edited (a by-stream rule would miss
 * those). That is one index probe in the SQL event store (`lastPositionByActor`). Events that others
 * write on the caller's streams (the bot's trades, a webhook's payment) are not the caller's writes
 * and are not waited for.
 *
 * Cost when nothing is pending: the probe only. What the projections have applied is known in
 * process from their change notices (`ReadModels.reachedAtLeast`), and the probe asks only for a
 * write after that, so the wait (and its checkpoint reads) happens only when the caller's write is
 * not projected yet. The wait is X-Min-Position's: at most MIN_POSITION_WAIT_MS, within the same
 * cap on waiting requests; `X-Position-Reached` says how it ended when the request waited (false too
 * when the caller's last write could not be looked up: the read is served from what there is).
 *
 * The outcome is also what a read through the per-process read cache must reflect (read-freshness.ts,
 * projections/read-model-cache.ts): the caller's writes, which all lie at or before the position
 * found applied (or the write waited for), so an entry read before that position still serves when
 * the caller wrote nothing after it, and a wait that ran out reads the store.
 */
import type { Context, Middleware } from 'koa';
import type { AuthState } from '../auth/guards';
import type { Position } from '../event-store/position';
import type { ReadModels } from '../projections/read-models';
import type { ReadFreshness } from '../projections/read-model-cache';
import { MIN_POSITION_WAIT_MS, waitForMinPosition } from './min-position';
import { readFreshness, setReadFreshness, stricterFreshness } from './read-freshness';

/** The last write of an actor after a position (the event store's `lastPositionByActor`). */
export type LastWriteOf = (actor: string, after?: Position) => Promise<Position | undefined>;

export class OwnWrites {
  constructor(
    readonly readModels: ReadModels,
    private readonly lastWriteOf: LastWriteOf,
    private readonly waitMs = MIN_POSITION_WAIT_MS,
  ) {}

  /**
   * Waits until `projections` have applied the actor's last write. 'none' when nothing was pending
   * (no wait), else whether the wait got there.
   */
  async waitFor(actor: string, projections: readonly string[]): Promise<'none' | 'reached' | 'not-reached'> {
    return (await this.settle(actor, projections)).outcome;
  }

  /**
   * `waitFor`, and what a cached read must reflect afterwards (read-model-cache.ts): the actor's
   * writes, all at or before the position the projections had applied ('none') or the write waited
   * for ('reached'); the store itself when the wait ran out or the write could not be looked up.
   */
  async settle(actor: string, projections: readonly string[]): Promise<{ outcome: 'none' | 'reached' | 'not-reached'; freshness: ReadFreshness }> {
    let floor: Position | undefined;
    let pending: Position | undefined;
    try {
      floor = await this.readModels.reachedAtLeast(projections);
      pending = await this.lastWriteOf(actor, floor);
    } catch {
      // The event store (or a checkpoint) cannot be read: serve what the read models hold, as a wait
      // that ran out would, rather than fail a read that does not need the event store otherwise.
      return { outcome: 'not-reached', freshness: { bypass: true } };
    }
    // No floor and nothing pending: the actor has never written; nothing to reflect.
    if (pending === undefined) return { outcome: 'none', freshness: floor === undefined ? {} : { atLeast: floor, actor } };
    const reached = await this.readModels.waitFor([...projections], pending, this.waitMs);
    return reached ? { outcome: 'reached', freshness: { atLeast: pending, actor } } : { outcome: 'not-reached', freshness: { bypass: true } };
  }
}

/**
 * Route middleware for a group of user-scoped reads: `const reads = readsOwnWrites(deps.ownWrites)`,
 * then `reads(PORTFOLIOS_PROJECTION, ...)` on each route. X-Min-Position is waited for as `readsFrom`
 * does; a signed-in caller also waits for their own last write, with the header or without it: a
 * client that sends a position older than its last write (one kept from an earlier call) still
 * reads that write. Visitors never wait for anyone's write.
 */
export function readsOwnWrites(ownWrites: OwnWrites) {
  return (...projections: string[]): Middleware =>
    async (ctx: Context, next) => {
      let asked: ReadFreshness | undefined;
      if (ctx.get('x-min-position')) {
        await waitForMinPosition(ctx, ownWrites.readModels, projections);
        asked = readFreshness(ctx);
      }
      const user = (ctx.state as AuthState).user;
      if (user) {
        const { outcome, freshness } = await ownWrites.settle(user.id, projections);
        if (outcome !== 'none') ctx.set('X-Position-Reached', outcome === 'reached' ? 'true' : 'false');
        setReadFreshness(ctx, asked ? stricterFreshness(asked, freshness) : freshness);
      }
      await next();
    };
}
