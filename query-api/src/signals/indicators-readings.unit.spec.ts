/**
 * GET /api/indicators computes the readings of a series once (signals-routes.ts readingsOf): the
 * market data hands out the same series object for as long as it holds, and the answer must still
 * move on when a candle of that series closes (the newest candle is forming, and the route reads
 * closed candles only). The market here is a fixed series; only the clock moves.
 */
import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { coins, type Candle } from '@papertrade/domain/market/coins';
import type { CandleSeries, MarketData } from '@papertrade/platform/market/market-data';
import { signalsRoutes } from './signals-routes';

const WIDTH = 5 * 60_000;
const START = Date.UTC(2026, 2, 2, 0, 0);

/** 100 candles of 5 minutes from START, each closing a little higher or lower, with volume. */
function series(): CandleSeries {
  const candles: Candle[] = Array.from({ length: 100 }, (_, i) => {
    const close = 100 + Math.sin(i / 3) * 5 + i * 0.1;
    return { time: START + i * WIDTH, open: close - 0.5, high: close + 1, low: close - 1, close, volume: 1000 + (i % 7) * 50 };
  });
  return { coinId: 'ethereum', interval: { minutes: 5, label: '5m' }, candles } as CandleSeries;
}

describe('GET /api/indicators of a kept series', function () {
  it('moves on to the next candle when it closes, on the same series object', async function () {
    const fixed = series();
    let now = START + 97 * WIDTH + 60_000; // candle 97 forming: 96 is the last closed
    const marketData = { source: 'simulated', supportedCoins: () => coins, candles: async () => fixed } as unknown as MarketData;
    const deps = { readModels: undefined as never, readCache: undefined as never, marketData, clock: () => new Date(now) };
    const app = new Koa();
    app.use(signalsRoutes(deps).routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/indicators`;
    const read = async () => (await (await fetch(url)).json()) as { candleTime: string; price: number };
    try {
      const first = await read();
      expect(first.candleTime).to.equal(new Date(START + 96 * WIDTH).toISOString());
      expect(first.price).to.equal(fixed.candles[96]!.close);
      expect(await read()).to.deep.equal(first);
      now = START + 98 * WIDTH; // candle 97 has just closed
      const next = await read();
      expect(next.candleTime).to.equal(new Date(START + 97 * WIDTH).toISOString());
      expect(next.price).to.equal(fixed.candles[97]!.close);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
