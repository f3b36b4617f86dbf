/**
 * What the reads of a request must reflect (projections/read-model-cache.ts `ReadFreshness`), as the
 * position middlewares found it: X-Min-Position (min-position.ts) and the caller's own last write
 * (own-writes.ts) set it on the request's state; a read through the cache passes `readFreshness(ctx)`.
 * Without either (visitors, public reads without the header) any entry the cache still holds serves.
 */
import type { Context } from 'koa';
import { comparePositions } from '../event-store/position';
import type { ReadFreshness } from '../projections/read-model-cache';

interface FreshnessState {
  readFreshness?: ReadFreshness;
}

export function setReadFreshness(ctx: Context, freshness: ReadFreshness): void {
  (ctx.state as FreshnessState).readFreshness = freshness;
}

export function readFreshness(ctx: Context): ReadFreshness {
  return (ctx.state as FreshnessState).readFreshness ?? {};
}

/**
 * What a read must reflect to meet both `a` and `b` (X-Min-Position and the caller's own writes): the
 * store itself when either must bypass the cache, else every event up to the later position. The
 * actor's exception (an entry from before the position serves when the actor wrote nothing since) is
 * dropped: it only answers for that actor's writes, not for the other requirement's position.
 */
export function stricterFreshness(a: ReadFreshness, b: ReadFreshness): ReadFreshness {
  if (a.bypass || b.bypass) return { bypass: true };
  if (a.atLeast === undefined) return b;
  if (b.atLeast === undefined) return a;
  return { atLeast: comparePositions(a.atLeast, b.atLeast) >= 0 ? a.atLeast : b.atLeast };
}
