/**
 * PUT /api/admin/users/{id}: profile on user-{id}, tier and status on subscription-{userId}.
 * PUT /api/admin/users/{id}/auditor {auditor}: grants or revokes the auditor role on user-{id}.
 * Admins only: an auditor reads (query-api) but changes nothing.
 */
import Router from '@koa/router';
import { userIdParamSchema as idSchema } from '@papertrade/domain/api/shared';
import { adminSetAuditorRequestSchema, adminUpdateUserRequestSchema, type AdminSetAuditorResponse, type AdminUpdateUserResponse } from '@papertrade/domain/admin/contracts';
import { userStreamId, type ProfileChanges } from '@papertrade/domain/auth/user';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { premiumActive, subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { NotFoundError } from '@papertrade/domain/shared/errors';
import { currentUser, requireAdmin } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import type { Position } from '@papertrade/platform/event-store/position';
import type { CommandApiDeps } from '../deps';
import { commandMeta } from '../request-meta';
import { latest, refuseUnavailableName, releaseName, reservationStream, reserveName } from '../auth/register-account';

export function adminRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const registration = { eventStore: deps.eventStore, handler: deps.handler, orphanAfterMs: deps.config.RESERVATION_ORPHAN_AFTER_MS };

  router.put('/api/admin/users/:id', requireAdmin, jsonBody, async (ctx) => {
    const admin = currentUser(ctx);
    const parsedId = idSchema.safeParse(ctx.params.id);
    if (!parsedId.success) throw new NotFoundError('User not found');
    const id = parsedId.data;
    const body = parseBody(ctx, adminUpdateUserRequestSchema);
    const meta = commandMeta(ctx, admin.id, deps.requestHashKey, body);
    // A state kept from this process's last write to the stream will do: the profile append below
    // checks it by its expected revision (and decides again on the stored stream if it was stale).
    const loaded = await deps.handler.load(userDecider, userStreamId(id), meta, { kept: true });
    const { state } = loaded;
    if (state.status !== 'registered') throw new NotFoundError('User not found');

    // Every new name is checked before any is reserved: an edit refused for its username must not
    // reserve and release its (free) email on the way. The reservations stay the guard against a
    // race (two edits onto one name at once: one wins, the other gives back what it reserved).
    const moves = (['email', 'username'] as const).filter((kind) => body[kind] !== undefined && reservationStream(kind, body[kind]!) !== reservationStream(kind, state[kind]));
    for (const kind of moves) await refuseUnavailableName(registration, kind, body[kind]!, id);

    const changes: ProfileChanges = {};
    const reserved: Array<() => Promise<unknown>> = [];
    const releaseAfter: Array<() => Promise<{ position?: Position }>> = [];
    const positions: Array<Position | undefined> = [];
    try {
      for (const kind of ['email', 'username'] as const) {
        const wanted = body[kind];
        const current = state[kind];
        if (wanted === undefined || wanted === current) continue;
        // A change of case only keeps the reservation the user already holds.
        if (reservationStream(kind, wanted) !== reservationStream(kind, current)) {
          positions.push((await reserveName(registration, kind, wanted, id, meta)).position);
          reserved.push(() => releaseName(registration, kind, wanted, id, meta));
          releaseAfter.push(() => releaseName(registration, kind, current, id, meta));
        }
        changes[kind] = wanted;
      }
      if (body.firstName !== undefined) changes.firstName = body.firstName;
      if (body.lastName !== undefined) changes.lastName = body.lastName;
      const profile = await deps.handler.handle(
        userDecider,
        userStreamId(id),
        { type: 'UpdateUserProfile', data: { userId: id, changes, updatedBy: admin.id }, metadata: { now: deps.handler.now() } },
        meta,
        loaded,
      );
      positions.push(profile.position);
    } catch (error) {
      for (const undo of reserved) await undo().catch(() => {});
      throw error;
    }
    for (const release of releaseAfter) positions.push((await release()).position);

    if (body.subscriptionTier !== undefined || body.subscriptionStatus !== undefined) {
      await endStripeBillingIfAccessEnds(id, body);
      const subscription = await deps.handler.handle(
        subscriptionDecider,
        subscriptionStreamId(id),
        {
          type: 'ChangeSubscriptionByAdmin',
          data: {
            userId: id,
            adminId: admin.id,
            ...(body.subscriptionTier ? { tier: body.subscriptionTier } : {}),
            ...(body.subscriptionStatus ? { status: body.subscriptionStatus } : {}),
          },
          metadata: { now: deps.handler.now() },
        },
        meta,
      );
      positions.push(subscription.position);
    }
    deps.logger.info('user updated by admin', { userId: id, adminId: admin.id });
    const answer: AdminUpdateUserResponse = { id, position: latest(...positions) ?? null };
    ctx.body = answer;
  });

  /**
   * An admin edit that leaves the account without an active Premium (tier FREE, or a status other than
   * ACTIVE) while a Stripe subscription bills it ends that subscription at Stripe first, as the user's
   * own move to Free does: no one is charged every month for access an admin took away. Granting
   * Premium by hand bills nothing (a complimentary plan).
   */
  async function endStripeBillingIfAccessEnds(userId: string, body: { subscriptionTier?: string | undefined; subscriptionStatus?: string | undefined }): Promise<void> {
    const { state } = await deps.handler.load(subscriptionDecider, subscriptionStreamId(userId));
    if (!state.stripeSubscriptionId || !premiumActive(state)) return;
    const tier = body.subscriptionTier ?? state.tier;
    const status = body.subscriptionStatus ?? state.status;
    if (tier === 'PREMIUM' && status === 'ACTIVE') return;
    await deps.checkout.updateRenewal(state.stripeSubscriptionId, 'end-now');
    deps.logger.info('stripe subscription ended by an admin edit', { userId });
  }

  router.put('/api/admin/users/:id/auditor', requireAdmin, jsonBody, async (ctx) => {
    const admin = currentUser(ctx);
    const parsedId = idSchema.safeParse(ctx.params.id);
    if (!parsedId.success) throw new NotFoundError('User not found');
    const id = parsedId.data;
    const body = parseBody(ctx, adminSetAuditorRequestSchema);
    const meta = commandMeta(ctx, admin.id, deps.requestHashKey, body);
    const now = deps.handler.now();
    const result = await deps.handler.handle(
      userDecider,
      userStreamId(id),
      body.auditor
        ? { type: 'GrantAuditorRole', data: { userId: id, grantedBy: admin.id }, metadata: { now } }
        : { type: 'RevokeAuditorRole', data: { userId: id, revokedBy: admin.id }, metadata: { now } },
      meta,
    );
    deps.logger.info(body.auditor ? 'auditor role granted' : 'auditor role revoked', { userId: id, adminId: admin.id });
    const answer: AdminSetAuditorResponse = { id, isAuditor: body.auditor, position: result.position ?? null };
    ctx.body = answer;
  });

  return router;
}
