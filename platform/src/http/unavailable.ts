/**
 * Errors that say a store cannot serve the request now, through no fault of the request: the
 * database refused a connection (PostgreSQL at `max_connections` answers "sorry, too many clients
 * already", SQLSTATE 53300), is starting or shutting down, dropped the connection, or cannot be
 * reached. Retrying in a moment can succeed, so the problem middleware answers these 503 with
 * Retry-After, not 500 (which says the request hit a bug).
 *
 * Errors of a statement that reached the database and failed there (a constraint, a syntax error,
 * a deadlock) are not here: those are ours to map or to fix.
 */

/** PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources (53300 too_many_connections). */
const PG_CLASSES = ['08', '53'];
/** 57P01 admin_shutdown (a terminated backend), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up). */
const PG_CODES = new Set(['57P01', '57P02', '57P03']);
/** The network to the store. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What `pg` and `pg-pool` say when a connection could not be made or was lost (they carry no code). */
const PG_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Client has encountered a connection error and is not queryable',
]);
/** The MongoDB driver's errors for a server it cannot reach or lost. */
const MONGO_NAMES = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function matches(error: ErrorLike): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined) {
    if (/^[0-9A-Z]{5}$/.test(code) && (PG_CLASSES.includes(code.slice(0, 2)) || PG_CODES.has(code))) return true;
    if (SOCKET_CODES.has(code)) return true;
  }
  if (typeof error.message === 'string' && PG_MESSAGES.has(error.message)) return true;
  return typeof error.name === 'string' && MONGO_NAMES.has(error.name);
}

/** Whether `error` (or its cause, or one of an AggregateError's errors) says a store is unavailable for now. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 4) return false;
  const e = error as ErrorLike;
  if (matches(e)) return true;
  if (e.cause !== undefined && isStoreUnavailable(e.cause, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => isStoreUnavailable(inner, depth + 1));
}

/** Seconds a client is asked to wait before retrying (Retry-After). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

export const UNAVAILABLE_DETAIL = 'The service is busy right now; please try again in a moment';
