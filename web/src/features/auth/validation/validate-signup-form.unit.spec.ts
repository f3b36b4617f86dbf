import { expect } from 'chai';
import { validateSignupForm, type SignupFormValues } from './validate-signup-form';

const valid: SignupFormValues = {
  email: 'ada@example.com',
  username: 'ada',
  firstName: '',
  lastName: '',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('signup form validation', () => {
  const missing = { title: 'Missing Information', description: 'Please fill in all required fields.' };
  const mismatch = { title: 'Password Mismatch', description: 'Please make sure your passwords match.' };
  const tooShort = { title: 'Password Too Short', description: 'Password must be at least 6 characters long.' };

  it('requires email, username and password (first check)', () => {
    expect(validateSignupForm({ ...valid, email: '' })).to.deep.equal(missing);
    expect(validateSignupForm({ ...valid, username: ' ' })).to.deep.equal(missing);
    expect(validateSignupForm({ ...valid, password: '' })).to.deep.equal(missing);
  });

  it('checks the fields before the confirmation, even when both are wrong', () => {
    expect(validateSignupForm({ ...valid, email: '', password: 'abc', confirmPassword: 'xyz' })).to.deep.equal(missing);
  });

  it('checks the confirmation before the length (second check)', () => {
    expect(validateSignupForm({ ...valid, password: 'abc', confirmPassword: 'abd' })).to.deep.equal(mismatch);
    expect(validateSignupForm({ ...valid, confirmPassword: '' })).to.deep.equal(mismatch);
  });

  it('then requires at least 6 characters (third check)', () => {
    expect(validateSignupForm({ ...valid, password: 'abcde', confirmPassword: 'abcde' })).to.deep.equal(tooShort);
    expect(validateSignupForm({ ...valid, password: 'abcdef', confirmPassword: 'abcdef' })).to.equal(null);
  });

  it('leaves first and last name optional', () => {
    expect(validateSignupForm(valid)).to.equal(null);
    expect(validateSignupForm({ ...valid, firstName: 'Ada', lastName: 'Lovelace' })).to.equal(null);
  });
});
