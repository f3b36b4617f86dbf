import { expect } from 'chai';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AuthContext, useAuth } from './auth-context';

function ShowUser() {
  const { user } = useAuth();
  return createElement('span', null, user ? user.username : 'visitor');
}

describe('useAuth', () => {
  it("throws 'useAuth must be used within an AuthProvider' outside its provider", () => {
    expect(() => renderToString(createElement(ShowUser))).to.throw('useAuth must be used within an AuthProvider');
  });

  it('reads the provided state inside it', () => {
    const html = renderToString(
      createElement(AuthContext.Provider, { value: { user: null, isLoading: false, isAdmin: false } }, createElement(ShowUser)),
    );
    expect(html).to.equal('<span>visitor</span>');
  });
});
