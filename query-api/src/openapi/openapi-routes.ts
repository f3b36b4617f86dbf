/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of every endpoint (command-api's and query-api's),
 * built from the contracts in domain/src/api. Public. In the cluster the gateway sends every GET to
 * query-api, and in the embedded app query-api's routes come first, so one route serves both.
 * Built once, at the first request, then served from memory: it changes only with a deployment.
 */
import Router from '@koa/router';
import { openApiDocument } from '@papertrade/domain/api/endpoints';
import { buildOpenApiDocument } from '@papertrade/domain/api/openapi';
import { parseQuery } from '@papertrade/platform/http/body';
import { noQuerySchema } from '@papertrade/domain/api/shared';
import pkg from '../../package.json';

/** A static document: caches may keep it a while, and revalidate by ETag after that. */
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300';

export function openApiRoutes(): Router {
  const router = new Router();
  let body: string | undefined;
  router.get(openApiDocument.path, async (ctx) => {
    parseQuery(ctx, noQuerySchema);
    body ??= JSON.stringify(buildOpenApiDocument({ version: pkg.version }));
    ctx.set('Cache-Control', OPENAPI_CACHE_CONTROL);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  });
  return router;
}
