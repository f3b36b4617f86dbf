/** POST /api/auth/signup, /api/auth/login, /api/auth/logout */
import Router from '@koa/router';
import { loginRequestSchema, signupRequestSchema } from '@papertrade/domain/auth/contracts';
import { normaliseEmail } from '@papertrade/domain/auth/user';
import { USERS_PROJECTION, toMe, type UserView } from '@papertrade/domain/auth/user-view';
import { ServiceUnavailableError, UnauthorizedError } from '@papertrade/domain/shared/errors';
import type { Position } from '@papertrade/platform/event-store/position';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import { dummyVerify, verifyPassword } from '@papertrade/platform/auth/passwords';
import { waitForMinPosition } from '@papertrade/platform/http/min-position';
import type { CommandApiDeps } from '../deps';
import { clientIp, commandMeta } from '../request-meta';
import { findAccountByEmail } from './find-account';
import { registerAccount } from './register-account';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export function authRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const registration = { eventStore: deps.eventStore, handler: deps.handler, orphanAfterMs: deps.config.RESERVATION_ORPHAN_AFTER_MS };

  router.post('/api/auth/signup', jsonBody, async (ctx) => {
    const ip = clientIp(ctx, deps.config.TRUST_PROXY);
    // A sign-up tells whether an email is registered (409), like a sign-in: it spends an attempt too.
    await deps.limits.spendAttempt(ip);
    const body = parseBody(ctx, signupRequestSchema);
    await deps.limits.spendSignup(ip);
    const { confirmPassword: _confirm, ...input } = body;
    const meta = commandMeta(ctx, 'anonymous', deps.requestHashKey, body);
    const { userId, position } = await registerAccount(registration, input, meta);
    deps.logger.info('user signed up', { userId });
    ctx.status = 201;
    ctx.body = { userId, position };
  });

  /**
   * The credentials are checked on the write side (a sign-up that answered 2xx signs in at once);
   * only the profile in the answer comes from the users projection, waited for if it is behind.
   */
  router.post('/api/auth/login', jsonBody, async (ctx) => {
    const ip = clientIp(ctx, deps.config.TRUST_PROXY);
    await deps.limits.spendAttempt(ip);
    const body = parseBody(ctx, loginRequestSchema);
    const email = normaliseEmail(body.email);
    await deps.limits.checkAccount(email, ip);
    const account = await findAccountByEmail(registration, email);
    const ok = account ? await verifyPassword(body.password, account.passwordHash) : await dummyVerify(body.password);
    if (!ok || !account) {
      await deps.limits.recordFailure(email, ip);
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
    await deps.limits.recordSuccess(email, ip);
    // Every event of the account is at or before the head: a query-api that has not seen the user
    // yet waits for its users projection to get there (the token carries it).
    const position = await deps.eventStore.headPosition();
    await waitForMinPosition(ctx, deps.readModels, [USERS_PROJECTION]);
    const user = await signedInUser(deps, account.userId, position);
    ctx.body = { token: deps.tokens.issue(account.userId, { position }), user: toMe(user) };
  });

  /** Tokens are stateless: the client forgets its token. */
  router.post('/api/auth/logout', async (ctx) => {
    ctx.status = 204;
  });

  return router;
}

/** How long a sign-in waits for the users projection to show an account it has just verified. */
export const SIGN_IN_VIEW_WAIT_MS = 5000;

/**
 * The profile of an account whose credentials were just verified. A users projection that lags (a
 * sign-in right after sign-up) is waited for, boundedly; past that the answer is a 503 to retry,
 * which is not a failed attempt.
 */
async function signedInUser(deps: CommandApiDeps, userId: string, position: Position | undefined): Promise<UserView> {
  const users = () => deps.readModels.collection<UserView>(USERS_PROJECTION);
  const user = await (await users()).get(userId);
  if (user) return user;
  if (position) await deps.readModels.waitFor([USERS_PROJECTION], position, SIGN_IN_VIEW_WAIT_MS);
  const late = await (await users()).get(userId);
  if (late) return late;
  throw new ServiceUnavailableError('Your account is still being set up; please sign in again in a moment').retryAfter(1);
}
