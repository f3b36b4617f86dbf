/**
 * A polled answer serialised once for as long as what it is made of is the same: the read cache
 * (platform/src/projections/read-model-cache.ts) and the market data (cached-market-data.ts) hand out
 * the same frozen objects until a change notice or a new market step replaces them, so an answer
 * built from them by pure functions is the same text too. `send` keeps the JSON text per route under
 * the identity of its first input and compares the rest by identity (`===`: objects, or the plain
 * values the answer also depends on, such as the page asked for); anything else rebuilds it.
 *
 * Only for answers that are pure functions of the inputs named: an answer that reads the clock (a
 * `valuedAt`, a time in trade) must name what it reads, or not be sent this way.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

export class JsonBodies {
  private readonly kept = new WeakMap<object, { rest: readonly unknown[]; json: Buffer; etag: string }>();

  /**
   * `revalidate`: a public answer a client may keep and ask again with If-None-Match (Cache-Control:
   * no-cache, and a strong ETag of the kept bytes, computed with them): an unchanged answer is a 304
   * without a body. For answers without personal data only (those keep the default no-store).
   */
  constructor(private readonly options: { revalidate?: boolean } = {}) {}

  /**
   * Sends `build()` as JSON (application/json; charset=utf-8, as Koa sends an object), serialised and
   * encoded once per inputs: kept as UTF-8 bytes, which the socket takes as they are (a signals page
   * is some 50 kB).
   */
  send(ctx: Context, inputs: readonly [object, ...unknown[]], build: () => unknown): void {
    const [first, ...rest] = inputs;
    const kept = this.kept.get(first);
    let entry: { rest: readonly unknown[]; json: Buffer; etag: string };
    if (kept && kept.rest.length === rest.length && kept.rest.every((value, i) => value === rest[i])) {
      entry = kept;
    } else {
      const json = Buffer.from(JSON.stringify(build()), 'utf8');
      entry = { rest, json, etag: this.options.revalidate ? `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` : '' };
      this.kept.set(first, entry);
    }
    ctx.type = 'json';
    if (this.options.revalidate) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('ETag', entry.etag);
      if (noneMatch(ctx.get('If-None-Match'), entry.etag)) {
        ctx.status = 304;
        return;
      }
    }
    ctx.body = entry.json;
  }
}

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 13.1.2: a list of entity tags, weak
 * comparison, or `*`). Koa's `ctx.fresh` is not used: it answers as a cache would and ignores the
 * header when the request also says `Cache-Control: no-cache`, which fetch() adds to every request
 * that sets If-None-Match itself; the origin may answer 304 all the same.
 */
export function noneMatch(header: string, etag: string): boolean {
  if (header === '') return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || opaque(t) === opaque(etag);
  });
}
