/** Serves the built web app, with the SPA fallback: any GET outside /api and /ws gets index.html. */
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import serve from 'koa-static';
import compose from 'koa-compose';
import { isApiPath } from '@papertrade/platform/http/problem-middleware';

export function webApp(distDir: string): Middleware {
  const index = path.join(distDir, 'index.html');
  const fallback: Middleware = async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    if (!['GET', 'HEAD'].includes(ctx.method) || isApiPath(ctx.path) || ctx.path === '/ws') return;
    if (!fs.existsSync(index)) {
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet: run `npm run build:web`.';
      return;
    }
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = fs.createReadStream(index);
  };
  const assets: Middleware = async (ctx, next) => {
    if (isApiPath(ctx.path) || ctx.path === '/ws') return next();
    return serve(distDir, { index: 'index.html', maxage: ctx.path.startsWith('/assets/') ? 365 * 24 * 3600 * 1000 : 0 })(ctx, next);
  };
  return compose([fallback, assets]);
}
