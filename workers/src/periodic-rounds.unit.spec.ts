/** A worker's periodic rounds: one at start, the next an interval after each ends, never two at once, none after stop. */
import { expect } from 'chai';
import { PeriodicRounds } from './periodic-rounds';
import type { Timer } from './signal-engine';

/** A timer the spec fires by hand: the pending callback and its delay. */
function manualTimer() {
  const pending: Array<{ fn: () => void; delayMs: number }> = [];
  const timer: Timer = {
    set: (fn, delayMs) => {
      const entry = { fn, delayMs };
      pending.push(entry);
      return entry;
    },
    clear: (handle) => {
      const i = pending.indexOf(handle as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  return { timer, pending, fire: () => pending.shift()!.fn() };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('periodic rounds', () => {
  it('a round at once, the next one interval after it ended; a failing round does not stop them', async () => {
    const t = manualTimer();
    let calls = 0;
    const rounds = new PeriodicRounds(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    }, 500, t.timer);
    rounds.start();
    rounds.start();
    expect(t.pending.map((p) => p.delayMs)).to.deep.equal([0]);
    t.fire();
    await settle();
    expect(calls).to.equal(1);
    expect(t.pending.map((p) => p.delayMs)).to.deep.equal([500]);
    t.fire();
    await settle();
    expect(calls).to.equal(2);
    expect(t.pending.map((p) => p.delayMs)).to.deep.equal([500]);
  });

  it('stop waits for the round under way and schedules nothing after it', async () => {
    const t = manualTimer();
    let finish!: () => void;
    let ended = false;
    const rounds = new PeriodicRounds(() => new Promise<void>((r) => (finish = r)).then(() => void (ended = true)), 500, t.timer);
    rounds.start();
    t.fire();
    let stopped = false;
    const stopping = rounds.stop().then(() => (stopped = true));
    await settle();
    expect([stopped, rounds.isRunning]).to.deep.equal([false, false]);
    finish();
    await stopping;
    expect([stopped, ended]).to.deep.equal([true, true]);
    expect(t.pending).to.deep.equal([]);
  });
});
