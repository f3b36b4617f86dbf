/**
 * The admin bootstrap (ADMIN_EMAIL/ADMIN_PASSWORD, npm run create-admin) on the embedded stores:
 * it never promotes an account someone else registered under the admin email unless the password
 * given is that account's own.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@papertrade/platform/config/logger';
import { startHarness, type Harness } from '../../test/api-harness';
import { registrationDeps } from '../../bin/compose';
import { AdminBootstrapRefused, ensureAdmin } from './bootstrap';

const unique = () => randomUUID().slice(0, 8);

function recordingLogger() {
  const lines: Array<{ level: string; message: string; context?: Record<string, unknown> }> = [];
  const logger: Logger = {
    info: (message, context) => lines.push({ level: 'info', message, ...(context ? { context } : {}) }),
    warn: (message, context) => lines.push({ level: 'warn', message, ...(context ? { context } : {}) }),
    error: (message, context) => lines.push({ level: 'error', message, ...(context ? { context } : {}) }),
  };
  return { logger, lines };
}

describe('admin bootstrap (embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async function () {
    h = await startHarness();
  });
  after(async function () {
    await h?.stop();
  });

  const promotions = async (userId: string) =>
    (await h.rt.infra.eventStore.readStream(`user-${userId}`)).filter((e) => e.type === 'UserPromotedToAdmin').length;

  it('refuses to promote an account registered in advance under the admin email, with the operator\'s password; logs it without a password', async function () {
    const email = `boss.${unique()}@example.com`;
    const { userId } = await h.signup({ email, username: `squatter_${unique()}`, password: 'squatter-pass' });
    const { logger, lines } = recordingLogger();
    let refused: unknown;
    await ensureAdmin(registrationDeps(h.rt), { email, password: 'operator-pass' }, logger).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(AdminBootstrapRefused);
    expect((refused as Error).message).to.match(/did not create/);
    expect(await promotions(userId)).to.equal(0);
    expect(lines.map((l) => [l.level, l.context])).to.deep.equal([['error', { userId }]]);
    expect(JSON.stringify(lines)).not.to.match(/operator-pass|squatter-pass/);
    // and the squatter's own password still signs in to a plain account
    await h.projector.caughtUp();
    const login = await h.request('POST', '/api/auth/login', { body: { email, password: 'squatter-pass' } });
    expect(login.body.user.isAdmin).to.equal(false);
  });

  it('promotes an existing account when the password given is its own', async function () {
    const email = `owner.${unique()}@example.com`;
    const { userId } = await h.signup({ email, username: `owner_${unique()}`, password: 'own-pass-1' });
    expect(await ensureAdmin(registrationDeps(h.rt), { email, password: 'own-pass-1' })).to.equal(userId);
    expect(await promotions(userId)).to.equal(1);
  });

  it('creates the admin when the email is free, and keeps it an admin on the next start (another password only warns)', async function () {
    const email = `first.${unique()}@example.com`;
    const id = await ensureAdmin(registrationDeps(h.rt), { email, password: 'first-pass' });
    const [registered] = await h.rt.infra.eventStore.readStream(`user-${id}`);
    expect(registered!.metadata.userId).to.equal('system');
    const { logger, lines } = recordingLogger();
    expect(await ensureAdmin(registrationDeps(h.rt), { email, password: 'changed-pass' }, logger)).to.equal(id);
    expect(await promotions(id)).to.equal(1);
    expect(lines.map((l) => l.level)).to.deep.equal(['warn']);
  });
});
