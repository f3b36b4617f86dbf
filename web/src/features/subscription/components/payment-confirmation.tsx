import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icon';
import { Spinner } from '../../../components/ui/spinner';
import { PlanFeatures } from '../../plans/components/plan-card';
import { useReportPaymentSuccess } from '../api/report-payment-success';
import { paymentRefusalText, paymentReportText } from '../payment-report-text';
import './subscription.css';

function Buttons() {
  return (
    <div className="button-row pay-done__buttons">
      <Link to="/" className="btn" data-testid="pay-to-dashboard">
        Go to Dashboard
      </Link>
      <Link to="/subscription" className="btn btn--primary" data-testid="pay-to-subscription">
        Manage Subscription
      </Link>
    </div>
  );
}

/**
 * /payment-success: reports the checkout session once on open, then says what became of it (the
 * server's answer: activated now, confirmed earlier, ended since, cancelled as a second subscription)
 * and names the plan (from the catalogue) with its features. Without a session id there is nothing to
 * confirm; a refused report says why (closed, expired, not paid) with the server's message.
 */
export function PaymentConfirmation({ sessionId }: { sessionId: string | null }) {
  const report = useReportPaymentSuccess(sessionId);
  if (!sessionId) {
    return (
      <section className="card pay-done" data-testid="payment-missing-session">
        <h2>No payment to confirm</h2>
        <p className="pay-done__text">This page opens after a checkout; the link has no payment session.</p>
        <Buttons />
      </section>
    );
  }
  if (report.status === 'pending') {
    return (
      <section className="card pay-done" data-testid="payment-pending">
        <Spinner size={28} label="Confirming your payment" />
        <p className="pay-done__text">Confirming your payment...</p>
      </section>
    );
  }
  if (report.status === 'error') {
    const refused = paymentRefusalText(report.error);
    return (
      <section className="card pay-done" role="alert" data-testid={refused.testId}>
        <h2>{refused.title}</h2>
        <p className="pay-done__text">{refused.text}</p>
        <Buttons />
      </section>
    );
  }
  const { plan } = report.data;
  const said = paymentReportText(report.data);
  return (
    <section className="card pay-done" data-testid={said.testId} {...(said.alert ? { role: 'alert' } : {})}>
      {!said.alert && (
        <span className="pay-done__icon">
          <Icon name="check" size={30} />
        </span>
      )}
      <h2 className="pay-done__title">{said.title}</h2>
      <p className="pay-done__text" data-testid="payment-plan">
        {said.text}
      </p>
      {said.features && (
        <div className="pay-done__included">
          <h3>Included in {plan.name}</h3>
          <PlanFeatures plan={plan} testId="payment-features" />
        </div>
      )}
      <Buttons />
    </section>
  );
}
