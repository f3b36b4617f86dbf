/**
 * The users read model beyond sign-up: the admin search compares a term in the same form as the
 * stored keys (trimmed, lower case, single spaces), a user without a last name matches no last-name
 * search, billing events that change neither tier nor status leave the document exactly as it was,
 * a revoked auditor keeps the rest of their document, and a document projected before the auditor
 * role existed answers `me` without the role.
 */
import { expect } from 'chai';
import type { SubscriptionEvent } from './subscription';
import type { UserEvent } from './user';
import { evolveUserView, normaliseSearch, toMe, type UserView } from './user-view';

const at = '2026-11-02T10:00:00.000Z';
const registered = (firstName: string | null, lastName: string | null): UserEvent => ({
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'ann@example.com', username: 'ann', firstName, lastName, passwordHash: 'x', registeredAt: at },
});
const premium: SubscriptionEvent = {
  type: 'SubscriptionChangedByAdmin',
  data: { userId: 'u1', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a', changedAt: at },
};

describe('users read model: search keys', function () {
  it('compares a search term trimmed, in lower case, with runs of spaces as one', function () {
    expect(normaliseSearch('  Ann   SMITH ')).to.equal('ann smith');
    expect(normaliseSearch('\tann\n')).to.equal('ann');
    expect(normaliseSearch('   ')).to.equal('');
  });

  it('keeps an empty last-name key for a user without a last name, so no last-name search finds them', function () {
    expect(evolveUserView(null, registered('Ann', null))).to.include({ fullNameNormalised: 'ann', lastNameNormalised: '' });
    expect(evolveUserView(null, registered(null, null))).to.include({ fullNameNormalised: '', lastNameNormalised: '' });
  });

  it('empties the last-name key when an edit removes the last name', function () {
    const doc = evolveUserView(evolveUserView(null, registered('Ann', 'Lee')), {
      type: 'UserProfileUpdated',
      data: { userId: 'u1', changes: { lastName: null }, updatedBy: 'a', updatedAt: at },
    });
    expect(doc).to.include({ fullNameNormalised: 'ann', lastNameNormalised: '' });
  });
});

describe('users read model: roles and billing', function () {
  it('keeps the rest of the document when the auditor role is revoked', function () {
    let doc = evolveUserView(null, registered('Ann', 'Lee'));
    doc = evolveUserView(doc, premium);
    doc = evolveUserView(doc, { type: 'AuditorRoleGranted', data: { userId: 'u1', grantedBy: 'a', grantedAt: at } });
    const before = doc!;
    const after = evolveUserView(doc, { type: 'AuditorRoleRevoked', data: { userId: 'u1', revokedBy: 'a', revokedAt: at } });
    expect(after).to.deep.equal({ ...before, isAuditor: false });
    expect(after).to.include({ email: 'ann@example.com', subscriptionTier: 'PREMIUM', premium: true, lastNameNormalised: 'lee' });
  });

  const untouched: SubscriptionEvent[] = [
    { type: 'CheckoutStarted', data: { userId: 'u1', sessionId: 's1', planId: 'premium', tier: 'PREMIUM', amountUsd: 29, source: 'test', startedAt: at } },
    { type: 'SubscriptionCancelled', data: { userId: 'u1', tier: 'PREMIUM', endsAt: '2026-12-02T10:00:00.000Z', cancelledAt: at } },
    { type: 'SubscriptionReactivated', data: { userId: 'u1', tier: 'PREMIUM', reactivatedAt: at } },
    { type: 'PaymentRecorded', data: { userId: 'u1', paymentId: 'p1', invoiceId: null, sessionId: 's1', amountUsd: 29, description: 'Premium Pro', source: 'test', paidAt: at } },
    { type: 'PaymentFailed', data: { userId: 'u1', failureId: 'f1', invoiceId: 'in_1', amountUsd: 29, description: 'Premium Pro', reason: 'card declined', failedAt: at } },
    {
      type: 'DuplicatePaymentCancelled',
      data: { userId: 'u1', sessionId: 's2', planId: 'premium', stripeSubscriptionId: 'sub_2', keptStripeSubscriptionId: 'sub_1', via: 'webhook', cancelledAt: at },
    },
  ];

  it('leaves tier, status and everything else as they are on checkout, cancel, reactivate and payments', function () {
    const doc = evolveUserView(evolveUserView(null, registered('Ann', 'Lee')), premium)!;
    for (const event of untouched) expect(evolveUserView(doc, event), event.type).to.equal(doc);
    for (const event of untouched) expect(evolveUserView(null, event), event.type).to.equal(null);
  });

  it('answers me without the auditor role for a document projected before the role existed', function () {
    const doc = evolveUserView(null, registered('Ann', 'Lee'))!;
    const { isAuditor: _dropped, ...older } = doc;
    expect(toMe(older as UserView).isAuditor).to.equal(false);
  });
});
