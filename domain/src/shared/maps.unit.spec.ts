/** A two-level cache: the inner map of a key is made empty on first use, then the same map every time after. */
import { expect } from 'chai';
import { innerMap } from './maps';

describe('inner maps', function () {
  it('makes an empty inner map on first use and keeps it under its key', function () {
    const outer = new Map<string, Map<number, string>>();
    const btc = innerMap(outer, 'BTC');
    expect(btc.size).to.equal(0);
    expect(outer.get('BTC')).to.equal(btc);
  });

  it('hands back the same inner map, with what was put in it, on later uses', function () {
    const outer = new Map<string, Map<number, string>>();
    innerMap(outer, 'BTC').set(1, 'one');
    innerMap(outer, 'ETH').set(2, 'two');
    expect(innerMap(outer, 'BTC')).to.equal(outer.get('BTC'));
    expect([...innerMap(outer, 'BTC')]).to.deep.equal([[1, 'one']]);
    expect([...innerMap(outer, 'ETH')]).to.deep.equal([[2, 'two']]);
    expect(outer.size).to.equal(2);
  });
});
