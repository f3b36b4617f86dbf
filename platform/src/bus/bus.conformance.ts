/** What every bus adapter must do: subjects, wildcards, unsubscribe, JSON payloads. */
import { expect } from 'chai';
import type { Bus } from './bus';

export type BusFactory = () => Promise<{ bus: Bus; cleanup(): Promise<void> }>;

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

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
      await settle();
      off();
      expect(got).to.deep.equal([['orders.created', { id: 1, items: ['a'] }]]);
    });

    it('matches * for one token and > for the rest', async function () {
      const star: string[] = [];
      const rest: string[] = [];
      const off1 = await bus.subscribe('proj.*.changed', (s) => star.push(s));
      const off2 = await bus.subscribe('proj.>', (s) => rest.push(s));
      await bus.publish('proj.users.changed', {});
      await bus.publish('proj.users.deep.changed', {});
      await bus.publish('proj', {});
      await settle();
      off1();
      off2();
      expect(star).to.deep.equal(['proj.users.changed']);
      expect(rest.sort()).to.deep.equal(['proj.users.changed', 'proj.users.deep.changed']);
    });

    it('stops delivering after unsubscribe', async function () {
      const got: unknown[] = [];
      const off = await bus.subscribe('ping', (_s, p) => got.push(p));
      await bus.publish('ping', 1);
      await settle();
      off();
      await bus.publish('ping', 2);
      await settle();
      expect(got).to.deep.equal([1]);
    });

    it('fans out to every subscriber', async function () {
      const a: unknown[] = [];
      const b: unknown[] = [];
      const offA = await bus.subscribe('fan', (_s, p) => a.push(p));
      const offB = await bus.subscribe('fan', (_s, p) => b.push(p));
      await bus.publish('fan', 'x');
      await settle();
      offA();
      offB();
      expect(a).to.deep.equal(['x']);
      expect(b).to.deep.equal(['x']);
    });
  });
}
