/**
 * The signal engine on the embedded stores (PGlite) and the simulated market, walked through candles
 * with a settable clock and a timer the test fires: a signal per coin on start, more only when the
 * evidence changes, ids derived from symbol and candle time, and no duplicate when the worker is
 * restarted over the same candles or two engines evaluate the same candle at once.
 */
import { expect } from 'chai';
import { coins } from '@papertrade/domain/market/coins';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { startHarness, type Harness } from '../../test/api-harness';
import { SIGNAL_CANDLE_MINUTES, SignalEngine, signalIdFor, untilNextCandle, type Timer } from './signal-engine';

const SEED = 'signal engine spec seed';
const START = Date.UTC(2025, 5, 1, 12, 2, 30);
const CANDLE_MS = SIGNAL_CANDLE_MINUTES * 60_000;

/** A timer whose callbacks run when the test says so. */
function manualTimer() {
  const pending = new Map<number, { callback: () => void; delayMs: number }>();
  let next = 0;
  const timer: Timer = {
    set(callback, delayMs) {
      pending.set(++next, { callback, delayMs });
      return next;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  return {
    timer,
    delays: () => [...pending.values()].map((p) => p.delayMs),
    fire() {
      const entries = [...pending.entries()];
      expect(entries, 'one pending timer').to.have.length(1);
      pending.clear();
      entries[0]![1].callback();
    },
  };
}

describe('signal engine (PGlite, simulated market)', function () {
  this.timeout(120_000);
  let harness: Harness;
  before(async function () {
    harness = await startHarness();
  });
  after(async function () {
    await harness?.stop();
  });

  async function signalEvents(): Promise<RecordedEvent[]> {
    return (await harness.eventsSince(undefined)).filter((e) => e.type === 'SignalGenerated');
  }

  function engineAt(startMs: number) {
    let now = startMs;
    const clock = () => new Date(now);
    const timer = manualTimer();
    const engine = new SignalEngine({
      marketData: new SimulatedMarketData(SEED, clock),
      handler: new CommandHandler(harness.rt.infra.eventStore, clock),
      clock,
      logger: silentLogger,
      timer: timer.timer,
    });
    return {
      engine,
      timer,
      /** Fires the pending round (the first, or the next candle's after moving the clock there) and waits for it. */
      async round(advanceMs = 0) {
        now += advanceMs;
        timer.fire();
        await engine.idle();
      },
    };
  }

  /** Starts an engine at `startMs` and walks it through `candles` more candles. */
  async function walk(startMs: number, candles: number) {
    const run = engineAt(startMs);
    run.engine.start();
    await run.round();
    for (let i = 0; i < candles; i++) await run.round(CANDLE_MS);
    await run.engine.stop();
    return run.engine.status();
  }

  it('on start signals every coin on its last closed candle, waits for the next candle boundary, and signals again only on new evidence', async function () {
    const run = engineAt(START);
    run.engine.start();
    expect(run.timer.delays()).to.deep.equal([0]);
    await run.round();
    const first = await signalEvents();
    expect(first.map((e) => e.data.symbol).sort()).to.deep.equal(coins.map((c) => c.symbol).sort());
    // The last closed 5-minute candle at 12:02:30 is 11:55-12:00.
    expect(new Set(first.map((e) => e.data.candleTime))).to.deep.equal(new Set(['2025-06-01T11:55:00.000Z']));
    for (const e of first) expect(e.data.signalId).to.equal(signalIdFor(String(e.data.symbol), String(e.data.candleTime)));
    expect(run.timer.delays()).to.deep.equal([untilNextCandle(START)]);
    expect(untilNextCandle(START)).to.equal(2.5 * 60_000 + 1000);

    for (let i = 0; i < 12; i++) await run.round(CANDLE_MS);
    await run.engine.stop();
    const status = run.engine.status();
    expect(status).to.deep.include({ rounds: 13, evaluations: 130, failures: 0 });
    const all = await signalEvents();
    expect(all).to.have.length(status.signalsGenerated);
    expect(all.length).to.be.above(10).and.below(130); // some candles changed the evidence, not all
    // Each stream's signals differ from their predecessor in type or in an indicator's verdict.
    for (const coin of coins) {
      const stream = all.filter((e) => e.data.symbol === coin.symbol);
      const candleTimes = stream.map((e) => Date.parse(String(e.data.candleTime)));
      expect(candleTimes, coin.symbol).to.deep.equal([...candleTimes].sort((a, b) => a - b));
      expect(new Set(candleTimes).size, coin.symbol).to.equal(candleTimes.length);
    }
  });

  it('a restarted worker over the same candles appends nothing more, and the event ids repeat', async function () {
    const before = await signalEvents();
    const status = await walk(START, 12);
    expect(status).to.deep.include({ evaluations: 130, signalsGenerated: 0, failures: 0 });
    expect(await signalEvents()).to.deep.equal(before);
  });

  it('two engines evaluating the same new candles at once write each signal once', async function () {
    const later = START + 3 * 60 * 60_000;
    const before = (await signalEvents()).length;
    const [a, b] = await Promise.all([walk(later, 2), walk(later, 2)]);
    const added = (await signalEvents()).slice(before);
    expect(added.length).to.equal(a.signalsGenerated + b.signalsGenerated);
    expect(added.length).to.be.above(0); // three hours on, the evidence has changed somewhere
    const keys = added.map((e) => `${e.data.symbol}@${e.data.candleTime}`);
    expect(new Set(keys).size).to.equal(keys.length);
    expect(new Set(added.map((e) => e.id)).size).to.equal(added.length);
  });
});
