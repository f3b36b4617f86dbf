import { PageHeader } from '../../components/layouts/page-header';
import { PriceChartPanel } from '../../features/market-chart/components/price-chart-panel';
import './screens.css';

/** The main dashboard's frame; its panels arrive with the dashboard issue. */
export default function DashboardRoute() {
  return (
    <>
      <title>Dashboard · AI Trading Assistant</title>
      <PageHeader title="Multi-Coin Trading Dashboard" subtitle="Real-time analysis and AI-powered insights" />
      <section className="dashboard-layout" aria-label="Dashboard panels" data-testid="dashboard-layout">
        <PriceChartPanel coinId="ethereum" />
      </section>
    </>
  );
}
