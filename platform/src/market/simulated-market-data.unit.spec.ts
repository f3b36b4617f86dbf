/**
 * The simulated adapter and the factory: the port answers from the domain simulation at the injected
 * clock's time and never after it, a trade fills at the price the feed shows at that moment, and
 * MARKET_DATA / MARKET_SEED / COINGECKO_URL pick and configure the adapter.
 */
import { expect } from 'chai';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { coins, type CoinId } from '@papertrade/domain/market/coins';
import { tickAt, TICKS_PER_MINUTE } from '@papertrade/domain/market/market-path';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { loadConfig } from '../config/config';
import { CoinGeckoMarketData } from './coingecko-market-data';
import { createMarketData } from './create-market-data';
import { marketKeyFromSeed } from './market-seed';
import { SimulatedMarketData } from './simulated-market-data';

const NOW = Date.UTC(2025, 5, 1, 9, 30, 17);
const MINUTE = 60_000;
const SEED = 'the seven seas market seed';

describe('simulated market data', function () {
  this.timeout(120_000);
  let now = NOW;
  const clock = () => new Date(now);
  beforeEach(function () {
    now = NOW;
  });

  it("serves every coin's price now (its last tick) with its 24-hour change", async function () {
    const market = new SimulatedMarketData(SEED, clock);
    const sim = new MarketSimulation(marketKeyFromSeed(SEED));
    const prices = await market.prices();
    expect(prices.map((p) => [p.coinId, p.symbol])).to.deep.equal(coins.map((c) => [c.id, c.symbol]));
    const eth = sim.quote('ethereum', NOW);
    expect(prices[0]).to.deep.equal({
      coinId: 'ethereum',
      symbol: 'ETH',
      price: eth.price,
      change24h: eth.change24h,
      changePercent24h: eth.changePercent24h,
      volume24h: eth.volume24h,
      at: new Date(NOW - 2000).toISOString(), // the tick at 09:30:15
    });
    now += 5 * MINUTE;
    expect((await market.price('bitcoin')).price).to.equal(sim.priceAt('bitcoin', NOW + 5 * MINUTE));
    expect(market.supportedCoins()).to.equal(coins);
    expect(market.source).to.equal('simulated');
  });

  it('serves candles and history for a range ending now, the same in two processes with one seed, another market for another seed', async function () {
    const a = new SimulatedMarketData(SEED, clock);
    const b = new SimulatedMarketData(SEED, clock);
    const series = await a.candles('solana', 7);
    expect(series.interval.label).to.equal('1h');
    expect(series.candles.at(-1)!.close).to.equal((await a.price('solana')).price);
    expect(await b.candles('solana', 7)).to.deep.equal(series);
    expect((await a.history('solana', 7)).map((p) => p.price)).to.deep.equal(series.candles.map((c) => c.close));
    expect((await new SimulatedMarketData(`${SEED}!`, clock).price('solana')).price).to.not.equal((await a.price('solana')).price);
  });

  it('never answers with a price after now: the newest candle holds the ticks up to now and none after', async function () {
    const market = new SimulatedMarketData(SEED, clock);
    const sim = new MarketSimulation(marketKeyFromSeed(SEED));
    for (const days of [0.04, 1]) {
      const series = await market.candles('cardano', days);
      const newest = series.candles.at(-1)!;
      const first = tickAt(newest.time);
      const upToNow = sim.path.ticks('cardano', first, new Float64Array(tickAt(NOW) - first + 1));
      expect([newest.open, newest.high, newest.low, newest.close], `${days} days`).to.deep.equal([upToNow[0], Math.max(...upToNow), Math.min(...upToNow), upToNow.at(-1)]);
      expect(Date.parse((await market.price('cardano')).at)).to.be.at.most(NOW);
    }
    // The whole minute (its ticks after now too) is another candle: what now shows is not it.
    const minute = sim.candles('cardano', NOW, NOW + MINUTE, 1)[0]!;
    const shown = (await market.candles('cardano', 0.04)).candles.at(-1)!;
    expect(shown.time).to.equal(minute.time);
    expect([shown.high, shown.low, shown.close]).to.not.deep.equal([minute.high, minute.low, minute.close]);
  });

  it('fills a trade at the price the feed shows at that moment: "buy when the tick is 0.25% above this minute\'s price, sell a minute later" has no edge (the old path won 130 of 135 ETH trades)', async function () {
    // The experiment through the port, as the product runs it: the feed publishes prices()
    // every 5 s and a manual trade fills at price() when its command is decided.
    const market = new SimulatedMarketData(SEED, clock);
    const start = Date.UTC(2025, 2, 10);
    const days = 2;
    for (const coinId of ['ethereum', 'bitcoin', 'solana'] as const) {
      let trades = 0;
      let wins = 0;
      for (let minute = start; minute < start + days * 1440 * MINUTE; minute += MINUTE) {
        now = minute;
        const minutePrice = (await market.price(coinId)).price;
        for (let k = 1; k < TICKS_PER_MINUTE; k++) {
          now = minute + k * 5000;
          const tick = (await market.price(coinId)).price; // what prices() publishes for the coin (checked below)
          if (tick < minutePrice * 1.0025) continue;
          const bought = (await market.price(coinId)).price;
          expect(bought, 'a fill at the tick shown').to.equal(tick);
          now += MINUTE;
          const sold = (await market.price(coinId)).price;
          trades += 1;
          if (sold > bought) wins += 1;
          break;
        }
      }
      expect((await market.prices()).find((p) => p.coinId === coinId)).to.deep.equal(await market.price(coinId));
      expect(trades, `${coinId}: trades`).to.be.greaterThan(20);
      // A coin toss: within three standard errors of half.
      expect(Math.abs(wins / trades - 0.5), `${coinId}: ${wins} of ${trades} won`).to.be.below(3 * Math.sqrt(0.25 / trades));
    }
  });

  it('quotes every coin at a moment up to now as an order meets it: the tick at or before it, and the last complete minute\'s volume', async function () {
    const market = new SimulatedMarketData(SEED, clock);
    const sim = new MarketSimulation(marketKeyFromSeed(SEED));
    const at = NOW - 42_000 + 1500; // 09:29:36.5: the tick at or before it is 09:29:35
    const quotes = await market.quotesAt(at);
    expect(quotes.map((q) => q.coinId)).to.deep.equal(coins.map((c) => c.id));
    const tick = tickAt(at);
    const minute = Math.floor(tick / TICKS_PER_MINUTE);
    expect(quotes[1]).to.deep.equal({
      coinId: 'bitcoin',
      symbol: 'BTC',
      price: sim.path.price('bitcoin', tick),
      filledAt: new Date(NOW - 42_000).toISOString(),
      minuteVolumeUsd: sim.path.summary('bitcoin', (minute - 1) * TICKS_PER_MINUTE, minute * TICKS_PER_MINUTE).volume,
    });
    // The quote now is the price the feed shows now.
    expect((await market.quotesAt(NOW)).find((q) => q.coinId === 'cardano')!.price).to.equal((await market.price('cardano')).price);
    // Nothing after now: not a quote, not a tick of the path.
    const error = await market.quotesAt(NOW + 5000).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(RangeError);
    expect(market.ticks.lastTick()).to.equal(tickAt(NOW));
    expect(market.ticks.price('solana', tickAt(NOW))).to.equal(sim.path.price('solana', tickAt(NOW)));
    expect(() => market.ticks.price('solana', tickAt(NOW) + 1)).to.throw(RangeError, /has not happened yet/);
    now += 5000; // the next tick has happened now
    expect(market.ticks.price('solana', tickAt(NOW) + 1)).to.equal(sim.path.price('solana', tickAt(NOW) + 1));
  });

  it('refuses an unknown coin and a bad range with a validation error', async function () {
    const market = new SimulatedMarketData(SEED, clock);
    for (const call of [() => market.price('dogecoin' as CoinId), () => market.candles('bitcoin', 0), () => market.history('bitcoin', 366)]) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(ValidationError);
    }
  });
});

describe('market data configuration', function () {
  it('defaults to the simulated market with no seed of its own (none in the source) and the public CoinGecko URL', function () {
    const config = loadConfig({});
    expect([config.MARKET_DATA, config.MARKET_SEED, config.COINGECKO_URL]).to.deep.equal(['simulated', undefined, 'https://api.coingecko.com/api/v3']);
    expect(() => createMarketData(config, () => new Date(NOW), undefined)).to.throw('needs a seed');
    expect(createMarketData(config, () => new Date(NOW), SEED)).to.be.instanceOf(SimulatedMarketData);
  });

  it('selects CoinGecko or a seed from the environment and refuses bad values', function () {
    const config = loadConfig({ MARKET_DATA: 'coingecko', MARKET_SEED: 'sixteen chars ok', COINGECKO_URL: 'http://127.0.0.1:9/api/v3' });
    expect(config.MARKET_SEED).to.equal('sixteen chars ok');
    expect(createMarketData(config, () => new Date(NOW), undefined)).to.be.instanceOf(CoinGeckoMarketData);
    expect(loadConfig({ MARKET_SEED: '' }).MARKET_SEED).to.equal(undefined);
    expect(() => loadConfig({ MARKET_DATA: 'binance' })).to.throw('Invalid configuration: MARKET_DATA');
    expect(() => loadConfig({ MARKET_SEED: 'too short' })).to.throw('Invalid configuration: MARKET_SEED: MARKET_SEED must be at least 16 characters');
    expect(() => loadConfig({ COINGECKO_URL: 'not a url' })).to.throw('Invalid configuration: COINGECKO_URL');
    expect(() => loadConfig({ COINGECKO_URL: 'file:///etc/passwd' })).to.throw('Invalid configuration: COINGECKO_URL');
  });
});
