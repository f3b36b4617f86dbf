/** GET /api/plans: the one price list, public. */
import Router from '@koa/router';
import { plans } from '@papertrade/domain/plans/catalogue';

export function plansRoutes(): Router {
  const router = new Router();
  router.get('/api/plans', async (ctx) => {
    ctx.body = plans;
  });
  return router;
}
