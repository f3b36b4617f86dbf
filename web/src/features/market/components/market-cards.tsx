/**
 * The market cards of the dashboard's top row for the selected coin:
 * - Current price, labelled SYMBOL/USD: the coin's live quote (../api/use-live-quote.ts: GET
 *   /api/price?symbol= every 5 s moved by the real-time ticks), the same the coin selector shows;
 * - 24h Performance (spec section 2: "daily profit and loss as a percent of total portfolio value,
 *   compared with the coin's market"): the portfolio's daily P&L is the figure, which the screen
 *   passes in as `portfolio` (it belongs to the portfolio feature, and features do not import each
 *   other); under it the coin's market change over 24 h with its high and low (the per-coin summary)
 *   to compare it with. Without a portfolio part the market change is the figure.
 */
import type { ReactNode } from 'react';
import { FetchError } from '../../../components/ui/fetch-error';
import { StatCard } from '../../../components/ui/panel';
import { direction, formatPrice, formatSignedPercent, MISSING } from '../../../lib/number-format';
import { COIN_SUMMARY_ERROR, useCoinSummary } from '../api/get-coin-summary';
import { PRICE_ERROR } from '../api/get-price';
import { useLiveQuote } from '../api/use-live-quote';
import type { SelectedCoin } from '../stores/selected-coin-slice';

export function PriceCard({ coin }: { coin: SelectedCoin }) {
  const { quote, polled } = useLiveQuote(coin);
  return (
    <StatCard label="Current Price" testId="price-card">
      <span className="stat-card__pair" data-testid="price-pair">
        {coin.symbol}/USD
      </span>
      <span className="stat-card__value num" data-testid="price-value">
        {quote ? formatPrice(quote.price) : MISSING}
      </span>
      <span className={`stat-card__note num ${direction(quote?.changePercent24h)}`} data-testid="price-change">
        {formatSignedPercent(quote?.changePercent24h)} 24h
      </span>
      {polled.isError && !quote && <FetchError text={PRICE_ERROR} error={polled.error} />}
    </StatCard>
  );
}

export function PerformanceCard({ coin, portfolio }: { coin: SelectedCoin; portfolio?: ReactNode }) {
  const summary = useCoinSummary(coin.id);
  const data = summary.data;
  return (
    <StatCard label="24h Performance" testId="performance-card">
      {portfolio}
      <span className="stat-card__note num" data-testid="performance-market">
        {portfolio ? 'vs ' : ''}
        {coin.symbol} market{' '}
        <span className={portfolio ? direction(data?.changePercent24h) : `stat-card__value ${direction(data?.changePercent24h)}`} data-testid="performance-market-change">
          {formatSignedPercent(data?.changePercent24h)}
        </span>{' '}
        · low {formatPrice(data?.low24h)} · high {formatPrice(data?.high24h)}
      </span>
      {summary.isError && <FetchError text={COIN_SUMMARY_ERROR} error={summary.error} />}
    </StatCard>
  );
}
