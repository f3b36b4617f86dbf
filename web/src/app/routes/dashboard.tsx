/**
 * The main dashboard (spec section 2): header (coin selector, live status, login link for
 * visitors), the four cards, then the chart with the signals panel, the indicators with the recent
 * paper trades, and the row of risk management, risk overview, ML model status and quick actions;
 * the AI chat button floats bottom right. Features never import each other: this screen composes
 * them around the selected coin (Redux) and the real-time connection (the shell's provider).
 */
import { Link } from 'react-router-dom';
import { useSelector } from 'react-redux';
import { PageHeader } from '../../components/layouts/page-header';
import { ConnectionStatus } from '../../components/ui/connection-status';
import { ChatLauncher } from '../../features/ai-chat/components/chat-launcher';
import { PriceChartPanel } from '../../features/market-chart/components/price-chart-panel';
import { IndicatorsPanel } from '../../features/indicators-panel/components/indicators-panel';
import { CoinSelector } from '../../features/market/components/coin-selector';
import { PerformanceCard, PriceCard } from '../../features/market/components/market-cards';
import { selectSelectedCoin, type StateWithSelectedCoin } from '../../features/market/stores/selected-coin-slice';
import { EntriesPausedNote, RiskManagementCard, RiskOverviewCard } from '../../features/risk/components/risk-cards';
import { MlStatusPanel } from '../../features/ml-status/components/ml-status-panel';
import { QuickActionsPanel } from '../../features/paper-trading/components/quick-actions-panel';
import { RecentTradesPanel } from '../../features/paper-trading/components/recent-trades-panel';
import { TradeForm } from '../../features/paper-trading/components/trade-form';
import { usePortfolio } from '../../features/portfolio/api/get-portfolio';
import { PortfolioDayPnl } from '../../features/portfolio/components/portfolio-day-pnl';
import { useSignals } from '../../features/signals/api/get-signals';
import { ActiveSignalsCard, AiConfidenceCard } from '../../features/signals/components/signal-cards';
import { SignalsPanel } from '../../features/signals/components/signals-panel';
import { useAuth } from '../../lib/auth/auth-context';
import { useLiveTick } from '../../lib/realtime/realtime-hooks';
import { usePositionSizeCheck } from '../position-size-check';
import { afterResetInvalidates, afterTradeInvalidates } from '../trading-refresh';
import './dashboard.css';

export default function DashboardRoute() {
  const { user } = useAuth();
  const coin = useSelector((state: StateWithSelectedCoin) => selectSelectedCoin(state));
  const coinId = coin.id;
  // The newest candle follows the feed's ticks between the chart's 60 s refetches.
  const liveTick = useLiveTick(coinId);
  // The export needs the signals (every coin's) and the portfolio loaded besides the trades (spec section 5).
  const portfolio = usePortfolio();
  const allSignals = useSignals(null);
  const exportReady = portfolio.data !== undefined && allSignals.data !== undefined;
  // A BUY above the maximum position size asks the person first (issue 16 item 13).
  const checkBuy = usePositionSizeCheck(coin.symbol);

  return (
    <>
      <title>Dashboard · AI Trading Assistant</title>
      <PageHeader
        title="Multi-Coin Trading Dashboard"
        subtitle="Real-time analysis and AI-powered insights"
        actions={
          <div className="dashboard-header__actions">
            <CoinSelector />
            <ConnectionStatus />
            {user === null && (
              <Link to="/login" className="btn btn--sm">
                Login to control trading
              </Link>
            )}
          </div>
        }
      />
      <div className="dashboard" data-testid="dashboard-layout">
        <div className="dashboard__cards">
          <PriceCard coin={coin} />
          <AiConfidenceCard symbol={coin.symbol} />
          <ActiveSignalsCard symbol={coin.symbol} />
          <PerformanceCard coin={coin} portfolio={<PortfolioDayPnl />} />
        </div>

        <div className="dashboard__row dashboard__row--chart">
          <div className="dashboard__chart">
            <PriceChartPanel coinId={coinId} livePrice={liveTick?.price} livePriceAt={liveTick ? Date.parse(liveTick.at) : undefined} />
          </div>
          <SignalsPanel symbol={coin.symbol} />
        </div>

        <div className="dashboard__row dashboard__row--halves">
          <IndicatorsPanel symbol={coin.symbol} />
          <RecentTradesPanel />
        </div>

        <div className="dashboard__row dashboard__row--quarters">
          <RiskManagementCard />
          <RiskOverviewCard />
          <MlStatusPanel />
          <QuickActionsPanel resetInvalidates={afterResetInvalidates} exportReady={exportReady} statusNote={<EntriesPausedNote />}>
            {/* Keyed by coin: another coin's last fill or error is not this one's. */}
            <TradeForm key={coinId} coinId={coinId} symbol={coin.symbol} invalidates={afterTradeInvalidates} checkBuy={checkBuy} />
          </QuickActionsPanel>
        </div>
      </div>
      <ChatLauncher />
    </>
  );
}
