/**
 * Domain errors. Each carries the HTTP status it maps to; one Koa middleware (platform/src/http)
 * turns them into RFC 7807 problem bodies. Never throw strings.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  /** Seconds after which the same request may succeed (a `Retry-After` header on 429 and 503). */
  retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    /** Extra members for the problem body (e.g. the offending field). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  retryAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }
}

export class ValidationError extends DomainError {
  readonly status = 400;
  readonly title = 'Invalid request';
}
export class UnauthorizedError extends DomainError {
  readonly status = 401;
  readonly title = 'Unauthorized';
}
export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly title = 'Forbidden';
}
export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly title = 'Not found';
}
/** The command is not allowed in the current state (e.g. an email already registered). */
export class IllegalStateError extends DomainError {
  readonly status = 409;
  readonly title = 'Conflict';
}
/** Optimistic concurrency: the stream moved on since it was read. */
export class ConcurrencyError extends DomainError {
  readonly status = 412;
  readonly title = 'Concurrency conflict';
}
export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  readonly title = 'Payload too large';
}
/** Same idempotency key, different request. */
export class IdempotencyConflictError extends DomainError {
  readonly status = 422;
  readonly title = 'Idempotency key reused';
}
export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  readonly title = 'Too many requests';
}
/** The request was right but cannot be served yet (e.g. a read model still catching up); retrying helps. */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly title = 'Service unavailable';
}
/** A service this one relies on (e.g. the AI chat's language model endpoint) answered wrongly or failed. */
export class BadGatewayError extends DomainError {
  readonly status = 502;
  readonly title = 'Bad gateway';
}
/** A service this one relies on did not answer in time. */
export class GatewayTimeoutError extends DomainError {
  readonly status = 504;
  readonly title = 'Gateway timeout';
}
