/** One writer per projection: the in-process lease and the PostgreSQL advisory-lock lease. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MemoryLeaseProvider, PostgresLeaseProvider } from './lease';
import { POSTGRES_URL, requireServices } from '../../../test/services';
import { waitUntil } from '../../../test/wait';

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

    /** A provider whose connections carry `label` as their application_name, so they can be counted. */
    const labelled = (namespace: string, label: string) => {
      const url = new URL(POSTGRES_URL);
      url.searchParams.set('application_name', label);
      const leases = new PostgresLeaseProvider(url.toString(), namespace);
      open.push(leases);
      return leases;
    };
    const connections = async (label: string) => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [label]);
        return rows[0]!.n;
      } finally {
        await client.end();
      }
    };
    /** A backend leaves pg_stat_activity shortly after its client hangs up. */
    const connectionsSettleAt = (label: string, count: number) =>
      waitUntil(async () => (await connections(label)) === count, { timeoutMs: 5000, intervalMs: 20, message: `${count} connection(s) labelled ${label}` });

    it('holds one connection per lease it grants, and none for a refused or released one', async function () {
      // The projector asks for every lease it lacks every 2 s: a refusal that left its connection open
      // would leak one connection per projection each time, until the server refuses everyone.
      const namespace = `ns-${randomUUID()}`;
      const [holder, waiter] = [`lease-holder-${randomUUID()}`, `lease-waiter-${randomUUID()}`];
      const [a, b] = [labelled(namespace, holder), labelled(namespace, waiter)];
      const users = await a.tryAcquire('projection:users');
      const stats = await a.tryAcquire('projection:stats');
      expect(await connections(holder)).to.equal(2);
      for (let i = 0; i < 3; i++) expect(await b.tryAcquire('projection:users')).to.equal(null);
      await connectionsSettleAt(waiter, 0);
      await users!.release();
      await connectionsSettleAt(holder, 1);
      await stats!.release();
      await connectionsSettleAt(holder, 0);
    });

    it('survives the server ending a lease connection (no unhandled error event)', async function () {
      // Without an error listener, pg's client would throw from an event and bring the process down.
      const label = `lease-terminated-${randomUUID()}`;
      const leases = labelled(`ns-${randomUUID()}`, label);
      expect(await leases.tryAcquire('x')).to.not.equal(null);
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [label]);
      } finally {
        await admin.end();
      }
      // The backend is gone once the client has been told (an unhandled 'error' would fail this test).
      await connectionsSettleAt(label, 0);
    });

    it('ends every connection it holds on close', async function () {
      const label = `lease-closed-${randomUUID()}`;
      const leases = labelled(`ns-${randomUUID()}`, label);
      await leases.tryAcquire('x');
      await leases.tryAcquire('y');
      expect(await connections(label)).to.equal(2);
      await leases.close();
      await connectionsSettleAt(label, 0);
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
