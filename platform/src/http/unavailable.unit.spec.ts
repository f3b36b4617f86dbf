/**
 * Which errors say a store cannot serve now (503 with Retry-After) and which stay 500s, and the
 * problem middleware's answer for each. The real refusal (PostgreSQL at its connection limit) is
 * command-api/src/hardening/database-refusal.int.spec.ts.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import pg from 'pg';
import { MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import type { Logger } from '../config/logger';
import { problemMiddleware } from './problem-middleware';
import { isStoreUnavailable } from './unavailable';

/** An error as `pg` builds it from a PostgreSQL ErrorResponse. */
function pgError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });

describe('isStoreUnavailable', function () {
  it('is true for PostgreSQL refusing or dropping a connection', function () {
    expect(isStoreUnavailable(pgError('53300', 'sorry, too many clients already'))).to.equal(true);
    expect(isStoreUnavailable(pgError('53300', 'too many connections for role "x"'))).to.equal(true);
    expect(isStoreUnavailable(pgError('53200', 'out of memory'))).to.equal(true);
    expect(isStoreUnavailable(pgError('08006', 'connection failure'))).to.equal(true);
    expect(isStoreUnavailable(pgError('57P01', 'terminating connection due to administrator command'))).to.equal(true);
    expect(isStoreUnavailable(pgError('57P03', 'the database system is starting up'))).to.equal(true);
  });

  it('is true for the network to the store and for pg\'s own connection errors', function () {
    expect(isStoreUnavailable(socketError('ECONNREFUSED'))).to.equal(true);
    expect(isStoreUnavailable(socketError('ECONNRESET'))).to.equal(true);
    expect(isStoreUnavailable(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isStoreUnavailable(new Error('timeout exceeded when trying to connect'))).to.equal(true);
    expect(isStoreUnavailable(new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }))).to.equal(true);
    // Node's connect to a name with several addresses (autoSelectFamily) fails with an AggregateError.
    expect(isStoreUnavailable(new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'connect failed'))).to.equal(true);
    expect(isStoreUnavailable(new Error('wrapped', { cause: pgError('53300', 'sorry, too many clients already') }))).to.equal(true);
  });

  it('is true for the MongoDB driver\'s network and server selection errors', function () {
    expect(isStoreUnavailable(new MongoNetworkError('connection closed'))).to.equal(true);
    expect(isStoreUnavailable(new MongoServerSelectionError('Server selection timed out after 30000 ms', {} as never))).to.equal(true);
  });

  it('is false for statements that failed in the database, and for anything else', function () {
    expect(isStoreUnavailable(pgError('23505', 'duplicate key value violates unique constraint'))).to.equal(false);
    expect(isStoreUnavailable(pgError('40P01', 'deadlock detected'))).to.equal(false);
    expect(isStoreUnavailable(pgError('42P01', 'relation "events" does not exist'))).to.equal(false);
    expect(isStoreUnavailable(pgError('22P02', 'invalid input syntax for type uuid'))).to.equal(false);
    expect(isStoreUnavailable(new TypeError('Cannot read properties of undefined'))).to.equal(false);
    expect(isStoreUnavailable(new ConcurrencyError('moved on'))).to.equal(false);
    expect(isStoreUnavailable(Object.assign(new Error('x'), { code: 'ENOENT' }))).to.equal(false);
    expect(isStoreUnavailable('ECONNREFUSED')).to.equal(false);
    expect(isStoreUnavailable(null)).to.equal(false);
    expect(isStoreUnavailable(undefined)).to.equal(false);
  });

  it('does not loop on an error that is its own cause', function () {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(isStoreUnavailable(error)).to.equal(false);
  });
});

describe('problem middleware: a store that cannot serve now', function () {
  interface Logged {
    level: string;
    message: string;
  }
  async function answer(error: unknown) {
    const logged: Logged[] = [];
    const logger: Logger = {
      info: (message) => logged.push({ level: 'info', message }),
      warn: (message) => logged.push({ level: 'warn', message }),
      error: (message) => logged.push({ level: 'error', message }),
    };
    const headers: Record<string, string> = {};
    const ctx = { method: 'POST', path: '/api/auth/signup', set: (name: string, value: string) => void (headers[name] = value) } as unknown as Context & { body: Record<string, unknown> };
    await problemMiddleware(logger)(ctx, async () => {
      throw error;
    });
    return { status: ctx.status, type: ctx.type, body: ctx.body, headers, logged };
  }

  it('answers 503 with Retry-After and a readable detail, logged as a warning', async function () {
    const res = await answer(pgError('53300', 'sorry, too many clients already'));
    expect(res.status).to.equal(503);
    expect(res.type).to.equal('application/problem+json');
    expect(res.headers['Retry-After']).to.equal('1');
    expect(res.body).to.include({ status: 503, title: 'Service unavailable' });
    expect(String(res.body.detail)).to.match(/try again/);
    expect(res.logged).to.deep.equal([{ level: 'warn', message: 'store unavailable' }]);
  });

  it('still answers 500 for anything else, logged as an error', async function () {
    const res = await answer(pgError('42P01', 'relation "events" does not exist'));
    expect(res.status).to.equal(500);
    expect(res.headers).to.deep.equal({});
    expect(res.logged).to.deep.equal([{ level: 'error', message: 'unhandled error' }]);
  });
});
