/** The per-coin throttle: leading edge at once, a burst coalesced to its latest tick on the trailing edge. */
import { expect } from 'chai';
import { waitUntil } from '../../../test/wait';
import { MarketThrottle } from './market-throttle';

describe('MarketThrottle', function () {
  let now = 0;
  let throttle: MarketThrottle<number> | undefined;
  afterEach(() => throttle?.stop());

  it('sends a tick at once when its coin has not been sent for the interval', function () {
    const sent: number[] = [];
    throttle = new MarketThrottle(100, (t) => sent.push(t), () => now);
    throttle.push('btc', 1);
    now += 100;
    throttle.push('btc', 2);
    throttle.push('eth', 3);
    expect(sent).to.deep.equal([1, 2, 3]);
  });

  it('coalesces ticks within the interval to the latest, sent when the interval is over', async function () {
    const sent: number[] = [];
    throttle = new MarketThrottle(30, (t) => sent.push(t), () => now);
    throttle.push('btc', 1);
    for (let i = 2; i <= 10; i++) throttle.push('btc', i);
    expect(sent).to.deep.equal([1]);
    await waitUntil(() => sent.length === 2, { message: 'the trailing tick' });
    expect(sent).to.deep.equal([1, 10]);
  });

  it('sends nothing after stop, not even what was pending', async function () {
    const sent: number[] = [];
    throttle = new MarketThrottle(10, (t) => sent.push(t), () => now);
    throttle.push('btc', 1);
    throttle.push('btc', 2); // pending for the trailing edge
    throttle.stop();
    throttle.push('btc', 3);
    // A witness with the same interval, scheduled later: once its trailing tick is out, a pending
    // timer of the stopped throttle would have fired before it.
    const witness: number[] = [];
    const other = new MarketThrottle<number>(10, (t) => witness.push(t), () => now);
    other.push('x', 1);
    other.push('x', 2);
    await waitUntil(() => witness.length === 2, { message: "the witness's trailing tick" });
    other.stop();
    expect(sent).to.deep.equal([1]);
  });

  it('refuses a negative interval', function () {
    expect(() => new MarketThrottle(-1, () => undefined)).to.throw(RangeError);
  });
});
