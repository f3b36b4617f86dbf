import { PageHeader } from '../../components/layouts/page-header';
import { RiskManagementScreen } from '../../features/risk/components/risk-management-screen';
import './screens.css';

export default function RiskManagementRoute() {
  return (
    <>
      <title>Risk Management · AI Trading Assistant</title>
      <PageHeader title="Risk Management" subtitle="Limits, stops and alerts for your paper portfolio" />
      <RiskManagementScreen />
    </>
  );
}
