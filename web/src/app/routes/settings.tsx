import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/layouts/page-header';
import { exchangesQueryOptions } from '../../features/exchanges/api/get-exchanges';
import { PlanCards } from '../../features/plans/components/plan-cards';
import { riskParametersQueryOptions } from '../../features/risk/api/get-risk-parameters';
import { riskQueryOptions, useRisk } from '../../features/risk/api/get-risk';
import { RiskParametersSummary } from '../../features/risk/components/risk-parameters-summary';
import { SettingsScreen } from '../../features/settings/components/settings-screen';
import { useAuth } from '../../lib/auth/auth-context';
import './screens.css';

/** Settings: the route composes the settings feature with the risk profile (issue 17), the plans and the exchanges. */
export default function SettingsRoute() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const risk = useRisk({ enabled: user !== null });
  return (
    <>
      <title>Settings · AI Trading Assistant</title>
      <PageHeader title="Settings" subtitle="Your bot, API keys, notifications and plan" />
      <SettingsScreen
        botSettings={risk.data?.settings}
        onBotSettingsSaved={() => {
          // One risk profile: the bot settings are its fields, so every risk read changes with them.
          void queryClient.invalidateQueries({ queryKey: riskQueryOptions().queryKey });
          void queryClient.invalidateQueries({ queryKey: riskParametersQueryOptions().queryKey });
        }}
        onApiSettingsSaved={() => void queryClient.invalidateQueries({ queryKey: exchangesQueryOptions().queryKey })}
        riskParameters={<RiskParametersSummary />}
        plans={<PlanCards actionTo="/subscription" actionLabel={(plan) => `Choose ${plan.name}`} />}
      />
    </>
  );
}
