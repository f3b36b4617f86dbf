/**
 * Accounts created at start: the first admin from ADMIN_EMAIL/ADMIN_PASSWORD (or the CLI), and demo
 * accounts (free, premium, admin) on an empty store. Demo passwords are random and written only to a
 * file readable by its owner; logs name the file, never a password.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { userStreamId } from '@papertrade/domain/auth/user';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { emailSchema, usernameSchema, MIN_PASSWORD_LENGTH } from '@papertrade/domain/auth/contracts';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import { silentLogger, type Logger } from '@papertrade/platform/config/logger';
import { verifyPassword } from '@papertrade/platform/auth/passwords';
import { findAccountByEmail, registeredBy } from './auth/find-account';
import { registerAccount, reservationOwner, type RegistrationDeps } from './auth/register-account';

const systemMeta = (): CommandMeta => ({ actor: 'system', correlationId: randomUUID() });

export async function promoteToAdmin(deps: RegistrationDeps, userId: string): Promise<void> {
  await deps.handler.handle(
    userDecider,
    userStreamId(userId),
    { type: 'PromoteToAdmin', data: { userId, promotedBy: 'system' }, metadata: { now: deps.handler.now() } },
    systemMeta(),
  );
}

async function freeUsername(deps: RegistrationDeps, wanted: string): Promise<string> {
  const base = (wanted.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 24) || 'admin').padEnd(3, '_');
  for (let i = 0; i < 50; i++) {
    const candidate = i === 0 ? base : `${base}-${i}`;
    if (!(await reservationOwner(deps, 'username', candidate))) return candidate;
  }
  return `${base}-${randomBytes(3).toString('hex')}`;
}

/** The email given for the first admin belongs to an account someone else registered, with another password. */
export class AdminBootstrapRefused extends Error {
  constructor(readonly userId: string) {
    super(
      'Refusing to make an administrator: the admin email belongs to an account that the bootstrap did not create, ' +
        'and the given password does not match it. Give that account\'s own password, or choose another email.',
    );
    this.name = 'AdminBootstrapRefused';
  }
}

/**
 * Creates the account if the email is free and makes it an admin. An account that already has the
 * email is promoted only if the bootstrap made it, or if the given password is its own: anyone could
 * have signed up in advance under the email an operator will later name as the admin's.
 */
export async function ensureAdmin(
  deps: RegistrationDeps,
  input: { email: string; password: string; username?: string },
  logger: Logger = silentLogger,
): Promise<string> {
  const email = emailSchema.parse(input.email);
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new Error(`the admin password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const account = await findAccountByEmail(deps, email);
  if (!account) {
    const username = usernameSchema.parse(input.username ?? (await freeUsername(deps, email.split('@')[0] ?? 'admin')));
    const { userId } = await registerAccount(deps, { email, username, password: input.password }, systemMeta());
    await promoteToAdmin(deps, userId);
    return userId;
  }
  const passwordMatches = await verifyPassword(input.password, account.passwordHash);
  if (!passwordMatches && (await registeredBy(deps, account.userId)) !== 'system') {
    logger.error('admin bootstrap refused: the admin email belongs to an account the bootstrap did not create, and the password given does not match it', {
      userId: account.userId,
    });
    throw new AdminBootstrapRefused(account.userId);
  }
  if (!passwordMatches) {
    logger.warn('the admin account exists with another password; the password given does not change it', { userId: account.userId });
  }
  await promoteToAdmin(deps, account.userId);
  return account.userId;
}

export async function seedDemoAccounts(deps: RegistrationDeps, dataDir: string, logger: Logger): Promise<void> {
  if (await deps.eventStore.headPosition()) return; // only on an empty store
  const accounts = [
    { kind: 'free', email: 'demo-free@example.com', username: 'demo-free', firstName: 'Demo', lastName: 'Free' },
    { kind: 'premium', email: 'demo-premium@example.com', username: 'demo-premium', firstName: 'Demo', lastName: 'Premium' },
    { kind: 'admin', email: 'demo-admin@example.com', username: 'demo-admin', firstName: 'Demo', lastName: 'Admin' },
  ];
  const lines = ['# Demo accounts of this data folder (random passwords; keep this file private)'];
  for (const account of accounts) {
    const password = randomBytes(12).toString('base64url');
    const { userId } = await registerAccount(deps, { ...account, password }, systemMeta());
    if (account.kind === 'premium') {
      await deps.handler.handle(
        subscriptionDecider,
        subscriptionStreamId(userId),
        { type: 'ChangeSubscriptionByAdmin', data: { userId, tier: 'PREMIUM', status: 'ACTIVE', adminId: 'system' }, metadata: { now: deps.handler.now() } },
        systemMeta(),
      );
    }
    if (account.kind === 'admin') await promoteToAdmin(deps, userId);
    lines.push(`${account.kind}\t${account.email}\t${password}`);
  }
  const file = path.resolve(dataDir, 'demo-accounts.txt');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  logger.info('demo accounts created; their emails and passwords are in the file', { file });
}
