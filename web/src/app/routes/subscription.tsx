/**
 * Subscription and Billing (/subscription, spec section 2): composes the catalogue's plans
 * (features/plans, GET /api/plans) with the subscription feature. Visitors are asked to log in.
 */
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/layouts/page-header';
import { usePlans } from '../../features/plans/api/get-plans';
import { SubscriptionBilling } from '../../features/subscription/components/subscription-billing';
import { useAuth } from '../../lib/auth/auth-context';
import './screens.css';

export default function SubscriptionRoute() {
  const { user } = useAuth();
  const plans = usePlans();
  return (
    <>
      <title>Subscription and Billing · AI Trading Assistant</title>
      <PageHeader title="Subscription and Billing" subtitle="Your plan, its usage and your payments" />
      {user ? (
        <SubscriptionBilling plans={plans.data} plansError={plans.isError ? plans.error : null} />
      ) : (
        <section className="screen-empty card" data-testid="subscription-login">
          <h2>Login Required</h2>
          <p>Log in to see your subscription and billing.</p>
          <Link to="/login" className="btn btn--primary">
            Login
          </Link>
        </section>
      )}
    </>
  );
}
