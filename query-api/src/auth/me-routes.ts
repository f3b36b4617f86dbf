/** GET /api/auth/me */
import Router from '@koa/router';
import { USERS_PROJECTION, toMe } from '@papertrade/domain/auth/user-view';
import { currentUser } from '@papertrade/platform/auth/guards';
import { readsFrom } from '@papertrade/platform/http/min-position';
import type { QueryApiDeps } from '../deps';

export function meRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  router.get('/api/auth/me', readsFrom(deps.readModels, USERS_PROJECTION), async (ctx) => {
    ctx.body = toMe(currentUser(ctx));
  });
  return router;
}
