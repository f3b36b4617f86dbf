/** The single Koa app of the embedded mode: both APIs on one port, then the web app. */
import Koa from 'koa';
import { authenticate } from '@papertrade/platform/auth/guards';
import { apiNotFound, problemMiddleware } from '@papertrade/platform/http/problem-middleware';
import { minPositionWithinHead } from '@papertrade/platform/http/min-position';
import { securityHeaders } from '@papertrade/platform/http/security-headers';
import { commandApiRoutes } from '@papertrade/command-api/app';
import { queryApiRoutes } from '@papertrade/query-api/app';
import { commandApiDeps, identitiesOf, queryApiDeps, type Runtime } from './compose';
import { webApp } from './web-static';

export function createEmbeddedApp(rt: Runtime, options: { webDist?: string } = {}): Koa {
  const commands = commandApiDeps(rt);
  const app = new Koa({ proxy: rt.config.TRUST_PROXY });
  // Outermost: problem answers get the headers too.
  app.use(securityHeaders());
  app.use(problemMiddleware(rt.logger));
  app.use(apiNotFound);
  app.use(minPositionWithinHead(rt.head));
  const queries = queryApiDeps(rt);
  app.use(authenticate(commands.tokens, rt.infra.readModels, { ownWrites: queries.ownWrites, identities: identitiesOf(rt) }));
  app.use(queryApiRoutes(queries));
  app.use(commandApiRoutes(commands));
  if (options.webDist) app.use(webApp(options.webDist));
  return app;
}
