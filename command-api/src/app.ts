/**
 * command-api: every POST/PUT/DELETE. Answers ids and the global position of the last event
 * appended, never a read model.
 */
import Koa from 'koa';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type Router from '@koa/router';
import { authenticate } from '@papertrade/platform/auth/guards';
import { apiNotFound, problemMiddleware } from '@papertrade/platform/http/problem-middleware';
import { minPositionWithinHead } from '@papertrade/platform/http/min-position';
import { securityHeaders } from '@papertrade/platform/http/security-headers';
import type { CommandApiDeps } from './deps';
import { authRoutes } from './auth/auth-routes';
import { adminRoutes } from './admin/admin-routes';
import { tradingRoutes } from './trading/trading-routes';
import { mlRoutes } from './ml/ml-routes';
import { subscriptionRoutes } from './subscription/subscription-routes';
import { stripeWebhookRoutes } from './subscription/stripe-webhook-routes';
import { testCheckoutRoutes } from './subscription/test-checkout-routes';
import { apiCallLimit } from './usage/api-call-limit';
import { exchangeRoutes } from './exchanges/exchange-routes';
import { settingsRoutes } from './settings/settings-routes';
import { strategyRoutes } from './strategies/strategy-routes';
import { backtestRoutes } from './backtest/backtest-routes';

/** Every router of command-api (the OpenAPI spec lists their routes against the contracts). */
export function commandApiRouters(deps: CommandApiDeps): Router[] {
  return [authRoutes(deps), adminRoutes(deps), tradingRoutes(deps), mlRoutes(deps), subscriptionRoutes(deps), stripeWebhookRoutes(deps), testCheckoutRoutes(deps), exchangeRoutes(deps), settingsRoutes(deps), backtestRoutes(deps), strategyRoutes(deps)];
}

/** The routes alone, for composing into the embedded single-process app. */
export function commandApiRoutes(deps: CommandApiDeps): Middleware {
  const routers = commandApiRouters(deps);
  // The plan's monthly API calls, before any route appends (usage/api-call-limit.ts).
  return compose([apiCallLimit(deps.apiCalls), ...routers.map((r) => r.routes() as Middleware)]);
}

export function createCommandApi(deps: CommandApiDeps): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY });
  // Outermost: problem answers get the headers too.
  app.use(securityHeaders());
  app.use(problemMiddleware(deps.logger));
  app.use(apiNotFound);
  // For orchestrators and the gateway; in the embedded app query-api answers it.
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/api/health') ctx.body = { status: 'ok' };
    else await next();
  });
  app.use(minPositionWithinHead(deps.head));
  app.use(authenticate(deps.tokens, deps.readModels, deps.ownWrites ? { ownWrites: deps.ownWrites } : {}));
  app.use(commandApiRoutes(deps));
  return app;
}
