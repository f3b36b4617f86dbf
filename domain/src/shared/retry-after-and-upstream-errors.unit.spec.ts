/**
 * Retry-After is a whole number of seconds, at least 1: a wait is rounded up (retrying early would
 * fail again) and never 0 (which invites an immediate retry). The 5xx errors a route throws carry
 * the status and title of their problem body.
 */
import { expect } from 'chai';
import { BadGatewayError, DomainError, GatewayTimeoutError, ServiceUnavailableError, TooManyRequestsError } from './errors';

describe('domain errors: Retry-After and upstream failures', function () {
  it('rounds a wait up to whole seconds', function () {
    expect(new TooManyRequestsError('slow down').retryAfter(2.1).retryAfterSeconds).to.equal(3);
    expect(new TooManyRequestsError('slow down').retryAfter(60).retryAfterSeconds).to.equal(60);
  });

  it('never asks for less than one second', function () {
    expect(new ServiceUnavailableError('not yet').retryAfter(0.2).retryAfterSeconds).to.equal(1);
    expect(new ServiceUnavailableError('not yet').retryAfter(0).retryAfterSeconds).to.equal(1);
    expect(new ServiceUnavailableError('not yet').retryAfter(-5).retryAfterSeconds).to.equal(1);
  });

  it('returns the error itself, so a route can throw it in one expression', function () {
    const error = new ServiceUnavailableError('not yet');
    expect(error.retryAfter(5)).to.equal(error);
    expect(new ServiceUnavailableError('no wait given').retryAfterSeconds).to.equal(undefined);
  });

  for (const [ErrorClass, status, title] of [
    [ServiceUnavailableError, 503, 'Service unavailable'],
    [BadGatewayError, 502, 'Bad gateway'],
    [GatewayTimeoutError, 504, 'Gateway timeout'],
  ] as const) {
    it(`${ErrorClass.name} is a ${status} "${title}"`, function () {
      const error = new ErrorClass('upstream trouble');
      expect(error).to.be.instanceOf(DomainError);
      expect(error).to.include({ status, title, name: ErrorClass.name, message: 'upstream trouble' });
    });
  }
});
