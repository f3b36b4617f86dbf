import { PageHeader } from '../../components/layouts/page-header';
import { BacktestingScreen } from '../../features/backtesting/components/backtesting-screen';
import './screens.css';

export default function BacktestingRoute() {
  return (
    <>
      <title>Strategy Backtesting · AI Trading Assistant</title>
      <PageHeader title="Strategy Backtesting" subtitle="Replay a strategy over the market's history through the paper bot's own engine" />
      <BacktestingScreen />
    </>
  );
}
