import { isPremium } from '@papertrade/domain/auth/contracts';
import { PageHeader } from '../../components/layouts/page-header';
import { MirrorOrdersPanel } from '../../features/exchanges/components/mirror-orders-panel';
import { TradeHistoryScreen } from '../../features/trade-history/components/trade-history-screen';
import { useAuth } from '../../lib/auth/auth-context';
import './screens.css';

export default function TradeHistoryRoute() {
  const { user } = useAuth();
  return (
    <>
      <title>Trade History · AI Trading Assistant</title>
      <PageHeader title="Trade History" subtitle="Every paper trade, with its signal and result" />
      <TradeHistoryScreen />
      {/* Mirror to testnet (issue 21, premium): the testnet's fill beside each mirrored paper fill. */}
      {user !== null && isPremium(user) && <MirrorOrdersPanel />}
    </>
  );
}
