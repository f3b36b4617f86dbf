/**
 * Payment confirmation (/payment-success?session_id=..., spec section 2): reports the checkout
 * session once and names the plan bought. Visitors (no token) are asked to log in first: the
 * report is the caller's own session.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/layouts/page-header';
import { PaymentConfirmation } from '../../features/subscription/components/payment-confirmation';
import { useAuth } from '../../lib/auth/auth-context';
import './screens.css';

export default function PaymentSuccessRoute() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  return (
    <>
      <title>Payment Confirmation · AI Trading Assistant</title>
      <PageHeader title="Payment Confirmation" />
      {user ? (
        <PaymentConfirmation sessionId={sessionId || null} />
      ) : (
        <section className="screen-empty card" data-testid="payment-login">
          <h2>Login Required</h2>
          <p>Log in to confirm your payment.</p>
          <Link to="/login" className="btn btn--primary">
            Login
          </Link>
        </section>
      )}
    </>
  );
}
