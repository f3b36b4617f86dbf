/**
 * Guards for both APIs. The token says who; the user's read model says what they may do. That is
 * read through a per-process cache (identity-cache.ts) that change notices keep current, so an
 * admin's change of tier or flag applies as soon as the notice arrives, and within 2 s if it is lost;
 * a request with X-Min-Position reads the read model itself once it has got there.
 *
 * A token may carry the position at which its account existed (tokens.ts): when the account is not
 * in the read model yet, the request waits for the users projection to reach that position rather
 * than answering that the account does not exist.
 *
 * The caller's own writes (http/own-writes.ts): a user who just paid, changed plan or was made an
 * auditor by their own command must not be refused as what they were a moment ago by a client that
 * sends no X-Min-Position. Before a guard refuses for a tier or role (and on GET /api/auth/me), the
 * users projection is given the time to apply the caller's last write, and the user is read again.
 * Only the refusal path pays for it; a request the cached user already passes costs nothing more.
 */
import type { Context, Middleware } from 'koa';
import { isPremium } from '@papertrade/domain/auth/contracts';
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from '@papertrade/domain/shared/errors';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import type { ReadModels } from '../projections/read-models';
import { waitForMinPosition } from '../http/min-position';
import type { OwnWrites } from '../http/own-writes';
import { IdentityCache } from './identity-cache';
import type { TokenClaims, TokenService } from './tokens';

/** How long a request waits for the users projection to reach the position in its token. */
export const ACCOUNT_WAIT_MS = 5000;
/** Seconds a client is told to wait (Retry-After) when the account is not readable here yet. */
export const ACCOUNT_RETRY_AFTER_SECONDS = 1;

export const INVALID_TOKEN = 'The sign-in token is invalid or has expired; please sign in again';
export const ACCOUNT_GONE = 'The account for this token no longer exists';
export const ACCOUNT_NOT_YET =
  'The account for this token was created moments ago and this server cannot read it yet; please retry in a second';

export interface AuthState {
  user?: UserView;
  /** Set when a bearer token was sent but could not be used. */
  authError?: string;
  /** Set (with authError) when retrying later can help: the guards answer 503 with Retry-After. */
  authRetryAfterSeconds?: number;
  /**
   * Set with `user` when the caller's own writes can be waited for (AuthenticateOptions.ownWrites):
   * the user again once the users projection has applied the caller's last write. Use
   * userAfterOwnWrites(ctx).
   */
  reloadAfterOwnWrites?: () => Promise<UserView>;
}

export interface AuthenticateOptions {
  /**
   * Where users are read. By default a cache of this middleware's own, which hears the users change
   * notices on the read models' bus when there is one.
   */
  identities?: IdentityCache;
  /** How long to wait for the position in a token (ACCOUNT_WAIT_MS; tests shorten it). */
  accountWaitMs?: number;
  /** The caller's last write, so that a guard about to refuse first sees its effect (see above). */
  ownWrites?: OwnWrites;
}

export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves the user when a token is sent; never rejects by itself (the guards below do), so a public
 * route still answers when the token cannot be used.
 */
export function authenticate(tokens: TokenService, readModels: ReadModels, options: AuthenticateOptions = {}): Middleware {
  const identities = options.identities ?? defaultIdentities(readModels);
  const accountWaitMs = options.accountWaitMs ?? ACCOUNT_WAIT_MS;

  const resolve = async (ctx: Context, state: AuthState) => {
    const token = bearerToken(ctx);
    const claims = token ? tokens.claims(token) : null;
    if (!claims) {
      state.authError = INVALID_TOKEN;
      return;
    }
    let user: UserView | null;
    if (ctx.get('x-min-position')) {
      // Who the user is comes from the users projection: honour X-Min-Position here too, past the cache.
      await waitForMinPosition(ctx, readModels, [USERS_PROJECTION]);
      user = await identities.refresh(claims.userId);
    } else {
      user = await identities.get(claims.userId);
    }
    const account = await settleAccount(claims, user, identities, readModels, accountWaitMs);
    if ('error' in account) {
      state.authError = account.error;
      if (account.retryAfterSeconds !== undefined) state.authRetryAfterSeconds = account.retryAfterSeconds;
      return;
    }
    user = account.user;
    state.user = user;
    const ownWrites = options.ownWrites;
    // With X-Min-Position the user was read past the cache at the position the client asked for.
    if (ownWrites && !ctx.get('x-min-position')) {
      const userId = user.id;
      state.reloadAfterOwnWrites = async () => {
        if ((await ownWrites.waitFor(userId, [USERS_PROJECTION])) !== 'none') {
          const fresh = await identities.refresh(userId);
          if (fresh) state.user = fresh;
        }
        return state.user!;
      };
    }
  };

  return async (ctx, next) => {
    if (ctx.get('authorization')) await resolve(ctx, ctx.state as AuthState);
    await next();
  };
}

/** The account a verified token names, or why it cannot be used (ACCOUNT_GONE, or ACCOUNT_NOT_YET with a retry). */
export type AccountResolution = { user: UserView } | { error: string; retryAfterSeconds?: number };

/**
 * The account of verified `claims` given the user read first (null when the read model lacks it):
 * a token that carries the position at which its account existed waits (boundedly) for the users
 * projection to get there; a token whose account is not there is of no use, however well signed.
 */
async function settleAccount(
  claims: TokenClaims,
  user: UserView | null,
  identities: IdentityCache,
  readModels: ReadModels,
  accountWaitMs: number,
): Promise<AccountResolution> {
  if (!user && claims.position) {
    // Signed in on command-api before this process's read model got the account: wait for it.
    if (!(await readModels.waitFor([USERS_PROJECTION], claims.position, accountWaitMs))) {
      return { error: ACCOUNT_NOT_YET, retryAfterSeconds: ACCOUNT_RETRY_AFTER_SECONDS };
    }
    user = await identities.refresh(claims.userId);
  }
  return user ? { user } : { error: ACCOUNT_GONE };
}

/** Resolves the account of verified token claims. */
export type AccountLookup = (claims: TokenClaims) => Promise<AccountResolution>;

/**
 * The same resolution as `authenticate`, for callers outside an HTTP request (the real-time relay:
 * a socket that signs in with a validly signed token for an account that does not exist is refused
 * as HTTP answers 401). One cache per call, like `authenticate`'s.
 */
export function accountLookup(readModels: ReadModels, options: Pick<AuthenticateOptions, 'identities' | 'accountWaitMs'> = {}): AccountLookup {
  const identities = options.identities ?? defaultIdentities(readModels);
  const accountWaitMs = options.accountWaitMs ?? ACCOUNT_WAIT_MS;
  return async (claims) => settleAccount(claims, await identities.get(claims.userId), identities, readModels, accountWaitMs);
}

/**
 * A cache for one middleware (so one per process in each app), listening for users change notices
 * when the read models have a bus. The subscription is not awaited: until it is in place, and if it
 * fails, entries are still re-read after 2 s, as when a notice is lost.
 */
function defaultIdentities(readModels: ReadModels): IdentityCache {
  const identities = IdentityCache.over(readModels);
  if (readModels.bus) identities.listen(readModels.bus).catch(() => undefined);
  return identities;
}

export function currentUser(ctx: Context): UserView {
  const state = ctx.state as AuthState;
  if (state.user) return state.user;
  if (state.authRetryAfterSeconds !== undefined) {
    ctx.set('Retry-After', String(state.authRetryAfterSeconds));
    throw new ServiceUnavailableError(state.authError ?? ACCOUNT_NOT_YET);
  }
  throw new UnauthorizedError(state.authError ?? 'Authentication required: send a bearer token');
}

/**
 * The signed-in user once the users projection has applied their own last write (at most the
 * X-Min-Position wait), read again if it had to wait; the user as authenticated when there is
 * nothing to wait for or no way to know. Waits at most once per request.
 */
export async function userAfterOwnWrites(ctx: Context): Promise<UserView> {
  const user = currentUser(ctx);
  const state = ctx.state as AuthState;
  const reload = state.reloadAfterOwnWrites;
  if (!reload) return user;
  state.reloadAfterOwnWrites = undefined;
  return reload();
}

/** A guard: passes when `allowed` holds for the user, else (after their own last write is applied) refuses. */
function guard(allowed: (user: UserView) => boolean, refusal: string): Middleware {
  return async (ctx, next) => {
    if (!allowed(currentUser(ctx)) && !allowed(await userAfterOwnWrites(ctx))) throw new ForbiddenError(refusal);
    await next();
  };
}

export const requireUser: Middleware = async (ctx, next) => {
  currentUser(ctx);
  await next();
};

export const requirePremium: Middleware = guard(isPremium, 'Premium subscription required');

export const requireAdmin: Middleware = guard((user) => user.isAdmin, 'Administrator access required');

/**
 * Read-only admin endpoints (the user list, the stats, the audit endpoints): an admin or an auditor.
 * Anything that changes state keeps `requireAdmin`, so an auditor gets 403 there.
 */
export const requireAdminOrAuditor: Middleware = guard((user) => user.isAdmin || user.isAuditor === true, 'Administrator or auditor access required');
