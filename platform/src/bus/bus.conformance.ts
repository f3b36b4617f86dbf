/** What every bus adapter must do: subjects, wildcards, unsubscribe, JSON payloads. */
import { expect } from 'chai';
import type { Bus } from './bus';
import { waitUntil } from '../../../test/wait';

export type BusFactory = () => Promise<{ bus: Bus; cleanup(): Promise<void> }>;

// No fixed waits: "not delivered" is checked by publishing a sentinel that is delivered after it.
// Each subscriber gets one publisher's messages in publish order, so once the sentinel is in,
// anything published before it that was going to arrive has arrived.

export function busConformance(adapterName: string, makeBus: BusFactory): void {
  describe(`bus conformance: ${adapterName}`, function () {
    let bus: Bus;
    let cleanup: () => Promise<void>;
    before(async function () {
      ({ bus, cleanup } = await makeBus());
    });
    after(async function () {
      await cleanup?.();
    });

    it('delivers a JSON payload to a subscriber of the exact subject', async function () {
      const got: Array<[string, unknown]> = [];
      const off = await bus.subscribe('orders.created', (s, p) => got.push([s, p]));
      await bus.publish('orders.created', { id: 1, items: ['a'] });
      await bus.publish('orders.deleted', { id: 2 });
      await bus.publish('orders.created', { id: 3 }); // sentinel
      await waitUntil(() => got.length === 2, { message: 'the sentinel' });
      off();
      expect(got).to.deep.equal([
        ['orders.created', { id: 1, items: ['a'] }],
        ['orders.created', { id: 3 }],
      ]);
    });

    it('matches * for one token and > for the rest', async function () {
      const star: string[] = [];
      const rest: string[] = [];
      const off1 = await bus.subscribe('proj.*.changed', (s) => star.push(s));
      const off2 = await bus.subscribe('proj.>', (s) => rest.push(s));
      await bus.publish('proj.users.changed', {});
      await bus.publish('proj.users.deep.changed', {});
      await bus.publish('proj', {});
      await bus.publish('proj.end.changed', {}); // sentinel, matched by both
      await waitUntil(() => star.includes('proj.end.changed') && rest.includes('proj.end.changed'), { message: 'the sentinel' });
      off1();
      off2();
      expect(star).to.deep.equal(['proj.users.changed', 'proj.end.changed']);
      expect(rest).to.deep.equal(['proj.users.changed', 'proj.users.deep.changed', 'proj.end.changed']);
    });

    it('stops delivering after unsubscribe', async function () {
      const got: unknown[] = [];
      const off = await bus.subscribe('ping', (_s, p) => got.push(p));
      await bus.publish('ping', 1);
      await waitUntil(() => got.length === 1, { message: 'the first ping' });
      off();
      const witness: unknown[] = [];
      const offWitness = await bus.subscribe('ping', (_s, p) => witness.push(p));
      await bus.publish('ping', 2);
      await waitUntil(() => witness.length === 1, { message: 'the second ping at another subscriber' });
      offWitness();
      expect(got).to.deep.equal([1]);
    });

    it('fans out to every subscriber', async function () {
      const a: unknown[] = [];
      const b: unknown[] = [];
      const offA = await bus.subscribe('fan', (_s, p) => a.push(p));
      const offB = await bus.subscribe('fan', (_s, p) => b.push(p));
      await bus.publish('fan', 'x');
      await waitUntil(() => a.length > 0 && b.length > 0, { message: 'both subscribers' });
      await bus.publish('fan', 'end'); // sentinel: nothing delivered twice before it
      await waitUntil(() => a.includes('end') && b.includes('end'), { message: 'the sentinel' });
      offA();
      offB();
      expect(a).to.deep.equal(['x', 'end']);
      expect(b).to.deep.equal(['x', 'end']);
    });
  });
}
