/**
 * Trade History's Testnet Mirror panel (issue 21): each bot trade mirrored to a testnet, the paper
 * fill's price beside the testnet's and how far apart they are, so the person sees how far the
 * simulation is from an exchange's book. Premium only (the mirror is); the route shows it to them.
 */
import { Panel } from '../../../components/ui/panel';
import { formatCoinAmount, formatPrice, formatSignedPercent } from '../../../lib/number-format';
import { useMirrorOrders } from '../api/get-mirror-orders';
import '../../../components/ui/data-table.css';
import './exchanges.css';

export function MirrorOrdersPanel() {
  const orders = useMirrorOrders({ enabled: true });
  const list = orders.data?.orders ?? [];
  return (
    <Panel title="Testnet Mirror" testId="mirror-orders" className="mirror-orders-panel">
      {list.length === 0 ? (
        <p className="empty-text">No mirrored trades. Switch on Mirror to testnet on the API Integration screen to send your bot&apos;s paper trades to a testnet too.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Mirrored trades">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Exchange</th>
                <th scope="col">Type</th>
                <th scope="col">Amount</th>
                <th scope="col">Paper Fill</th>
                <th scope="col">Testnet Fill</th>
                <th scope="col">Difference</th>
              </tr>
            </thead>
            <tbody>
              {list.map((o) => (
                <tr key={`${o.exchangeId}:${o.tradeId}`} data-testid="mirror-order-row">
                  <td>{new Date(o.requestedAt).toUTCString()}</td>
                  <td>{o.market} · {o.exchangeId}</td>
                  <td>{o.side}</td>
                  <td>{formatCoinAmount(o.amount)}</td>
                  <td>{formatPrice(o.paperPrice)}</td>
                  <td>{o.status === 'filled' ? formatPrice(o.testnetPrice) : o.status === 'failed' ? `Failed: ${o.error?.message ?? ''}` : 'Sent…'}</td>
                  <td>{o.differencePercent === null ? '—' : formatSignedPercent(o.differencePercent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
