/**
 * For the auth specs (bearer authentication, guards): a users read-model row, and a tiny Koa app that
 * authenticates bearer tokens over a real users read model (PGlite) before the routes a spec gives
 * it. Errors go through the problem middleware, as in the services.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import { PgliteClient } from '@papertrade/platform/sql/sql-client';
import { CHECKPOINT_COLLECTION, ReadModels, checkpointId, generationCollection } from '@papertrade/platform/projections/read-models';
import type { Position } from '@papertrade/platform/event-store/position';
import { problemMiddleware } from '@papertrade/platform/http/problem-middleware';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { TokenService } from '@papertrade/platform/auth/tokens';
import { authenticate } from '@papertrade/platform/auth/guards';
import { freshPglite } from './pglite';

/** An active FREE, non-admin account named after `username`; `overrides` change any field. */
export function userView(id: string, username: string, overrides: Partial<UserView> = {}): UserView {
  const email = `${username}@example.com`;
  return {
    id,
    email,
    username,
    firstName: null,
    lastName: null,
    subscriptionTier: 'FREE',
    subscriptionStatus: 'ACTIVE',
    isAdmin: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    emailNormalised: email,
    usernameNormalised: username,
    createdMonth: '2026-01',
    premium: false,
    ...overrides,
  };
}

export interface AuthApp {
  url: string;
  stop(): Promise<void>;
}

/**
 * Stores `users` in the users projection's live generation (with its checkpoint at `checkpoint`,
 * when given), and serves `routes` behind `authenticate(tokens, ...)` on a port of its own.
 */
export async function startAuthApp(options: { tokens: TokenService; users: UserView[]; checkpoint?: Position; routes(router: Router): void }): Promise<AuthApp> {
  const pglite = await freshPglite();
  const documents = await SqlDocumentStore.create(new PgliteClient(pglite.db));
  const users = documents.collection<UserView>(generationCollection(USERS_PROJECTION, 1));
  for (const user of options.users) await users.put(user.id, user);
  if (options.checkpoint) await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(USERS_PROJECTION, 1), { position: options.checkpoint });
  const router = new Router();
  options.routes(router);
  const app = new Koa();
  app.use(problemMiddleware(silentLogger));
  app.use(authenticate(options.tokens, new ReadModels(documents)));
  app.use(router.routes());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections(); // fetch keeps connections alive
      await closed;
      await pglite.cleanup();
    },
  };
}
