/**
 * The risk parameters read-only (the Settings screen's Risk Management tab): every parameter of the
 * one risk profile with its value, from GET /api/risk/parameters. Changing them is the Risk
 * Management screen's job.
 */
import { FetchError } from '../../../components/ui/fetch-error';
import { useRiskParameters } from '../api/get-risk-parameters';
import { numericParameterFields } from '../parameter-fields';
import { formatRatio, stopLossValueLabel } from '../risk-profile-labels';
import './risk.css';

export function RiskParametersSummary() {
  const query = useRiskParameters({ enabled: true });
  if (query.isError) return <FetchError text="Failed to fetch risk parameters" error={query.error} />;
  if (!query.data) return <p className="empty-text">Loading…</p>;
  const p = query.data;
  const rows: Array<[string, string]> = [
    ...numericParameterFields.map(({ name, label }): [string, string] => [name === 'stopLossValue' ? stopLossValueLabel(p.stopLossType) : label, formatRatio(p[name])]),
    ['Stop Loss Type', p.stopLossType],
    ['Kelly Criterion', p.kellyCriterionEnabled ? 'On' : 'Off'],
    ['Dynamic Position Sizing', p.dynamicPositionSizing ? 'On' : 'Off'],
  ];
  return (
    <dl className="risk-summary" data-testid="risk-parameters-summary">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
