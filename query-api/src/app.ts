/**
 * query-api: every GET, served from read models only, except the audit routes (src/audit), which
 * replay event streams through the domain's evolve functions by design; and POST /api/ai-chat, the AI
 * chat, which only reads too (src/assistant/chat-routes.ts says why it is here).
 */
import Koa from 'koa';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type Router from '@koa/router';
import { authenticate } from '@papertrade/platform/auth/guards';
import { apiNotFound, problemMiddleware } from '@papertrade/platform/http/problem-middleware';
import { minPositionWithinHead } from '@papertrade/platform/http/min-position';
import { securityHeaders } from '@papertrade/platform/http/security-headers';
import type { QueryApiDeps } from './deps';
import { meRoutes } from './auth/me-routes';
import { adminRoutes } from './admin/admin-routes';
import { plansRoutes } from './plans/plans-routes';
import { publicStatsRoutes } from './public-stats/public-stats-routes';
import { marketRoutes } from './market/market-routes';
import { signalsRoutes } from './signals/signals-routes';
import { tradingRoutes } from './trading/trading-routes';
import { mlRoutes } from './ml/ml-routes';
import { auditRoutes } from './audit/audit-routes';
import { subscriptionRoutes } from './subscription/subscription-routes';
import { openApiRoutes } from './openapi/openapi-routes';
import { exchangeRoutes } from './exchanges/exchange-routes';
import { chatRoutes } from './assistant/chat-routes';
import { strategyRoutes } from './strategies/strategy-routes';
import { backtestRoutes } from './backtest/backtest-routes';

/** Every router of query-api (the OpenAPI spec lists their routes against the contracts). */
export function queryApiRouters(deps: QueryApiDeps): Router[] {
  return [meRoutes(deps), adminRoutes(deps), plansRoutes(), publicStatsRoutes(deps), marketRoutes(deps), signalsRoutes(deps), tradingRoutes(deps), mlRoutes(deps), subscriptionRoutes(deps), auditRoutes(deps), exchangeRoutes(deps), openApiRoutes(), chatRoutes(deps), backtestRoutes(deps), strategyRoutes(deps)];
}

export function queryApiRoutes(deps: QueryApiDeps): Middleware {
  const routers = queryApiRouters(deps);
  const health: Middleware = async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/api/health') ctx.body = { status: 'ok' };
    else await next();
  };
  return compose([health, ...routers.map((r) => r.routes() as Middleware)]);
}

export function createQueryApi(deps: QueryApiDeps): Koa {
  const app = new Koa({ proxy: deps.trustProxy });
  // Outermost: problem answers get the headers too.
  app.use(securityHeaders());
  app.use(problemMiddleware(deps.logger));
  app.use(apiNotFound);
  app.use(minPositionWithinHead(deps.head));
  app.use(authenticate(deps.tokens, deps.readModels, { ownWrites: deps.ownWrites }));
  app.use(queryApiRoutes(deps));
  return app;
}
