/**
 * `X-Min-Position: <position>` lets a client read its own write: the request waits (at most 2 s)
 * until the projections it reads have applied that position.
 *
 * The header cannot be turned against the service: a position beyond the event store's head (which
 * no projection will reach) is refused with 400 before anything waits (`minPositionWithinHead`, at
 * the top of each app), the number of waiting requests is capped per process (MIN_POSITION_MAX_WAITERS
 * in `ReadModels`: beyond it a request serves what there is with `X-Position-Reached: false`), and
 * the waiters share one checkpoint read per tick.
 */
import type { Context, Middleware } from 'koa';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { comparePositions, positionSchema, type Position } from '../event-store/position';
import type { ReadModels } from '../projections/read-models';
import { setReadFreshness } from './read-freshness';

export const MIN_POSITION_WAIT_MS = 2000;

/**
 * The event store's head as far as a request needs it: a head at or after `atLeast` when there is
 * one. Implementations may answer from a cache that is only refreshed when asked beyond it.
 */
export type HeadPort = (atLeast: Position) => Promise<Position | undefined>;

/**
 * A `HeadPort` over `read` (e.g. `() => eventStore.headPosition()`): answers from the last head read
 * while that covers the position asked about, and reads again only when asked beyond it. Concurrent
 * reads are one read. A caller that joined a read started before it arrived, and finds it short,
 * takes one more read (which started after its position was written, if it ever was).
 */
export function cachedHead(read: () => Promise<Position | undefined>): HeadPort {
  let cached: Position | undefined;
  let reading: Promise<Position | undefined> | undefined;
  const reread = () =>
    (reading ??= read()
      .then((head) => {
        if (comparePositions(head, cached) > 0) cached = head;
        return cached;
      })
      .finally(() => {
        reading = undefined;
      }));
  return async (atLeast) => {
    if (comparePositions(cached, atLeast) >= 0) return cached;
    const joined = reading !== undefined;
    const head = await reread();
    return joined && comparePositions(head, atLeast) < 0 ? reread() : head;
  };
}

function parseMinPosition(ctx: Context): Position | undefined {
  const raw = ctx.get('x-min-position');
  if (!raw) return undefined;
  const parsed = positionSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError('X-Min-Position: must be a position returned by a command');
  return parsed.data;
}

/**
 * App middleware, before anything waits: refuses (400) an X-Min-Position that is malformed or
 * beyond the event store's head, since no projection would ever reach it.
 */
export function minPositionWithinHead(head: HeadPort): Middleware {
  return async (ctx, next) => {
    const position = parseMinPosition(ctx);
    if (position !== undefined) {
      const latest = await head(position);
      if (comparePositions(position, latest) > 0) {
        throw new ValidationError(
          `X-Min-Position: ${position} is beyond the last event written (${latest ?? 'none yet'}); send a position returned by a command`,
        );
      }
    }
    await next();
  };
}

export async function waitForMinPosition(ctx: Context, readModels: ReadModels, projections: string[]): Promise<void> {
  const position = parseMinPosition(ctx);
  if (position === undefined) return;
  const reached = await readModels.waitFor(projections, position, MIN_POSITION_WAIT_MS);
  ctx.set('X-Position-Reached', reached ? 'true' : 'false');
  // Cached reads must hold the position; when the wait ran out, only the store may have it by now.
  setReadFreshness(ctx, reached ? { atLeast: position } : { bypass: true });
}

/** Route middleware form: `readsFrom(readModels, 'users')`. */
export function readsFrom(readModels: ReadModels, ...projections: string[]) {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    await waitForMinPosition(ctx, readModels, projections);
    await next();
  };
}
