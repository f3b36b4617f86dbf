/**
 * Guards for both APIs. The token says who; the user's read model says what they may do, read per
 * request, so an admin's change of tier or flag applies at once.
 */
import type { Context, Middleware } from 'koa';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { ForbiddenError, UnauthorizedError } from '@papertrade/domain/shared/errors';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import type { ReadModels } from '../projections/read-models';
import { waitForMinPosition } from '../http/min-position';
import type { TokenService } from './tokens';

export interface AuthState {
  user?: UserView;
  /** Set when a bearer token was sent but could not be used. */
  authError?: string;
}

export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Resolves the user when a token is sent; never rejects by itself (the guards below do). */
export function authenticate(tokens: TokenService, readModels: ReadModels): Middleware {
  return async (ctx, next) => {
    const state = ctx.state as AuthState;
    const header = ctx.get('authorization');
    if (header) {
      const token = bearerToken(ctx);
      const userId = token ? tokens.verify(token) : null;
      if (!userId) {
        state.authError = 'The sign-in token is invalid or has expired; please sign in again';
      } else {
        // Who the user is (tier, admin flag) is read from the users projection: honour X-Min-Position here too.
        await waitForMinPosition(ctx, readModels, [USERS_PROJECTION]);
        const users = await readModels.collection<UserView>(USERS_PROJECTION);
        const user = await users.get(userId);
        if (user) state.user = user;
        else state.authError = 'The account for this token no longer exists';
      }
    }
    await next();
  };
}

export function currentUser(ctx: Context): UserView {
  const state = ctx.state as AuthState;
  if (!state.user) throw new UnauthorizedError(state.authError ?? 'Authentication required: send a bearer token');
  return state.user;
}

export const requireUser: Middleware = async (ctx, next) => {
  currentUser(ctx);
  await next();
};

export const requirePremium: Middleware = async (ctx, next) => {
  if (!isPremium(currentUser(ctx))) throw new ForbiddenError('Premium subscription required');
  await next();
};

export const requireAdmin: Middleware = async (ctx, next) => {
  if (!currentUser(ctx).isAdmin) throw new ForbiddenError('Administrator access required');
  await next();
};
