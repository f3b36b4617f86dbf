/**
 * Test support (not mutated, not production code): the ValidationError a call throws, for specs that
 * check a refusal's message and field. Fails the spec when the call is accepted or throws anything else.
 */
import { expect } from 'chai';
import { ValidationError } from './errors';

export function validationRefusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ValidationError);
    return error as ValidationError;
  }
  return expect.fail('the call was accepted, not refused');
}
