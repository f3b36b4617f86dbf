/**
 * The simulated adapter and the factory: the port answers from the domain simulation at the injected
 * clock's time, and MARKET_DATA / MARKET_SEED / COINGECKO_URL pick and configure the adapter.
 */
import { expect } from 'chai';
import { ValidationError } from '@papertrade/domain/shared/errors';
import { coins, type CoinId } from '@papertrade/domain/market/coins';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { loadConfig } from '../config/config';
import { CoinGeckoMarketData } from './coingecko-market-data';
import { createMarketData } from './create-market-data';
import { SimulatedMarketData } from './simulated-market-data';

const NOW = Date.UTC(2025, 5, 1, 9, 30, 15);
const MINUTE = 60_000;

describe('simulated market data', function () {
  let now = NOW;
  const clock = () => new Date(now);
  beforeEach(function () {
    now = NOW;
  });

  it('serves every coin price with its 24-hour change at the clock time', async function () {
    const market = new SimulatedMarketData(7, clock);
    const sim = new MarketSimulation(7);
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
      at: new Date(NOW - 15_000).toISOString(),
    });
    now += 5 * MINUTE;
    expect((await market.price('bitcoin')).price).to.equal(sim.priceAt('bitcoin', NOW + 5 * MINUTE));
    expect(market.supportedCoins()).to.equal(coins);
    expect(market.source).to.equal('simulated');
  });

  it('serves candles and history for a range ending now, the same in two processes with one seed', async function () {
    const a = new SimulatedMarketData(7, clock);
    const b = new SimulatedMarketData(7, clock);
    const series = await a.candles('solana', 7);
    expect(series.interval.label).to.equal('1h');
    expect(series.candles.at(-1)!.close).to.equal((await a.price('solana')).price);
    expect(await b.candles('solana', 7)).to.deep.equal(series);
    expect((await a.history('solana', 7)).map((p) => p.price)).to.deep.equal(series.candles.map((c) => c.close));
    expect((await new SimulatedMarketData(8, clock).price('solana')).price).to.not.equal((await a.price('solana')).price);
  });

  it('refuses an unknown coin and a bad range with a validation error', async function () {
    const market = new SimulatedMarketData(7, clock);
    for (const call of [() => market.price('dogecoin' as CoinId), () => market.candles('bitcoin', 0), () => market.history('bitcoin', 366)]) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(ValidationError);
    }
  });
});

describe('market data configuration', function () {
  it('defaults to the simulated market with a fixed seed and the public CoinGecko URL', function () {
    const config = loadConfig({});
    expect([config.MARKET_DATA, config.MARKET_SEED, config.COINGECKO_URL]).to.deep.equal(['simulated', 20240601, 'https://api.coingecko.com/api/v3']);
    const market = createMarketData(config, () => new Date(NOW));
    expect(market).to.be.instanceOf(SimulatedMarketData);
    expect((market as SimulatedMarketData).simulation.seed).to.equal(20240601);
  });

  it('selects CoinGecko or a seed from the environment and refuses bad values', function () {
    const config = loadConfig({ MARKET_DATA: 'coingecko', MARKET_SEED: '42', COINGECKO_URL: 'http://127.0.0.1:9/api/v3' });
    expect(config.MARKET_SEED).to.equal(42);
    expect(createMarketData(config, () => new Date(NOW))).to.be.instanceOf(CoinGeckoMarketData);
    expect(() => loadConfig({ MARKET_DATA: 'binance' })).to.throw('Invalid configuration: MARKET_DATA');
    expect(() => loadConfig({ MARKET_SEED: '-1' })).to.throw('Invalid configuration: MARKET_SEED');
    expect(() => loadConfig({ MARKET_SEED: '1.5' })).to.throw('Invalid configuration: MARKET_SEED');
    expect(() => loadConfig({ COINGECKO_URL: 'not a url' })).to.throw('Invalid configuration: COINGECKO_URL');
    expect(() => loadConfig({ COINGECKO_URL: 'file:///etc/passwd' })).to.throw('Invalid configuration: COINGECKO_URL');
  });
});
