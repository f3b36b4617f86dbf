import { expect } from 'chai';
import { toastDismissed, toastShown, toastsSlice } from './toast-slice';

describe('toasts', () => {
  const reduce = toastsSlice.reducer;

  it('keeps at most one toast: a new one replaces the visible one', () => {
    let state = reduce(undefined, toastShown({ title: 'Password Mismatch', description: 'Please make sure your passwords match.', variant: 'destructive' }));
    state = reduce(state, toastShown({ title: 'Welcome back!', description: 'You have been logged in successfully.' }));
    expect(state.items).to.have.length(1);
    expect(state.items[0]).to.include({ title: 'Welcome back!', description: 'You have been logged in successfully.', variant: 'default' });
  });

  it('dismisses by id', () => {
    const state = reduce(undefined, toastShown({ title: 'Login Failed' }));
    expect(reduce(state, toastDismissed(state.items[0]!.id)).items).to.deep.equal([]);
  });
});
