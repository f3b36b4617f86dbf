/**
 * Compressed request bodies (Content-Encoding: gzip, deflate, br) through the real `jsonBody` and
 * problem middleware in a minimal Koa app, so it holds for every route that uses them:
 *
 * - a body that is not valid data of its declared encoding (not compressed at all, cut short, junk
 *   after the end) is a 400 problem saying so, and nothing is logged at error level (it was a 500
 *   with a stack trace in the log, on every JSON route, sign-in included);
 * - the 100 kB limit counts the inflated bytes, and a zip bomb is refused while it arrives: the
 *   answer (413) comes after its first kilobyte, so the rest is never sent, let alone inflated.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { z } from 'zod';
import type { Logger } from '../config/logger';
import { jsonBody, parseBody } from './body';
import { problemMiddleware } from './problem-middleware';

interface Answer {
  status: number;
  body: { status?: number; title?: string; detail?: string; got?: unknown };
}

describe('request body: Content-Encoding (bad compressed data, zip bombs)', function () {
  let server: http.Server;
  let port: number;
  const logged: Array<{ level: string; message: string }> = [];
  const logger: Logger = {
    info: (message) => logged.push({ level: 'info', message }),
    warn: (message) => logged.push({ level: 'warn', message }),
    error: (message) => logged.push({ level: 'error', message }),
  };

  before(async function () {
    const app = new Koa();
    app.use(problemMiddleware(logger));
    app.use(jsonBody);
    app.use(async (ctx) => {
      ctx.body = { got: parseBody(ctx, z.strictObject({ a: z.number() })) };
    });
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => (logged.length = 0));
  after(async function () {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  /** POSTs `body` with a Content-Length and the given Content-Encoding; `firstBytes` sends only that much and waits for the answer. */
  function post(body: Buffer, encoding: string, firstBytes?: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers = { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': String(body.length) };
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (firstBytes === undefined) req.end(body);
      else req.write(body.subarray(0, firstBytes)); // and never the rest: only an answer that comes early ends this
    });
  }

  const json = Buffer.from('{"a":1}');

  it('accepts valid gzip, deflate and br bodies', async function () {
    for (const [encoding, body] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const answer = await post(body, encoding);
      expect(answer.status, encoding).to.equal(200);
      expect(answer.body.got).to.deep.equal({ a: 1 });
    }
  });

  for (const [name, encoding, body] of [
    ['plain JSON declared as gzip', 'gzip', json],
    ['plain JSON declared as deflate', 'deflate', json],
    ['plain JSON declared as br', 'br', json],
    ['gzip cut short', 'gzip', gzipSync(json).subarray(0, 12)],
    ['gzip followed by junk', 'gzip', Buffer.concat([gzipSync(json), Buffer.from('junk')])],
    ['random bytes declared as gzip', 'gzip', Buffer.from('1f8b0800000000000003ffffffffffffffff', 'hex')],
  ] as const) {
    it(`answers 400 for ${name}, logging no error`, async function () {
      const answer = await post(body, encoding);
      expect(answer.status).to.equal(400);
      expect(answer.body).to.include({ status: 400, title: 'Invalid request', detail: `The request body is not valid ${encoding} data (Content-Encoding: ${encoding})` });
      expect(logged.filter((l) => l.level === 'error')).to.deep.equal([]);
    });
  }

  it('answers 415 for an encoding it does not know', async function () {
    const answer = await post(json, 'zstd');
    expect(answer.status).to.equal(415);
    expect(answer.body.detail).to.equal('The request body encoding is not supported');
  });

  it('refuses a zip bomb (51 kB of gzip inflating to 50 MB) with 413 after its first kilobyte, without inflating the rest', async function () {
    const inflated = Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(50 * 1024 * 1024, 'x'), Buffer.from('"}')]);
    const bomb = gzipSync(inflated, { level: 9 });
    expect(bomb.length, 'the whole bomb is under the 100 kB limit on the wire').to.be.below(100 * 1024);
    const answer = await post(bomb, 'gzip', 1024);
    expect(answer.status).to.equal(413);
    expect(answer.body.detail).to.equal('The request body is larger than the 100 kB limit');
    expect(logged.filter((l) => l.level === 'error')).to.deep.equal([]);
  });
});
