/**
 * Security headers for every answer of every app (command-api, query-api, the embedded one that
 * also serves the web app), from helmet (koa-helmet). deploy/nginx/gateway.conf sends the same set
 * at the edge; security-headers.unit.spec.ts and test/deploy/compose.int.spec.ts keep them equal.
 *
 * - Content-Security-Policy for the built Vite app: scripts and styles from our origin only, plus
 *   the one inline script index.html carries (web/config/route-preload-plugin.ts), allowed by its
 *   sha-256. Inline styles stay allowed: index.html paints the dark background before the
 *   stylesheet arrives with a style attribute, and styles run no code. No framing at all.
 * - No HSTS: these apps speak plain HTTP (localhost, or behind the gateway); HSTS belongs to
 *   whoever terminates TLS, and sent from a shared host name it can break unrelated sites.
 * - `Cache-Control: no-store` on every /api answer that did not choose its own: tokens (sign-in),
 *   personal data (me, admin lists) and problem bodies must not sit in a browser or proxy cache.
 */
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';
import { isApiPath } from './problem-middleware';

/** sha-256 of ROUTE_PRELOAD_LOADER in web/config/route-preload-plugin.ts (platform does not import web). */
export const ROUTE_PRELOAD_LOADER_HASH = "'sha256-2nbQqfhJwFzb0oZ45gKBZNS9w3R0i/wi//2FS3BtdvM='";

export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'script-src': ["'self'", ROUTE_PRELOAD_LOADER_HASH],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  // 'self' covers the same-origin WebSocket (/ws) too (CSP Level 3).
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

export const REFERRER_POLICY = 'no-referrer';

export function securityHeaders(): Middleware {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: Object.fromEntries(Object.entries(CSP_DIRECTIVES).map(([k, v]) => [k, [...v]])) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: REFERRER_POLICY },
    strictTransportSecurity: false,
  });
  return (ctx, next) =>
    headers(ctx, async () => {
      await next();
      if (isApiPath(ctx.path) && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
    });
}

/** `a b; c d` -> { a: ['b'], c: ['d'] }: for comparing policies regardless of spacing and order. */
export function parseCsp(header: string): Record<string, string[]> {
  const policy: Record<string, string[]> = {};
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) policy[name.toLowerCase()] = values;
  }
  return policy;
}
