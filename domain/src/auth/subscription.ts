/** The `subscription-{userId}` stream: tier and status changes, one history per user. */
import { assertNever, type Decider, type DomainEvent } from '../shared/decider';
import type { SubscriptionStatus, SubscriptionTier } from './contracts';

export type SubscriptionChangedByAdmin = DomainEvent<
  'SubscriptionChangedByAdmin',
  {
    userId: string;
    tier: SubscriptionTier;
    status: SubscriptionStatus;
    previousTier: SubscriptionTier;
    previousStatus: SubscriptionStatus;
    changedBy: string;
    changedAt: string;
  }
>;
export type SubscriptionEvent = SubscriptionChangedByAdmin;

export type SubscriptionState = { tier: SubscriptionTier; status: SubscriptionStatus };

export type ChangeSubscriptionByAdmin = {
  type: 'ChangeSubscriptionByAdmin';
  data: { userId: string; tier?: SubscriptionTier; status?: SubscriptionStatus; adminId: string };
  metadata: { now: string };
};
export type SubscriptionCommand = ChangeSubscriptionByAdmin;

/** Every account starts on the free plan, active. */
export const initialSubscriptionState = (): SubscriptionState => ({ tier: 'FREE', status: 'ACTIVE' });

export function changeSubscriptionByAdmin(command: ChangeSubscriptionByAdmin, state: SubscriptionState): SubscriptionEvent[] {
  const tier = command.data.tier ?? state.tier;
  const status = command.data.status ?? state.status;
  if (tier === state.tier && status === state.status) return [];
  return [
    {
      type: 'SubscriptionChangedByAdmin',
      data: {
        userId: command.data.userId,
        tier,
        status,
        previousTier: state.tier,
        previousStatus: state.status,
        changedBy: command.data.adminId,
        changedAt: command.metadata.now,
      },
    },
  ];
}

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  schemaVersion: 1,
  name: 'subscription',
  initialState: initialSubscriptionState,
  evolve(_state, event) {
    switch (event.type) {
      case 'SubscriptionChangedByAdmin':
        return { tier: event.data.tier, status: event.data.status };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ChangeSubscriptionByAdmin':
        return changeSubscriptionByAdmin(command, state);
      default:
        return assertNever(command.type);
    }
  },
};

export const subscriptionStreamId = (userId: string) => `subscription-${userId}`;
