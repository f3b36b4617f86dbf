/** Time labels pad hours and minutes below 10 with a zero, and only those: 09:05 but 10:10. */
import { expect } from 'chai';
import { candleTimeLabel } from './candle-label';

describe('candle time label padding', function () {
  it('writes two digits, padding only below 10', function () {
    expect(candleTimeLabel(Date.parse('2026-03-04T09:05:00.000Z'), 1)).to.equal('Mar 4, 09:05');
    expect(candleTimeLabel(Date.parse('2026-03-04T10:10:00.000Z'), 1)).to.equal('Mar 4, 10:10');
    expect(candleTimeLabel(Date.parse('2026-03-04T11:59:00.000Z'), 1)).to.equal('Mar 4, 11:59');
  });
});
