import { FetchError } from '../../../components/ui/fetch-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatUsd } from '../../../lib/number-format';
import { useBillingHistory } from '../api/get-billing-history';

const day = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** The Billing History tab: the user's real payments (DESIGN.md section 6: nothing hard-coded). */
export function BillingHistory() {
  const history = useBillingHistory();
  return (
    <div className="card sub-section" data-testid="billing-tab">
      <h2 className="sub-section__title">Billing History</h2>
      {history.isPending ? (
        <Spinner size={22} label="Loading billing history" />
      ) : history.isError ? (
        <FetchError text="Failed to load billing history" error={history.error} />
      ) : history.data.length === 0 ? (
        <p className="empty-text" data-testid="billing-empty">
          No payments yet.
        </p>
      ) : (
        <table className="sub-table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((entry) => (
              <tr key={entry.id} data-testid="billing-row">
                <td>{day.format(new Date(entry.date))}</td>
                <td>{entry.description}</td>
                <td className="num">{formatUsd(entry.amountUsd)}</td>
                <td>
                  <span className={`badge ${entry.status === 'PAID' ? 'badge--up' : 'badge--down'}`}>{entry.status === 'PAID' ? 'Paid' : 'Failed'}</span>
                </td>
                <td className="sub-table__ref">{entry.invoiceId ?? (entry.source === 'test' ? 'Test payment' : '-')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
