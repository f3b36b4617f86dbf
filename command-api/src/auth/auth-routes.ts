/** POST /api/auth/signup, /api/auth/login, /api/auth/logout */
import Router from '@koa/router';
import { loginRequestSchema, signupRequestSchema } from '@papertrade/domain/auth/contracts';
import { normaliseEmail } from '@papertrade/domain/auth/user';
import { CREDENTIALS_PROJECTION, USERS_PROJECTION, toMe, type CredentialsView, type UserView } from '@papertrade/domain/auth/user-view';
import { TooManyRequestsError, UnauthorizedError } from '@papertrade/domain/shared/errors';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import { dummyVerify, verifyPassword } from '@papertrade/platform/auth/passwords';
import { waitForMinPosition } from '@papertrade/platform/http/min-position';
import type { CommandApiDeps } from '../deps';
import { clientIp, commandMeta } from '../request-meta';
import { registerAccount } from './register-account';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export function authRoutes(deps: CommandApiDeps): Router {
  const router = new Router();
  const registration = { eventStore: deps.eventStore, handler: deps.handler, orphanAfterMs: deps.config.RESERVATION_ORPHAN_AFTER_MS };

  router.post('/api/auth/signup', jsonBody, async (ctx) => {
    const body = parseBody(ctx, signupRequestSchema);
    const { confirmPassword: _confirm, ...input } = body;
    const meta = commandMeta(ctx, 'anonymous', deps.requestHashKey, body);
    const { userId, position } = await registerAccount(registration, input, meta);
    deps.logger.info('user signed up', { userId });
    ctx.status = 201;
    ctx.body = { userId, position };
  });

  router.post('/api/auth/login', jsonBody, async (ctx) => {
    const ip = clientIp(ctx, deps.config.TRUST_PROXY);
    if (deps.limits.perIp.isBlocked(ip)) {
      throw new TooManyRequestsError('Too many sign-in attempts from this address; please wait a minute and try again');
    }
    deps.limits.perIp.record(ip);
    const body = parseBody(ctx, loginRequestSchema);
    const email = normaliseEmail(body.email);
    if (deps.limits.perAccount.isBlocked(email)) {
      throw new TooManyRequestsError('Too many failed sign-in attempts for this account; please try again in 15 minutes');
    }
    await waitForMinPosition(ctx, deps.readModels, [USERS_PROJECTION, CREDENTIALS_PROJECTION]);
    const users = await deps.readModels.collection<UserView>(USERS_PROJECTION);
    const [user] = await users.find({ where: { emailNormalised: email }, limit: 1 });
    const credentials = user ? await (await deps.readModels.collection<CredentialsView>(CREDENTIALS_PROJECTION)).get(user.id) : null;
    const ok = user && credentials ? await verifyPassword(body.password, credentials.passwordHash) : await dummyVerify(body.password);
    if (!ok || !user) {
      deps.limits.perAccount.record(email);
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
    deps.limits.perAccount.reset(email);
    ctx.body = { token: deps.tokens.issue(user.id), user: toMe(user) };
  });

  /** Tokens are stateless: the client forgets its token. */
  router.post('/api/auth/logout', async (ctx) => {
    ctx.status = 204;
  });

  return router;
}
