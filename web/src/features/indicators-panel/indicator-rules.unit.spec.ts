/** The indicators panel's labels (spec section 9), each boundary on both sides. */
import { expect } from 'chai';
import type { IndicatorsResponse } from '@papertrade/domain/signals/contracts';
import { indicatorLabels, macdBarWidthPercent, macdLabel, maLabel, rsiLabel, volumeLabel } from './indicator-rules';

describe('indicator rules', function () {
  describe('RSI', function () {
    it("is 'Oversold' below 30 and 'Neutral' at exactly 30", function () {
      expect(rsiLabel(0)).to.equal('Oversold');
      expect(rsiLabel(29.999)).to.equal('Oversold');
      expect(rsiLabel(30)).to.equal('Neutral');
    });

    it("is 'Overbought' above 70 and 'Neutral' at exactly 70", function () {
      expect(rsiLabel(70)).to.equal('Neutral');
      expect(rsiLabel(70.001)).to.equal('Overbought');
      expect(rsiLabel(100)).to.equal('Overbought');
    });

    it("is 'Neutral' in between and has no label without a reading", function () {
      expect(rsiLabel(50)).to.equal('Neutral');
      expect(rsiLabel(null)).to.equal(null);
      expect(rsiLabel(Number.NaN)).to.equal(null);
    });
  });

  describe('MACD', function () {
    it("is 'Bullish' above its signal line and 'Bearish' below it", function () {
      expect(macdLabel(1.0001, 1)).to.equal('Bullish');
      expect(macdLabel(-2, -3)).to.equal('Bullish');
      expect(macdLabel(0.9999, 1)).to.equal('Bearish');
      expect(macdLabel(-3, -2)).to.equal('Bearish');
    });

    it("is 'Bearish' exactly on the signal line, and has no label without both values", function () {
      expect(macdLabel(1, 1)).to.equal('Bearish');
      expect(macdLabel(null, 1)).to.equal(null);
      expect(macdLabel(1, null)).to.equal(null);
    });

    it('draws a bar of min(100, |macd| x 2) percent', function () {
      expect(macdBarWidthPercent(0)).to.equal(0);
      expect(macdBarWidthPercent(12.5)).to.equal(25);
      expect(macdBarWidthPercent(-12.5)).to.equal(25);
      expect(macdBarWidthPercent(49.9)).to.be.closeTo(99.8, 1e-12);
      expect(macdBarWidthPercent(50)).to.equal(100);
      expect(macdBarWidthPercent(-50.1)).to.equal(100);
      expect(macdBarWidthPercent(1e6)).to.equal(100);
      expect(macdBarWidthPercent(null)).to.equal(0);
    });
  });

  describe('MA20', function () {
    it("is 'Above MA' when the price is above it, else 'Below MA' (equal included)", function () {
      expect(maLabel(100.01, 100)).to.equal('Above MA');
      expect(maLabel(100, 100)).to.equal('Below MA');
      expect(maLabel(99.99, 100)).to.equal('Below MA');
      expect(maLabel(100, null)).to.equal(null);
    });
  });

  describe('volume', function () {
    it("reads HIGH 'Above average', LOW 'Below average', NORMAL 'Average'", function () {
      expect(volumeLabel('HIGH')).to.equal('Above average');
      expect(volumeLabel('LOW')).to.equal('Below average');
      expect(volumeLabel('NORMAL')).to.equal('Average');
      expect(volumeLabel(null)).to.equal(null);
    });
  });

  it('labels a whole /api/indicators answer', function () {
    const reading: IndicatorsResponse = {
      coinId: 'ethereum',
      symbol: 'ETH',
      interval: '5m',
      intervalMinutes: 5,
      candleTime: '2026-11-22T09:00:00.000Z',
      price: 3210,
      rsi: 72,
      macd: { macd: -4, signal: -3, histogram: -1 },
      sma20: 3200,
      sma50: 3190,
      ema20: 3205,
      volume: 'LOW',
    };
    expect(indicatorLabels(reading)).to.deep.equal({ rsi: 'Overbought', macd: 'Bearish', macdBarWidthPercent: 8, ma: 'Above MA', volume: 'Below average' });
    expect(indicatorLabels({ ...reading, rsi: null, macd: null, sma20: null, volume: null })).to.deep.equal({
      rsi: null,
      macd: null,
      macdBarWidthPercent: 0,
      ma: null,
      volume: null,
    });
  });
});
