/** The indicators panel's labels (spec section 9), each boundary on both sides. */
import { expect } from 'chai';
import type { IndicatorsResponse } from '@papertrade/domain/signals/contracts';
import { indicatorLabels, macdBarTooltip, macdBarWidthPercent, macdBasisPoints, macdLabel, maLabel, rsiLabel, volumeLabel } from './indicator-rules';

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

    it('draws a bar of min(100, |MACD / price x 10,000| x 2) percent: MACD in basis points of the same moment\'s price', function () {
      // 12.5 bp of price: a quarter of the bar, at any price.
      expect(macdBarWidthPercent(12.5, 10_000)).to.be.closeTo(25, 1e-9);
      expect(macdBarWidthPercent(-12.5, 10_000)).to.be.closeTo(25, 1e-9);
      expect(macdBarWidthPercent(0.125, 100)).to.be.closeTo(25, 1e-9);
      expect(macdBarWidthPercent(0, 3000)).to.equal(0);
      // 50 bp and more: full.
      expect(macdBarWidthPercent(49.9, 10_000)).to.be.closeTo(99.8, 1e-9);
      expect(macdBarWidthPercent(50, 10_000)).to.equal(100);
      expect(macdBarWidthPercent(-1e6, 10_000)).to.equal(100);
      // No MACD or no usable price: no bar.
      expect(macdBarWidthPercent(null, 3000)).to.equal(0);
      expect(macdBarWidthPercent(1, 0)).to.equal(0);
      expect(macdBarWidthPercent(1, Number.NaN)).to.equal(0);
    });

    it('means the same for every coin: a BTC-like MACD is no longer always full, nor a MATIC-like one always empty', function () {
      // BTC at 65,000 with a MACD of 65 USD: 10 bp of its price, a bar of 20% (|macd| x 2 drew 100%, full).
      expect(macdBarWidthPercent(65, 65_000)).to.be.closeTo(20, 1e-9);
      expect(macdBasisPoints(65, 65_000)).to.be.closeTo(10, 1e-9);
      // MATIC at 0.55 with a MACD of 0.00055 USD: the same 10 bp, the same 20% (|macd| x 2 drew 0.0011%, empty).
      expect(macdBarWidthPercent(0.00055, 0.55)).to.be.closeTo(20, 1e-9);
      expect(macdBasisPoints(-0.00055, 0.55)).to.be.closeTo(-10, 1e-9);
      // A strong MATIC move (0.003 USD, 54.5 bp) fills the bar; a quiet BTC one (5 USD, 0.77 bp) barely starts it.
      expect(macdBarWidthPercent(0.003, 0.55)).to.equal(100);
      expect(macdBarWidthPercent(5, 65_000)).to.be.closeTo(1.5385, 1e-4);
    });

    it('says in its tooltip what the bar measures', function () {
      expect(macdBarTooltip(40, 65_000)).to.equal('MACD 40 is 6.15 bp of the price 65,000 (MACD / price × 10,000); the bar is min(100, |6.15| × 2) = 12.3% wide');
      expect(macdBarTooltip(null, 65_000)).to.equal('MACD in basis points of price (MACD / price × 10,000); the bar is min(100, |bp| × 2) percent wide; no MACD yet');
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
      macd: -4,
      macdSignal: -3,
      macdHistogram: -1,
      ma20: 3200,
      sma20: 3200,
      sma50: 3190,
      ema20: 3205,
      volume: 'LOW',
    };
    // MACD -4 at 3,210: 12.46 bp, a bar of 24.92%.
    const labels = indicatorLabels(reading);
    expect(labels).to.deep.include({ rsi: 'Overbought', macd: 'Bearish', ma: 'Above MA', volume: 'Below average' });
    expect(labels.macdBarWidthPercent).to.be.closeTo((4 / 3210) * 10_000 * 2, 1e-9);
    expect(indicatorLabels({ ...reading, rsi: null, macd: null, macdSignal: null, macdHistogram: null, ma20: null, sma20: null, volume: null })).to.deep.equal({
      rsi: null,
      macd: null,
      macdBarWidthPercent: 0,
      macdBarTooltip: 'MACD in basis points of price (MACD / price × 10,000); the bar is min(100, |bp| × 2) percent wide; no MACD yet',
      ma: null,
      volume: null,
    });
  });
});
