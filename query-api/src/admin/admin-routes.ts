/** GET /api/admin/users, GET /api/admin/stats (admins only). */
import Router from '@koa/router';
import { z } from 'zod';
import type { AdminStats } from '@papertrade/domain/admin/contracts';
import { USERS_PROJECTION, toMe, type UserView } from '@papertrade/domain/auth/user-view';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { requireAdmin } from '@papertrade/platform/auth/guards';
import { readsFrom } from '@papertrade/platform/http/min-position';
import { describeZodError } from '@papertrade/platform/http/problem-middleware';
import type { QueryApiDeps } from '../deps';

const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  skip: z.coerce.number().int().min(0).default(0),
});

export function adminRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  router.get('/api/admin/users', requireAdmin, readsFrom(deps.readModels, USERS_PROJECTION), async (ctx) => {
    const query = listQuerySchema.safeParse(ctx.query);
    if (!query.success) throw new ValidationError(describeZodError(query.error));
    const users = await deps.readModels.collection<UserView>(USERS_PROJECTION);
    const list = await users.find({ sort: [{ field: 'createdAt', direction: 'desc' }], limit: query.data.limit, skip: query.data.skip });
    ctx.body = list.map(toMe);
  });

  router.get('/api/admin/stats', requireAdmin, readsFrom(deps.readModels, USERS_PROJECTION), async (ctx) => {
    const users = await deps.readModels.collection<UserView>(USERS_PROJECTION);
    const month = deps.clock().toISOString().slice(0, 7);
    const [totalUsers, premiumUsers, activeSubscriptions, newThisMonth] = await Promise.all([
      users.count(),
      users.count({ premium: true }),
      users.count({ subscriptionStatus: 'ACTIVE' }),
      users.count({ createdMonth: month }),
    ]);
    const stats: AdminStats = { totalUsers, premiumUsers, activeSubscriptions, newThisMonth };
    ctx.body = stats;
  });
  return router;
}
