/**
 * GET /api/auth/me. With X-Min-Position the user is read at that position (authenticate); without
 * it, once the users projection has applied the caller's own last write, so a plain client that just
 * paid or changed plan reads the new tier (platform/src/auth/guards.ts userAfterOwnWrites).
 */
import Router from '@koa/router';
import { USERS_PROJECTION, toMe } from '@papertrade/domain/auth/user-view';
import { userAfterOwnWrites } from '@papertrade/platform/auth/guards';
import { readsFrom } from '@papertrade/platform/http/min-position';
import type { QueryApiDeps } from '../deps';

export function meRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  router.get('/api/auth/me', readsFrom(deps.readModels, USERS_PROJECTION), async (ctx) => {
    ctx.body = toMe(await userAfterOwnWrites(ctx));
  });
  return router;
}
