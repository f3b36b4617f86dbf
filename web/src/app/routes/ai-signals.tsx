/**
 * /ai-signals, AI Trading Strategies (premium-and-account.md section 2; issue 19). Premium users get
 * the strategies screen; everyone else the upsell page, whose Upgrade to Premium starts the checkout
 * (visitors are sent to sign in first). The route composes the strategies and subscription features.
 */
import { useNavigate } from 'react-router-dom';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { PageHeader } from '../../components/layouts/page-header';
import { useToast } from '../../components/ui/toast/use-toast';
import { useAuth } from '../../lib/auth/auth-context';
import { StrategiesScreen } from '../../features/strategies/components/strategies-screen';
import { StrategiesUpsell } from '../../features/strategies/components/strategies-upsell';
import { useStartCheckout } from '../../features/subscription/api/start-checkout';
import { checkoutFailedToast, redirectingToPaymentToast } from '../../features/subscription/subscription-toasts';
import './screens.css';

/** Goes to the checkout page the server answered; a seam so nothing else navigates away. */
function goTo(url: string): void {
  window.location.assign(url);
}

export default function AiSignalsRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const toast = useToast();
  const checkout = useStartCheckout();
  const premium = isPremium(user);
  const onUpgrade = () => {
    if (!user) return void navigate('/login');
    checkout.mutate('PREMIUM', {
      onSuccess: ({ url }) => {
        toast(redirectingToPaymentToast('Premium'));
        goTo(url);
      },
      onError: (error) => toast(checkoutFailedToast(error)),
    });
  };
  return (
    <>
      <title>AI Trading Strategies · AI Trading Assistant</title>
      <PageHeader title="AI Trading Strategies" subtitle="Neural, technical and arbitrage strategies that drive your paper bot" />
      {premium ? <StrategiesScreen /> : <StrategiesUpsell plan={user?.subscriptionTier ?? 'FREE'} onUpgrade={onUpgrade} upgrading={checkout.isPending} />}
    </>
  );
}
