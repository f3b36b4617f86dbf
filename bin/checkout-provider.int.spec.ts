/**
 * Which checkout a deployment gets (bin/compose.ts checkoutProvider, issue 16 item 14): without
 * STRIPE_SECRET_KEY the built-in test checkout gives Premium to anyone for nothing, so outside the
 * embedded mode command-api refuses to start unless TEST_CHECKOUT=on says so. The refusal is checked
 * on a real command-api process (cluster mode, PostgreSQL); the choices themselves on the composition root.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '@papertrade/platform/config/config';
import { POSTGRES_URL, requireServices } from '../test/services';
import { dropSchema, uniqueSchema } from '../test/postgres';
import { repoRoot, startService } from '../test/app-process';
import { checkoutKind, TEST_CHECKOUT_REFUSED } from './compose';

describe('checkout provider choice: Stripe, or the test checkout only where it is asked for', function () {
  this.timeout(120_000);

  const choose = (env: Record<string, string>, embedded: boolean) => checkoutKind(loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env }), embedded);

  it('embedded: the test checkout by default, Stripe with a key, refused with TEST_CHECKOUT=off and no key', function () {
    expect(choose({}, true)).to.equal('test');
    expect(choose({ STRIPE_SECRET_KEY: 'sk_test_x' }, true)).to.equal('stripe');
    expect(() => choose({ TEST_CHECKOUT: 'off' }, true)).to.throw(TEST_CHECKOUT_REFUSED);
  });

  it('a service (cluster, production): Stripe with a key; without one only TEST_CHECKOUT=on gives the test checkout, anything else refuses', function () {
    expect(choose({ STRIPE_SECRET_KEY: 'sk_test_x' }, false)).to.equal('stripe');
    expect(choose({ STRIPE_SECRET_KEY: 'sk_test_x', TEST_CHECKOUT: 'on' }, false), 'a key wins').to.equal('stripe');
    expect(choose({ TEST_CHECKOUT: 'on' }, false)).to.equal('test');
    for (const env of [{}, { TEST_CHECKOUT: 'off' }, { TEST_CHECKOUT: '' }, { STRIPE_SECRET_KEY: '' }] as Array<Record<string, string>>) {
      expect(() => choose(env, false), JSON.stringify(env)).to.throw(`Invalid configuration: ${TEST_CHECKOUT_REFUSED}`);
    }
    expect(() => loadConfig({ TEST_CHECKOUT: 'yes' }), 'only on or off').to.throw(/TEST_CHECKOUT/);
  });

  describe('a command-api process', function () {
    let schema = '';
    before(async function () {
      await requireServices(this, 'postgres');
      schema = uniqueSchema('checkout_choice');
    });
    after(async function () {
      if (schema) await dropSchema(schema);
    });
    const env = () => ({ EVENT_STORE: 'postgres', READ_STORE: 'postgres', BUS: 'memory', DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, JWT_SECRET: 'y'.repeat(40), MARKET_SEED: 'm'.repeat(32), SECRETS_KEY: 'ab'.repeat(32), LOG: 'off', STRIPE_SECRET_KEY: '', TEST_CHECKOUT: '' });

    it('refuses to start without STRIPE_SECRET_KEY, saying why and what to set', function () {
      const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
      const result = spawnSync(tsx, ['bin/start-service.ts', 'command-api'], { cwd: repoRoot, env: { ...process.env, ...env(), PORT: '0' }, encoding: 'utf8', timeout: 60_000 });
      expect(result.status, result.stdout + result.stderr).to.equal(1);
      expect(result.stderr).to.include(TEST_CHECKOUT_REFUSED);
    });

    it('starts with TEST_CHECKOUT=on, and its Pay needs a sign-in', async function () {
      const service = await startService('bin/start-service.ts', ['command-api'], { ...env(), TEST_CHECKOUT: 'on' });
      try {
        const pay = await fetch(`${service.url}/test-checkout/cs_test_local_00000000000000000000000000000000_000000000000000000000000/pay`, { method: 'POST' });
        expect(pay.status).to.equal(401);
      } finally {
        await service.stop();
      }
    });
  });
});
