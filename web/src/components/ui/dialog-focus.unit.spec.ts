import { expect } from 'chai';
import { wrapTarget } from './dialog-focus';

describe('dialog focus: Tab wraps inside a modal dialog', () => {
  const items = ['first', 'middle', 'last'];

  it('wraps from the last control to the first, and back from the first to the last', () => {
    expect(wrapTarget(items, 'last', false)).to.equal('first');
    expect(wrapTarget(items, 'first', true)).to.equal('last');
  });

  it('leaves the moves between controls to the browser', () => {
    expect(wrapTarget(items, 'first', false)).to.equal(null);
    expect(wrapTarget(items, 'middle', true)).to.equal(null);
    expect(wrapTarget(items, 'middle', false)).to.equal(null);
  });

  it('brings focus that is not on a control of the dialog back in, at the end Tab moves towards', () => {
    expect(wrapTarget(items, null, false)).to.equal('first');
    expect(wrapTarget(items, 'elsewhere', true)).to.equal('last');
    expect(wrapTarget([], 'elsewhere', false)).to.equal(null);
  });
});
