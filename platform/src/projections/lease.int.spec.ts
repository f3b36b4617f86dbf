/** One writer per projection: the in-process lease and the PostgreSQL advisory-lock lease. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MemoryLeaseProvider, PostgresLeaseProvider } from './lease';
import { POSTGRES_URL, requireServices } from '../../../test/services';

describe('projection leases', function () {
  describe('in process', function () {
    it('grants a name once until it is released', async function () {
      const leases = new MemoryLeaseProvider();
      const lease = await leases.tryAcquire('projection:users');
      expect(lease).to.not.equal(null);
      expect(await leases.tryAcquire('projection:users')).to.equal(null);
      expect(await leases.tryAcquire('projection:credentials')).to.not.equal(null);
      await lease!.release();
      expect(await leases.tryAcquire('projection:users')).to.not.equal(null);
    });

    it('frees every name on close', async function () {
      const leases = new MemoryLeaseProvider();
      await leases.tryAcquire('a');
      await leases.close();
      expect(await leases.tryAcquire('a')).to.not.equal(null);
    });
  });

  describe('on PostgreSQL', function () {
    this.timeout(60_000);
    const open: PostgresLeaseProvider[] = [];
    const provider = (namespace: string) => {
      const leases = new PostgresLeaseProvider(POSTGRES_URL, namespace);
      open.push(leases);
      return leases;
    };
    beforeEach(async function () {
      await requireServices(this, 'postgres');
    });
    afterEach(async function () {
      await Promise.all(open.splice(0).map((l) => l.close()));
    });

    it('grants a name to one provider of a namespace at a time, until it is released', async function () {
      const namespace = `ns-${randomUUID()}`;
      const [a, b] = [provider(namespace), provider(namespace)];
      const lease = await a.tryAcquire('projection:users');
      expect(lease).to.not.equal(null);
      expect(await b.tryAcquire('projection:users')).to.equal(null);
      expect(await b.tryAcquire('projection:credentials')).to.not.equal(null);
      await lease!.release();
      await lease!.release(); // a second release is harmless
      expect(await b.tryAcquire('projection:users')).to.not.equal(null);
    });

    it('keeps namespaces apart, so separate deployments on one server do not contend', async function () {
      const name = 'projection:users';
      expect(await provider(`ns-${randomUUID()}`).tryAcquire(name)).to.not.equal(null);
      expect(await provider(`ns-${randomUUID()}`).tryAcquire(name)).to.not.equal(null);
    });

    it("namespaces as 'papertrade' by default", async function () {
      const name = `projection:${randomUUID()}`;
      const [byDefault, named] = [new PostgresLeaseProvider(POSTGRES_URL), provider('papertrade')];
      open.push(byDefault);
      expect(await byDefault.tryAcquire(name)).to.not.equal(null);
      expect(await named.tryAcquire(name)).to.equal(null);
    });

    it('frees the leases of a closed provider (its connections end)', async function () {
      const namespace = `ns-${randomUUID()}`;
      const [a, b] = [provider(namespace), provider(namespace)];
      expect(await a.tryAcquire('x')).to.not.equal(null);
      await a.close();
      expect(await b.tryAcquire('x')).to.not.equal(null);
    });
  });
});
