/**
 * The 100 kB body limit at its exact boundary: a body of exactly BODY_LIMIT_BYTES bytes gets past the
 * size check, one byte more is a 413 problem, however the length arrives: declared up front
 * (Content-Length), streamed in chunks with no declared length (Transfer-Encoding: chunked, where
 * only the parser's running count can refuse it), counted in bytes rather than characters, and
 * counted after decompression (a small gzip body must not inflate past the limit).
 *
 * Runs the real `jsonBody`/`parseBody` and problem middleware in a minimal Koa app, so it holds for
 * every route that uses them.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { z } from 'zod';
import { silentLogger } from '../config/logger';
import { BODY_LIMIT_BYTES, jsonBody, parseBody } from './body';
import { problemMiddleware } from './problem-middleware';

/** `{"pad":"xxx…"}` of exactly `bytes` bytes in UTF-8; `unit` is the padding character (may be multi-byte). */
function jsonOfBytes(bytes: number, unit = 'x'): Buffer {
  const frame = Buffer.byteLength('{"pad":""}');
  const unitBytes = Buffer.byteLength(unit);
  const units = Math.floor((bytes - frame) / unitBytes);
  const rest = bytes - frame - units * unitBytes; // topped up with single-byte characters
  const body = Buffer.from(`{"pad":"${unit.repeat(units)}${'y'.repeat(rest)}"}`);
  if (body.length !== bytes) throw new Error(`built ${body.length} bytes instead of ${bytes}`);
  return body;
}

interface Answer {
  status: number;
  body: { status?: number; detail?: string; bytes?: number };
}

describe('request body limit (exact boundary)', function () {
  let server: http.Server;
  let port: number;

  before(async function () {
    const app = new Koa();
    app.use(problemMiddleware(silentLogger));
    app.use(async (ctx, next) => {
      if (ctx.method === 'POST' && ctx.path === '/echo') await jsonBody(ctx, next);
      else await next();
    });
    app.use(async (ctx) => {
      const body = parseBody(ctx, z.object({ pad: z.string() }).strict());
      ctx.body = { bytes: Buffer.byteLength(JSON.stringify(body)) };
    });
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  after(async function () {
    server?.closeAllConnections(); // a request a broken build left waiting must not hold the suite
    await new Promise((r) => server?.close(r));
  });

  /**
   * POSTs `body` with node:http so the framing is explicit: with a Content-Length, or chunked
   * (several writes, no length declared).
   */
  function post(body: Buffer, options: { chunked?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
      if (!options.chunked) headers['content-length'] = String(body.length);
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/echo', headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      if (options.chunked) {
        expect(req.getHeader('content-length')).to.equal(undefined);
        for (let offset = 0; offset < body.length; offset += 16 * 1024) req.write(body.subarray(offset, offset + 16 * 1024));
        req.end();
      } else req.end(body);
    });
  }

  const tooLarge = (answer: Answer) => {
    expect(answer.status).to.equal(413);
    expect(answer.body).to.include({ status: 413, detail: 'The request body is larger than the 100 kB limit' });
  };

  it('is 100 kB (102,400 bytes)', function () {
    expect(BODY_LIMIT_BYTES).to.equal(102_400);
  });

  for (const chunked of [false, true]) {
    const framing = chunked ? 'chunked, no Content-Length' : 'with Content-Length';
    describe(framing, function () {
      it('accepts a body of exactly the limit', async function () {
        const answer = await post(jsonOfBytes(BODY_LIMIT_BYTES), { chunked });
        expect(answer.status).to.equal(200);
        expect(answer.body.bytes).to.equal(BODY_LIMIT_BYTES);
      });

      it('refuses one byte more with 413', async function () {
        tooLarge(await post(jsonOfBytes(BODY_LIMIT_BYTES + 1), { chunked }));
      });

      it('counts bytes, not characters (two-byte characters)', async function () {
        const atLimit = jsonOfBytes(BODY_LIMIT_BYTES, 'é');
        expect(atLimit.toString('utf8').length).to.be.lessThan(BODY_LIMIT_BYTES);
        expect((await post(atLimit, { chunked })).status).to.equal(200);
        const over = jsonOfBytes(BODY_LIMIT_BYTES + 1, 'é');
        expect(over.toString('utf8').length, 'fewer characters than the limit').to.be.lessThan(BODY_LIMIT_BYTES / 2 + 100);
        tooLarge(await post(over, { chunked }));
      });

      it('counts the body after decompression (gzip)', async function () {
        const gzip = { 'content-encoding': 'gzip' };
        const atLimit = await post(gzipSync(jsonOfBytes(BODY_LIMIT_BYTES)), { chunked, headers: gzip });
        expect(atLimit.status).to.equal(200);
        const over = gzipSync(jsonOfBytes(BODY_LIMIT_BYTES + 1));
        expect(over.length, 'compressed far below the limit').to.be.lessThan(2000);
        tooLarge(await post(over, { chunked, headers: gzip }));
      });
    });
  }

  it('refuses a declared length over the limit before the body is sent', async function () {
    // Headers only: a server that waited for the body (instead of judging the declared length) would never answer.
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/echo',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(BODY_LIMIT_BYTES + 1) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          });
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    tooLarge(answer);
  });
});
