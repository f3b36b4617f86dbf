import { PageHeader } from '../../components/layouts/page-header';
import { TradeHistoryScreen } from '../../features/trade-history/components/trade-history-screen';
import './screens.css';

export default function TradeHistoryRoute() {
  return (
    <>
      <title>Trade History · AI Trading Assistant</title>
      <PageHeader title="Trade History" subtitle="Every paper trade, with its signal and result" />
      <TradeHistoryScreen />
    </>
  );
}
