/**
 * OwnWrites on stand-ins for the read models and the event store: what it asks the event store, and
 * when it waits. The HTTP behaviour: query-api/src/own-writes-api.int.spec.ts (embedded) and
 * test/cluster-own-writes.int.spec.ts (separate processes).
 */
import { expect } from 'chai';
import { encodePosition, type Position } from '../event-store/position';
import type { ReadModels } from '../projections/read-models';
import { OwnWrites, type LastWriteOf } from './own-writes';

const p = (n: number) => encodePosition(n, 0);

function setUp(options: { applied?: Position; lastWrite?: Position; failing?: boolean; reaches?: boolean }) {
  const asked: Array<{ actor: string; after?: Position }> = [];
  const waits: Array<{ projections: string[]; position: Position; timeoutMs?: number }> = [];
  const readModels = {
    reachedAtLeast: async () => options.applied,
    waitFor: async (projections: string[], position: Position, timeoutMs?: number) => {
      waits.push({ projections, position, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      return options.reaches ?? true;
    },
  } as unknown as ReadModels;
  const lastWriteOf: LastWriteOf = async (actor, after) => {
    asked.push({ actor, ...(after !== undefined ? { after } : {}) });
    if (options.failing) throw new Error('event store down');
    return options.lastWrite;
  };
  return { ownWrites: new OwnWrites(readModels, lastWriteOf), asked, waits };
}

describe('OwnWrites', function () {
  it('asks only for a write after what the projections have applied, and does not wait when there is none', async function () {
    const { ownWrites, asked, waits } = setUp({ applied: p(5) });
    expect(await ownWrites.waitFor('u1', ['trades', 'portfolios'])).to.equal('none');
    expect(asked).to.deep.equal([{ actor: 'u1', after: p(5) }]);
    expect(waits).to.deep.equal([]);
  });

  it("waits for the caller's write on the projections the route reads, at most 2 s", async function () {
    const { ownWrites, waits } = setUp({ applied: p(5), lastWrite: p(7) });
    expect(await ownWrites.waitFor('u1', ['trades', 'portfolios'])).to.equal('reached');
    expect(waits).to.deep.equal([{ projections: ['trades', 'portfolios'], position: p(7), timeoutMs: 2000 }]);
    expect(await setUp({ lastWrite: p(7), reaches: false }).ownWrites.waitFor('u1', ['trades'])).to.equal('not-reached');
  });

  it('serves what there is when the last write cannot be looked up', async function () {
    const { ownWrites, waits } = setUp({ failing: true });
    expect(await ownWrites.waitFor('u1', ['trades'])).to.equal('not-reached');
    expect(waits).to.deep.equal([]);
  });
});
