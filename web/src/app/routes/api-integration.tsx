import { PageHeader } from '../../components/layouts/page-header';
import { ApiIntegrationScreen } from '../../features/exchanges/components/api-integration-screen';
import { PaperAccountSummary } from '../../features/portfolio/components/paper-account-summary';
import { TradingSettingsPanel } from '../../features/settings/components/trading-settings-panel';
import './screens.css';

/** Exchange API Integration: the exchanges feature, with the trading mode (settings) and the paper account (portfolio). */
export default function ApiIntegrationRoute() {
  return (
    <>
      <title>Exchange API Integration · AI Trading Assistant</title>
      <PageHeader title="Exchange API Integration" subtitle="Connect Binance, Coinbase and Kraken: testnet by default" />
      <ApiIntegrationScreen tradingSettings={<TradingSettingsPanel />} paperAccount={<PaperAccountSummary />} />
    </>
  );
}
