/**
 * The portfolio's remembered trade ids (idempotency, portfolio.ts): the memory keeps its ids in two
 * parts, and asked along a chain of states it counts them and hands the counts on; every answer is
 * that of a plain list of the last 500 ids placed (the model below), past the memory's 500 (ids
 * dropped), with an id remembered twice, for a memory asked about again after its counts moved on, and
 * from a state folded before the second part existed (its first part only).
 */
import { expect } from 'chai';
import { rememberedTradeIds, rememberTradeId, remembersTradeId, TRADE_ID_BATCH, TRADE_ID_MEMORY, type TradeIdMemory } from './portfolio';

/** The model: the last TRADE_ID_MEMORY ids placed, oldest first. */
const modelAfter = (ids: readonly string[], id: string) => [...ids, id].slice(-TRADE_ID_MEMORY);

function chain(start: TradeIdMemory, startModel: string[], trades: number, alsoAsked: string[] = []): void {
  let memory = start;
  let model = startModel;
  const states: Array<{ memory: TradeIdMemory; model: string[] }> = [];
  const repeated: string[] = [];
  for (let n = 0; n < trades; n++) {
    // Every 97th trade repeats an id still remembered (a stream written before the memory checked it).
    const id = n % 97 === 96 ? model[model.length - 10]! : `t-${n}`;
    if (n % 97 === 96) repeated.push(id);
    for (const asked of [`t-${n}`, `t-${n - 1}`, `t-${n - TRADE_ID_MEMORY}`, `t-${n - TRADE_ID_MEMORY + 1}`, `t-${n - 600}`, 'old-0', 'old-499', 'never', ...alsoAsked, ...repeated]) {
      expect(remembersTradeId(memory, asked), `${asked} after ${n}`).to.equal(model.includes(asked));
    }
    states.push({ memory, model });
    const next = rememberTradeId(memory, id);
    model = modelAfter(model, id);
    expect(rememberedTradeIds(next), `the ids after ${n}`).to.deep.equal(model);
    expect(next.recentTradeIds.length).to.be.at.most(TRADE_ID_MEMORY);
    expect(next.newTradeIds.length).to.be.below(TRADE_ID_BATCH);
    memory = next;
  }
  // Every earlier memory (its counts handed on: each batch's last one moved them to a new first part)
  // answers as itself.
  states.forEach((old, n) => {
    for (const asked of [`t-${n - 1}`, `t-${n - TRADE_ID_MEMORY}`, `t-${n + 1}`, `t-${trades - 1}`]) expect(remembersTradeId(old.memory, asked), `${asked} in state ${n}`).to.equal(old.model.includes(asked));
  });
  // Older memories and a branch from one of them still answer as themselves.
  for (const old of [states[700]!, states[1100]!, states[trades - 1]!]) {
    for (const asked of ['t-650', 't-1000', 't-1200', 'never']) expect(remembersTradeId(old.memory, asked), asked).to.equal(old.model.includes(asked));
    const branch = rememberTradeId(old.memory, 'branch');
    expect(remembersTradeId(branch, 'branch')).to.equal(true);
    expect(rememberedTradeIds(branch)).to.deep.equal(modelAfter(old.model, 'branch'));
    expect(remembersTradeId(branch, old.model[0]!)).to.equal(modelAfter(old.model, 'branch').includes(old.model[0]!));
  }
}

describe('remembered trade ids', function () {
  it('answer as a list of the last 500 ids does along a chain of 1,300 trades, a repeated id and the dropped ones included', function () {
    chain({ recentTradeIds: [], newTradeIds: [] }, [], 1300);
  });

  it('go on from a state folded before the second part existed (500 ids in the first part only, some twice)', function () {
    // Every 50th id is the one before it again (a stream written before the memory checked it).
    const legacy = Array.from({ length: TRADE_ID_MEMORY }, (_, i) => `old-${i % 50 === 49 ? i - 1 : i}`);
    chain({ recentTradeIds: legacy }, legacy, 1300, ['old-48', 'old-448', 'old-498']);
  });

  it('go on from a memory whose two parts both hold an id twice', function () {
    const older = Array.from({ length: 490 }, (_, i) => `old-${i % 50 === 49 ? i - 1 : i}`);
    const newer = ['new-0', 'new-1', 'new-0', 'old-488', 'new-2'];
    chain({ recentTradeIds: older, newTradeIds: newer }, [...older, ...newer].slice(-TRADE_ID_MEMORY), 1300, ['new-0', 'old-488', 'old-448', 'old-0']);
  });

  it('go on from a memory holding an id three times, as each copy drops out in turn', function () {
    // 'old-7' three times, far apart: it is remembered until its last copy drops out.
    const older = Array.from({ length: 480 }, (_, i) => (i === 7 || i === 200 || i === 400 ? 'old-7' : `old-${i}`));
    chain({ recentTradeIds: older, newTradeIds: ['new-0'] }, [...older, 'new-0'], 1300, ['old-7', 'old-200', 'old-400']);
  });

  it('copy the first part once every TRADE_ID_BATCH trades, the second at each', function () {
    let memory: TradeIdMemory = { recentTradeIds: [], newTradeIds: [] };
    let copies = 0;
    for (let n = 0; n < 10 * TRADE_ID_BATCH; n++) {
      const next = rememberTradeId(memory, `t-${n}`);
      if (next.recentTradeIds !== memory.recentTradeIds) copies++;
      memory = next;
    }
    expect(copies).to.equal(10);
  });
});
