import { expect } from 'chai';
import {
  ConcurrencyError,
  DomainError,
  ForbiddenError,
  IdempotencyConflictError,
  IllegalStateError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from './errors';

describe('domain errors', function () {
  // The problem middleware answers with exactly these: the status is the API's contract, the title the problem body's.
  for (const [ErrorClass, status, title] of [
    [ValidationError, 400, 'Invalid request'],
    [UnauthorizedError, 401, 'Unauthorized'],
    [ForbiddenError, 403, 'Forbidden'],
    [NotFoundError, 404, 'Not found'],
    [IllegalStateError, 409, 'Conflict'],
    [ConcurrencyError, 412, 'Concurrency conflict'],
    [PayloadTooLargeError, 413, 'Payload too large'],
    [IdempotencyConflictError, 422, 'Idempotency key reused'],
    [TooManyRequestsError, 429, 'Too many requests'],
  ] as const) {
    it(`${ErrorClass.name} is a ${status} "${title}" named after its class`, function () {
      const error = new ErrorClass('what went wrong');
      expect(error).to.be.instanceOf(DomainError).and.instanceOf(Error);
      expect(error).to.include({ status, title, name: ErrorClass.name, message: 'what went wrong' });
      expect(error.extra).to.deep.equal({});
    });
  }

  it('keeps the extra members for the problem body', function () {
    expect(new ValidationError('bad', { field: 'email' }).extra).to.deep.equal({ field: 'email' });
  });
});
