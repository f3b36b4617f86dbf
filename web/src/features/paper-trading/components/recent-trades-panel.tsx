/**
 * Recent Trades (spec sections 2 and 9): the newest paper trades, labelled SIMULATION, each with
 * its type (BUY / SELL coloured), amount to 4 decimals, fill price, P&L and time. A BUY partly sold
 * says what it still holds (its P&L covers only that: sales take the oldest lots first). Visitors see
 * the house demo bot's trades and are told so. 'No recent trades' when there are none.
 */
import { FetchError } from '../../../components/ui/fetch-error';
import { Panel } from '../../../components/ui/panel';
import { formatPrice } from '../../../lib/number-format';
import { useTrades } from '../api/get-trades';
import { formatAmount, formatTradePnl, formatTradeTime } from '../trade-format';
import './paper-trading.css';

export const RECENT_TRADES_SHOWN = 8;
export const TRADES_ERROR = 'Failed to fetch trades';

export function RecentTradesPanel() {
  const trades = useTrades();
  const data = trades.data;
  const shown = data?.trades.slice(0, RECENT_TRADES_SHOWN) ?? [];
  return (
    <Panel title="Recent Trades" testId="recent-trades-panel" actions={<span className="badge badge--accent">SIMULATION</span>}>
      {data?.demo && (
        <p className="trades__demo-note" data-testid="trades-demo-note">
          The house demo bot&apos;s paper trades. Log in to trade your own.
        </p>
      )}
      {data && shown.length === 0 && <p className="empty-text">No recent trades</p>}
      {shown.length > 0 && (
        <ul className="trades" data-testid="recent-trades">
          {shown.map((trade) => {
            const pnl = formatTradePnl(trade.pnl, trade.pnlRealised);
            return (
              <li key={trade.id} className="trades__item" data-testid="trade-item">
                <span className={`trades__type trades__type--${trade.type.toLowerCase()}`} data-testid="trade-type">
                  {trade.type}
                </span>
                <span className="trades__main">
                  <span className="num" data-testid="trade-amount">
                    {formatAmount(trade.amount, trade.symbol)}
                  </span>
                  <span className="trades__sub">
                    @ <span className="num" data-testid="trade-price">{formatPrice(trade.price)}</span> · {trade.source}
                    {trade.status === 'OPEN' && trade.soldQuantity ? (
                      <span data-testid="trade-left"> · {formatAmount(trade.remainingQuantity ?? 0, trade.symbol)} left</span>
                    ) : null}
                  </span>
                </span>
                <span className="trades__side">
                  <span className={`num ${pnl.tone}`} data-testid="trade-pnl" title={pnl.note ?? undefined}>
                    {pnl.text}
                    {pnl.note && <span className="trades__note"> {pnl.note}</span>}
                  </span>
                  <time className="trades__sub num" dateTime={trade.timestamp} data-testid="trade-time">
                    {formatTradeTime(trade.timestamp)}
                  </time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {trades.isError && <FetchError text={TRADES_ERROR} error={trades.error} />}
    </Panel>
  );
}
