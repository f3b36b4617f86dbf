import { useState } from 'react';
import type { Plan } from '@papertrade/domain/plans/contracts';
import { FetchError } from '../../../components/ui/fetch-error';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast/use-toast';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useChangePlan } from '../api/change-plan';
import { useSubscription } from '../api/get-subscription';
import { useReactivateSubscription } from '../api/reactivate-subscription';
import { useStartCheckout } from '../api/start-checkout';
import {
  cancellationFailedToast,
  cancelledToast,
  checkoutFailedToast,
  planChangedToast,
  planChangeFailedToast,
  reactivatedToast,
  reactivationFailedToast,
  redirectingToPaymentToast,
} from '../subscription-toasts';
import { BillingHistory } from './billing-history';
import { CancelDialog } from './cancel-dialog';
import { PlanChoice } from './plan-choice';
import { SubscriptionStatus } from './subscription-status';
import { Tabs, type TabDef } from './tabs';
import { UsageMeters } from './usage-meters';
import './subscription.css';

type TabKey = 'plans' | 'usage' | 'billing';
const TABS: readonly TabDef<TabKey>[] = [
  { key: 'plans', label: 'Plans' },
  { key: 'usage', label: 'Usage' },
  { key: 'billing', label: 'Billing History' },
];

/** Goes to the checkout page the server answered; a seam so nothing else navigates away. */
function goTo(url: string): void {
  window.location.assign(url);
}

/**
 * Subscription and Billing for a signed-in user: the current subscription (cancel, reactivate) and
 * the tabs Plans, Usage and Billing History. `plans` is the catalogue (the route reads it).
 */
export function SubscriptionBilling({ plans, plansError }: { plans: readonly Plan[] | undefined; plansError: unknown }) {
  const toast = useToast();
  const subscription = useSubscription();
  const checkout = useStartCheckout();
  const changePlan = useChangePlan();
  const cancel = useCancelSubscription();
  const reactivate = useReactivateSubscription();
  const [tab, setTab] = useState<TabKey>('plans');
  const [dialogOpen, setDialogOpen] = useState(false);
  const [busyPlan, setBusyPlan] = useState<string | null>(null);

  if (subscription.isPending) return <Spinner size={28} label="Loading subscription" />;
  if (subscription.isError) return <FetchError text="Failed to load subscription" error={subscription.error} />;
  const current = subscription.data;

  const onCheckout = (plan: Plan) => {
    setBusyPlan(plan.id);
    checkout.mutate(plan.tier, {
      onSuccess: ({ url }) => {
        toast(redirectingToPaymentToast(plan.name));
        goTo(url);
      },
      onError: (error) => {
        setBusyPlan(null);
        toast(checkoutFailedToast(error));
      },
    });
  };
  const onChange = (plan: Plan) => {
    setBusyPlan(plan.id);
    changePlan.mutate(plan.tier, {
      onSuccess: () => toast(planChangedToast(plan.name)),
      onError: (error) => toast(planChangeFailedToast(error)),
      onSettled: () => setBusyPlan(null),
    });
  };
  const onConfirmCancel = () => {
    cancel.mutate(undefined, {
      onSuccess: (next) => toast(cancelledToast(next.endsAt?.formatted ?? null)),
      onError: (error) => toast(cancellationFailedToast(error)),
      onSettled: () => setDialogOpen(false),
    });
  };
  const onReactivate = () => {
    reactivate.mutate(undefined, {
      onSuccess: () => toast(reactivatedToast()),
      onError: (error) => toast(reactivationFailedToast(error)),
    });
  };

  return (
    <div className="sub-page">
      <SubscriptionStatus subscription={current} reactivating={reactivate.isPending} onCancel={() => setDialogOpen(true)} onReactivate={onReactivate} />
      <Tabs tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'plans' &&
          (plans ? (
            <PlanChoice plans={plans} subscription={current} busy={busyPlan} onCheckout={onCheckout} onChange={onChange} onDowngrade={() => setDialogOpen(true)} />
          ) : plansError ? (
            <FetchError text="Plans are unavailable right now" error={plansError} />
          ) : (
            <Spinner size={22} label="Loading plans" />
          ))}
        {tab === 'usage' && <UsageMeters subscription={current} />}
        {tab === 'billing' && <BillingHistory />}
      </Tabs>
      <CancelDialog open={dialogOpen} pending={cancel.isPending} onConfirm={onConfirmCancel} onClose={() => setDialogOpen(false)} />
    </div>
  );
}
