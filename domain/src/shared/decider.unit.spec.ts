import { expect } from 'chai';
import { assertNever, fold } from './decider';

describe('decider helpers', function () {
  it('folds events in order, starting from the initial state', function () {
    const log = { initialState: () => ['start'], evolve: (state: string[], event: { type: string; data: Record<string, unknown> }) => [...state, event.type] };
    expect(fold(log, [{ type: 'a', data: {} }, { type: 'b', data: {} }])).to.deep.equal(['start', 'a', 'b']);
    expect(fold(log, [])).to.deep.equal(['start']);
  });

  it('names the unexpected value when a union case is missing at run time', function () {
    expect(() => assertNever({ type: 'Unknown' } as never)).to.throw(Error, 'unexpected value: {"type":"Unknown"}');
  });
});
