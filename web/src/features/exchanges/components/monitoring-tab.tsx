/**
 * Monitoring: the real balance of each connected exchange account (as of its last test, valued at the
 * market now) and the share allocated to coins; with none connected, the paper portfolio's (the
 * route passes it in: features do not import each other). Never the spec's fixed 12487.32 / 68 %.
 */
import type { ReactNode } from 'react';
import type { ExchangeConnection } from '@papertrade/domain/exchanges/contracts';
import { Panel } from '../../../components/ui/panel';
import { formatCoinAmount, formatPercent, formatUsd } from '../../../lib/number-format';
import '../../../components/ui/data-table.css';

export function MonitoringTab({ exchanges, paperAccount }: { exchanges: readonly ExchangeConnection[]; paperAccount: ReactNode }) {
  const connected = exchanges.filter((e) => e.status === 'connected' && e.balance);
  if (connected.length === 0) {
    return (
      <Panel title="Paper Account" testId="monitoring-paper">
        <p className="empty-text">No exchange account is connected: this is your paper portfolio.</p>
        {paperAccount}
      </Panel>
    );
  }
  return (
    <div className="exchange-grid">
      {connected.map((e) => (
        <Panel key={e.id} title={`${e.name} ${e.testnet ? 'Testnet' : 'Account'}`} testId={`monitoring-${e.id}`}>
          <div className="monitoring-figures">
            <div>
              <span className="field__label">Total Balance</span>
              <strong data-testid={`monitoring-${e.id}-total`}>{formatUsd(e.balance!.totalUsd)}</strong>
            </div>
            <div>
              <span className="field__label">Allocated</span>
              <strong data-testid={`monitoring-${e.id}-allocated`}>{formatPercent(e.balance!.allocatedPercent)}</strong>
            </div>
          </div>
          <div className="allocation-bar" role="img" aria-label={`${formatPercent(e.balance!.allocatedPercent)} allocated to coins`}>
            <div className="allocation-bar__fill" style={{ width: `${Math.min(100, e.balance!.allocatedPercent)}%` }} />
          </div>
          <table className="data-table monitoring-assets">
            <caption className="visually-hidden">{e.name} balances</caption>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col">Total</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {e.balance!.assets.map((a) => (
                <tr key={a.asset}>
                  <td>{a.asset}</td>
                  <td>{formatCoinAmount(a.total)}</td>
                  <td>{a.usdValue === null ? 'not priced' : formatUsd(a.usdValue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="field__hint">As of the last Test Connection{e.lastTestedAt ? ` (${new Date(e.lastTestedAt).toUTCString()})` : ''}, valued at the market now.</p>
        </Panel>
      ))}
    </div>
  );
}
