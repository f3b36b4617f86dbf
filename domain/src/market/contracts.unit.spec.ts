/**
 * The market slice's query parameters and bus subjects as clients meet them: `days` of a chart is a
 * single decimal from one minute (1/1440) to 365 days, both ends allowed, and each refusal says which
 * rule was broken; `symbol` of /api/price is trimmed, and absent or blank means "the default coin";
 * a coin's ticks go out on `market.tick.<coinId>`.
 */
import { expect } from 'chai';
import type { z } from 'zod';
import { MAX_CHART_DAYS } from './candle-interval';
import { chartQuerySchema, MARKET_TICK_SUBJECTS, marketTickSubject, MIN_CHART_DAYS, priceQuerySchema } from './contracts';

/** The parsed value, or the refusals of a parse as "path: message". */
function outcome<T>(result: z.ZodSafeParseResult<T>): { ok: T } | { refused: string[] } {
  return result.success ? { ok: result.data } : { refused: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
}

describe('market query parameters', function () {
  describe('days of a chart', function () {
    it('is required, and given once: ?days=1&days=7 is a mistake', function () {
      expect(outcome(chartQuerySchema.safeParse({}))).to.deep.equal({ refused: ['days: is required'] });
      expect(outcome(chartQuerySchema.safeParse({ days: ['1', '7'] }))).to.deep.equal({ refused: ['days: must be given once'] });
    });

    it('accepts a decimal number of days, both ends of the range included', function () {
      expect(outcome(chartQuerySchema.safeParse({ days: '7' }))).to.deep.equal({ ok: { days: 7 } });
      expect(outcome(chartQuerySchema.safeParse({ days: String(MAX_CHART_DAYS) }))).to.deep.equal({ ok: { days: MAX_CHART_DAYS } });
      // One minute exactly: the shortest chart that has a candle.
      expect(outcome(chartQuerySchema.safeParse({ days: String(1 / 1440) }))).to.deep.equal({ ok: { days: MIN_CHART_DAYS } });
    });

    it('refuses 0 and negative ranges as not greater than 0 (not as too short)', function () {
      for (const days of ['0', '-1', '-0.5'])
        expect(outcome(chartQuerySchema.safeParse({ days })), days).to.deep.equal({ refused: ['days: must be greater than 0'] });
    });

    it(`refuses more than ${MAX_CHART_DAYS} days`, function () {
      for (const days of ['365.5', '366', '1000'])
        expect(outcome(chartQuerySchema.safeParse({ days })), days).to.deep.equal({ refused: [`days: must be at most ${MAX_CHART_DAYS}`] });
    });

    it('refuses a positive range shorter than one minute', function () {
      for (const days of ['0.0006', '1e-6'])
        expect(outcome(chartQuerySchema.safeParse({ days })), days).to.deep.equal({ refused: ['days: must cover at least one minute (1/1440 of a day)'] });
    });
  });

  describe('symbol of /api/price', function () {
    it('is trimmed, its case left to the lookup', function () {
      expect(priceQuerySchema.parse({ symbol: '  eth ' }).symbol).to.equal('eth');
      expect(priceQuerySchema.parse({ symbol: 'BTC' }).symbol).to.equal('BTC');
    });

    it('is undefined (the default coin) when absent, empty or blank', function () {
      for (const input of [{}, { symbol: undefined }, { symbol: '' }, { symbol: '   ' }])
        expect(priceQuerySchema.parse(input).symbol, JSON.stringify(input)).to.equal(undefined);
    });

    it('is given once', function () {
      expect(outcome(priceQuerySchema.safeParse({ symbol: ['eth', 'btc'] }))).to.deep.equal({ refused: ['symbol: must be given once'] });
    });
  });
});

describe('market tick subjects', function () {
  it('one subject per coin under market.tick, which the wildcard subject covers', function () {
    expect(marketTickSubject('bitcoin')).to.equal('market.tick.bitcoin');
    expect(marketTickSubject('avalanche-2')).to.equal('market.tick.avalanche-2');
    expect(MARKET_TICK_SUBJECTS).to.equal('market.tick.*');
  });
});
