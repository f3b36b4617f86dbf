/**
 * A real-time message makes the right dashboard reads stale (section 4): each invalidation key is a
 * prefix of the query keys it must reach, and of no other. (How often each read polls, section 7,
 * is read from the screen itself in routes/dashboard-polling.unit.spec.ts.)
 */
import { expect } from 'chai';
import { partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { backtestQueryOptions } from '../features/backtesting/api/get-backtest';
import { backtestHistoryQueryOptions } from '../features/backtesting/api/get-backtest-history';
import { backtestStrategiesQueryOptions } from '../features/backtesting/api/get-backtest-strategies';
import { backtestTradesQueryOptions } from '../features/backtesting/api/get-backtest-trades';
import { comparePaperQueryOptions } from '../features/backtesting/api/get-compare-paper';
import { indicatorsQueryOptions } from '../features/indicators-panel/api/get-indicators';
import { coinPricesQueryOptions } from '../features/market/api/get-coin-prices';
import { coinSummaryQueryOptions } from '../features/market/api/get-coin-summary';
import { priceQueryOptions } from '../features/market/api/get-price';
import { supportedCoinsQueryOptions } from '../features/market/api/get-supported-coins';
import { mlStatusQueryOptions } from '../features/ml-status/api/get-ml-status';
import { tradesQueryOptions } from '../features/paper-trading/api/get-trades';
import { portfolioQueryOptions } from '../features/portfolio/api/get-portfolio';
import { signalsQueryOptions } from '../features/signals/api/get-signals';
import { realtimeInvalidation } from './realtime-invalidation';
import { afterResetInvalidates, afterTradeInvalidates } from './trading-refresh';

const reaches = (keys: readonly QueryKey[], queryKey: QueryKey) => keys.some((key) => partialMatchKey(queryKey, key));

describe('dashboard queries', () => {
  it('are keyed per coin, so switching coins never shows the previous coin from the cache', () => {
    expect(priceQueryOptions('ETH').queryKey).to.not.deep.equal(priceQueryOptions('BTC').queryKey);
    expect(signalsQueryOptions('ETH').queryKey).to.not.deep.equal(signalsQueryOptions(null).queryKey);
    expect(indicatorsQueryOptions('ETH').queryKey).to.not.deep.equal(indicatorsQueryOptions('SOL').queryKey);
  });

  it('MARKET_UPDATE reaches portfolio, trades, price, signals and indicators of every coin; not the coin list or ml-status', () => {
    const market = realtimeInvalidation.market;
    for (const key of [
      portfolioQueryOptions().queryKey,
      tradesQueryOptions().queryKey,
      priceQueryOptions('ETH').queryKey,
      priceQueryOptions('BTC').queryKey,
      coinPricesQueryOptions().queryKey,
      coinSummaryQueryOptions('ethereum').queryKey,
      signalsQueryOptions('ETH').queryKey,
      signalsQueryOptions(null).queryKey,
      indicatorsQueryOptions('ADA').queryKey,
    ]) {
      expect(reaches(market, key), JSON.stringify(key)).to.equal(true);
    }
    expect(reaches(market, supportedCoinsQueryOptions().queryKey)).to.equal(false);
    expect(reaches(market, mlStatusQueryOptions().queryKey)).to.equal(false);
  });

  it('ML_UPDATE reaches ml-status only', () => {
    expect(reaches(realtimeInvalidation.ml, mlStatusQueryOptions().queryKey)).to.equal(true);
    expect(reaches(realtimeInvalidation.ml, portfolioQueryOptions().queryKey)).to.equal(false);
    expect(reaches(realtimeInvalidation.ml, priceQueryOptions('ETH').queryKey)).to.equal(false);
  });

  it('BACKTEST_UPDATE reaches a run, its trade pages, its comparison and the history; not the strategy list or the dashboard', () => {
    const id = '0b4e6a52-1d3c-4a8e-9f10-2c3d4e5f6a7b';
    for (const key of [backtestQueryOptions(id).queryKey, backtestTradesQueryOptions(id, 2).queryKey, comparePaperQueryOptions(id).queryKey, backtestHistoryQueryOptions().queryKey]) {
      expect(reaches(realtimeInvalidation.backtest, key), JSON.stringify(key)).to.equal(true);
    }
    expect(reaches(realtimeInvalidation.backtest, backtestStrategiesQueryOptions().queryKey)).to.equal(false);
    expect(reaches(realtimeInvalidation.backtest, portfolioQueryOptions().queryKey)).to.equal(false);
    expect(reaches(realtimeInvalidation.market, backtestHistoryQueryOptions().queryKey)).to.equal(false);
  });

  it('a manual trade refreshes portfolio and trades; a bot reset also signals and ml-status (section 4), nothing else', () => {
    expect(reaches(afterTradeInvalidates, portfolioQueryOptions().queryKey)).to.equal(true);
    expect(reaches(afterTradeInvalidates, tradesQueryOptions().queryKey)).to.equal(true);
    expect(reaches(afterTradeInvalidates, signalsQueryOptions('ETH').queryKey)).to.equal(false);
    for (const key of [portfolioQueryOptions().queryKey, tradesQueryOptions().queryKey, signalsQueryOptions('ETH').queryKey, signalsQueryOptions(null).queryKey, mlStatusQueryOptions().queryKey]) {
      expect(reaches(afterResetInvalidates, key), JSON.stringify(key)).to.equal(true);
    }
    expect(reaches(afterResetInvalidates, priceQueryOptions('ETH').queryKey)).to.equal(false);
    expect(reaches(afterResetInvalidates, indicatorsQueryOptions('ETH').queryKey)).to.equal(false);
  });
});
