/**
 * `X-Min-Position: <position>` lets a client read its own write: the request waits (at most 2 s)
 * until the projections it reads have applied that position.
 */
import type { Context } from 'koa';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { positionSchema } from '../event-store/position';
import type { ReadModels } from '../projections/read-models';

export const MIN_POSITION_WAIT_MS = 2000;

export async function waitForMinPosition(ctx: Context, readModels: ReadModels, projections: string[]): Promise<void> {
  const raw = ctx.get('x-min-position');
  if (!raw) return;
  const parsed = positionSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError('X-Min-Position: must be a position returned by a command');
  const reached = await readModels.waitFor(projections, parsed.data, MIN_POSITION_WAIT_MS);
  ctx.set('X-Position-Reached', reached ? 'true' : 'false');
}

/** Route middleware form: `readsFrom(readModels, 'users')`. */
export function readsFrom(readModels: ReadModels, ...projections: string[]) {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    await waitForMinPosition(ctx, readModels, projections);
    await next();
  };
}
