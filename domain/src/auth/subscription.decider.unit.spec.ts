import { specFor } from '../shared/decider-specification';
import { subscriptionDecider, type SubscriptionEvent } from './subscription';

const spec = specFor(subscriptionDecider);
const now = '2026-03-04T05:06:07.000Z';

describe('subscription decider (admin changes)', function () {
  it('starts FREE/ACTIVE and records a change with what it was before', function () {
    spec
      .given([])
      .when({ type: 'ChangeSubscriptionByAdmin', data: { userId: 'u1', tier: 'PREMIUM', adminId: 'a1' }, metadata: { now } })
      .then([
        {
          type: 'SubscriptionChangedByAdmin',
          data: { userId: 'u1', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now },
        },
      ]);
  });

  it('changes the status alone and keeps the tier', function () {
    const premium: SubscriptionEvent = {
      type: 'SubscriptionChangedByAdmin',
      data: { userId: 'u1', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now },
    };
    spec
      .given([premium])
      .when({ type: 'ChangeSubscriptionByAdmin', data: { userId: 'u1', status: 'CANCELLED', adminId: 'a1' }, metadata: { now } })
      .then([
        {
          type: 'SubscriptionChangedByAdmin',
          data: { userId: 'u1', tier: 'PREMIUM', status: 'CANCELLED', previousTier: 'PREMIUM', previousStatus: 'ACTIVE', changedBy: 'a1', changedAt: now },
        },
      ]);
  });

  it('appends nothing when tier and status stay the same', function () {
    spec.given([]).when({ type: 'ChangeSubscriptionByAdmin', data: { userId: 'u1', tier: 'FREE', status: 'ACTIVE', adminId: 'a1' }, metadata: { now } }).then([]);
  });
});
