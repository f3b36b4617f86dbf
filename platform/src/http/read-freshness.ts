/**
 * What the reads of a request must reflect (projections/read-model-cache.ts `ReadFreshness`), as the
 * position middlewares found it: X-Min-Position (min-position.ts) and the caller's own last write
 * (own-writes.ts) set it on the request's state; a read through the cache passes `readFreshness(ctx)`.
 * Without either (visitors, public reads without the header) any entry the cache still holds serves.
 */
import type { Context } from 'koa';
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
