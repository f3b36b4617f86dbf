import { expect } from 'chai';
import { validateLoginForm } from './validate-login-form';

describe('login form validation', () => {
  const missing = { title: 'Missing Information', description: 'Please fill in all fields.' };

  it('needs both email and password', () => {
    expect(validateLoginForm({ email: '', password: '' })).to.deep.equal(missing);
    expect(validateLoginForm({ email: 'ada@example.com', password: '' })).to.deep.equal(missing);
    expect(validateLoginForm({ email: '', password: 'secret' })).to.deep.equal(missing);
    expect(validateLoginForm({ email: '   ', password: 'secret' })).to.deep.equal(missing);
  });

  it('lets a filled form through (the server judges the credentials)', () => {
    expect(validateLoginForm({ email: 'ada@example.com', password: 'x' })).to.equal(null);
  });
});
