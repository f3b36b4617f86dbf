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
import type { Context } from 'koa';

export class JsonBodies {
  private readonly kept = new WeakMap<object, { rest: readonly unknown[]; json: Buffer }>();

  /**
   * Sends `build()` as JSON (application/json; charset=utf-8, as Koa sends an object), serialised and
   * encoded once per inputs: kept as UTF-8 bytes, which the socket takes as they are (a signals page
   * is some 50 kB).
   */
  send(ctx: Context, inputs: readonly [object, ...unknown[]], build: () => unknown): void {
    const [first, ...rest] = inputs;
    const kept = this.kept.get(first);
    let json: Buffer;
    if (kept && kept.rest.length === rest.length && kept.rest.every((value, i) => value === rest[i])) {
      json = kept.json;
    } else {
      json = Buffer.from(JSON.stringify(build()), 'utf8');
      this.kept.set(first, { rest, json });
    }
    ctx.type = 'json';
    ctx.body = json;
  }
}
