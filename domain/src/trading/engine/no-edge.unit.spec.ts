/**
 * No edge for rules that only use what is known at order time (issue 17, section 2): over 30
 * simulated days of four coins, simple rules (late-minute momentum and reversal, k up-candles, mean
 * reversion on the last candle, breakouts, the bot's own 5-minute rhythm) trade with real fills: an
 * order decided at a tick fills at the first tick at or after it plus BOT_LATENCY_MS (the next tick),
 * at that tick's mid plus the half spread and the impact (against the last complete minute's volume),
 * and pays the 0.1 % fee both ways (engine/fills.ts, money.ts). Each rule holds one position at a time.
 *
 * The test, per rule and coin (28 pairs): the win rate net of costs is at most 60 %, and the mean net
 * return per trade is not significantly above zero: t = mean / (sd / sqrt(n)) <= 3 (one-sided, about
 * p < 0.0013, so the family of 28 stays under 4 % by Bonferroni). Before costs, the mean is not
 * significantly away from zero either (|t| <= 3.5): the path itself is a fair game at these horizons.
 * A control rule that peeks at the tick it will fill at is caught by the same statistics: the test
 * can tell an edge when there is one.
 */
import { expect } from 'chai';
import { halfSpreadOf, type CoinId } from '../../market/coins';
import { MarketPath, tickAt, TICK_MS, TICKS_PER_DAY, TICKS_PER_MINUTE } from '../../market/market-path';
import { TRADE_FEE_RATE } from '../money';
import { BOT_LATENCY_MS } from './bot-timing';
import { priceImpact } from './fills';

const KEY = Uint32Array.from([0x6e6f6564, 0x67650000, 30, 4, 1, 2, 3, 5]);
const DAYS = 30;
const START = tickAt(Date.UTC(2025, 5, 2));
const COINS: CoinId[] = ['ethereum', 'bitcoin', 'solana', 'uniswap'];
/** What each trade buys, USD (the bot's 5 % of 10,000). */
const ORDER_USD = 500;
/** Ticks from a decision to its fill: the first tick at or after the decision plus the latency. */
const FILL_LAG = Math.ceil(BOT_LATENCY_MS / TICK_MS);

interface Market {
  coinId: CoinId;
  prices: Float64Array;
  /** Per minute: open, high, low, close, volume. */
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

function marketOf(path: MarketPath, coinId: CoinId): Market {
  const ticks = DAYS * TICKS_PER_DAY;
  const minutes = ticks / TICKS_PER_MINUTE;
  const candles = path.minuteCandles(coinId, START / TICKS_PER_MINUTE, minutes);
  return { coinId, prices: path.ticks(coinId, START, new Float64Array(ticks)), ...candles };
}

/** A rule: at each decision tick (with the market up to it, never after), how many ticks to hold if it enters; 0: no entry. */
type Rule = (m: Market, tick: number) => number;

const minuteOf = (tick: number) => Math.floor(tick / TICKS_PER_MINUTE);
const lastTickOfMinute = (tick: number) => tick % TICKS_PER_MINUTE === TICKS_PER_MINUTE - 1;

const RULES: Record<string, Rule> = {
  // The minute so far: its last tick against its open (the rule), with the trend and against it.
  'late-minute momentum: last tick 0.05 % above the open, out a minute later': (m, t) => (lastTickOfMinute(t) && m.prices[t]! > m.open[minuteOf(t)]! * 1.0005 ? TICKS_PER_MINUTE : 0),
  'late-minute reversal: last tick 0.05 % below the open, out a minute later': (m, t) => (lastTickOfMinute(t) && m.prices[t]! < m.open[minuteOf(t)]! * 0.9995 ? TICKS_PER_MINUTE : 0),
  // Closed candles only: decided at a minute's last tick (its close), so that minute is complete.
  'three up 1-minute candles, out 5 minutes later': (m, t) => {
    const k = minuteOf(t);
    return lastTickOfMinute(t) && k >= 2 && [k, k - 1, k - 2].every((j) => m.close[j]! > m.open[j]!) ? 5 * TICKS_PER_MINUTE : 0;
  },
  'mean reversion: a 1-minute candle down 0.2 %, out a minute later': (m, t) => (lastTickOfMinute(t) && m.close[minuteOf(t)]! < m.open[minuteOf(t)]! * 0.998 ? TICKS_PER_MINUTE : 0),
  'breakout: a close above the last hour\'s high, out 15 minutes later': (m, t) => {
    const k = minuteOf(t);
    if (!lastTickOfMinute(t) || k < 60) return 0;
    let high = 0;
    for (let j = k - 60; j < k; j++) high = Math.max(high, m.high[j]!);
    return m.close[k]! > high ? 15 * TICKS_PER_MINUTE : 0;
  },
  'the bot\'s rhythm: an up 5-minute candle, out at the next 5-minute close': (m, t) => {
    const k = minuteOf(t);
    return lastTickOfMinute(t) && k % 5 === 4 && m.close[k]! > m.open[k - 4]! ? 5 * TICKS_PER_MINUTE : 0;
  },
  'a tick that fell 0.1 % from the one before: buy the dip, out 30 s later': (m, t) => (t > 0 && m.prices[t]! < m.prices[t - 1]! * 0.999 ? 6 : 0),
};

/** A rule that reads the tick it will fill at (a look-ahead): it must show an edge. */
const PEEKING: Rule = (m, t) => (t + FILL_LAG + 1 < m.prices.length && m.prices[t + FILL_LAG + 1]! > m.prices[t + FILL_LAG]! * 1.004 ? 1 : 0);

interface Stats {
  trades: number;
  winRate: number;
  meanNet: number;
  tNet: number;
  tGross: number;
}

function tStat(values: number[]): number {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  return mean / (sd / Math.sqrt(n));
}

/** The rule's trades over the market, one at a time, each with real fills: net and gross returns. */
function backtest(m: Market, rule: Rule): Stats {
  const half = halfSpreadOf(m.coinId);
  const net: number[] = [];
  const gross: number[] = [];
  const fill = (tick: number, side: 'BUY' | 'SELL') => {
    const minute = minuteOf(tick);
    const volume = minute > 0 ? m.volume[minute - 1]! : 0; // the last complete minute before the fill
    const cost = half + priceImpact(m.coinId, ORDER_USD, volume);
    return m.prices[tick]! * (side === 'BUY' ? 1 + cost : 1 - cost);
  };
  for (let t = 0; t < m.prices.length; ) {
    const hold = rule(m, t);
    const entry = t + FILL_LAG;
    const exit = entry + hold;
    if (hold <= 0 || exit + FILL_LAG >= m.prices.length) {
      t += 1;
      continue;
    }
    // The exit is decided at `exit` and fills at the next tick, like any order.
    const paid = fill(entry, 'BUY') * (1 + TRADE_FEE_RATE);
    const received = fill(exit + FILL_LAG, 'SELL') * (1 - TRADE_FEE_RATE);
    net.push(received / paid - 1);
    gross.push(m.prices[exit + FILL_LAG]! / m.prices[entry]! - 1);
    t = exit + FILL_LAG + 1;
  }
  return {
    trades: net.length,
    winRate: net.filter((r) => r > 0).length / net.length,
    meanNet: net.reduce((a, b) => a + b, 0) / net.length,
    tNet: tStat(net),
    tGross: tStat(gross),
  };
}

describe('engine: no edge from what is known at order time (30 simulated days, real fills)', function () {
  this.timeout(120_000);
  const path = new MarketPath(KEY);
  const markets = COINS.map((c) => marketOf(path, c));

  for (const [name, rule] of Object.entries(RULES)) {
    it(`${name}: at most a 60 % win rate net of costs, mean net return not above zero (t <= 3), no drift before costs`, function () {
      for (const m of markets) {
        const s = backtest(m, rule);
        const about = `${m.coinId}: ${s.trades} trades, win rate ${(s.winRate * 100).toFixed(1)} %, mean net ${(s.meanNet * 1e4).toFixed(2)} bp, t net ${s.tNet.toFixed(2)}, t gross ${s.tGross.toFixed(2)}`;
        expect(s.trades, about).to.be.at.least(100);
        expect(s.winRate, about).to.be.at.most(0.6);
        expect(s.tNet, about).to.be.at.most(3);
        expect(Math.abs(s.tGross), about).to.be.at.most(3.5);
      }
    });
  }

  it('catches a rule that peeks at the tick it fills at (the statistic can see an edge)', function () {
    for (const m of markets) {
      const s = backtest(m, PEEKING);
      expect(s.winRate, m.coinId).to.be.greaterThan(0.6);
      expect(s.tNet, m.coinId).to.be.greaterThan(3);
    }
  });
});
