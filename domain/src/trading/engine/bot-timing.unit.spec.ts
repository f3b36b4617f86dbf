/**
 * When a bot order fills: the first tick at or after its signal's time (its candle's close) plus
 * BOT_LATENCY_MS; the live tick when the bot handles it later; never a tick that has not happened.
 */
import { expect } from 'chai';
import { BOT_LATENCY_MS, fillTimeMs, intendedFillMs, signalTimeMs, tickAtOrAfter } from './bot-timing';

const ms = (iso: string) => Date.parse(iso);

describe('engine: bot order timing', function () {
  it('times a signal by its candle\'s close, or by when it was recorded if that came first', function () {
    expect(signalTimeMs('2026-01-05T10:00:00.000Z')).to.equal(ms('2026-01-05T10:05:00.000Z'));
    expect(signalTimeMs('2026-01-05T10:00:00.000Z', '2026-01-05T10:05:01.020Z'), 'recorded after the close').to.equal(ms('2026-01-05T10:05:00.000Z'));
    expect(signalTimeMs('2026-01-05T10:00:00.000Z', '2026-01-05T10:02:00.000Z'), 'recorded before its candle closed').to.equal(ms('2026-01-05T10:02:00.000Z'));
    expect(signalTimeMs('2026-01-05T10:00:00.000Z', 'not a time')).to.equal(ms('2026-01-05T10:05:00.000Z'));
  });

  it('means the order for the first tick at or after the signal time plus 2 s: 5 s after a close', function () {
    expect(BOT_LATENCY_MS).to.equal(2000);
    expect(intendedFillMs(ms('2026-01-05T10:05:00.000Z'))).to.equal(ms('2026-01-05T10:05:05.000Z'));
    expect(intendedFillMs(ms('2026-01-05T10:05:03.000Z'))).to.equal(ms('2026-01-05T10:05:05.000Z'), 'a tick exactly at +2 s is the one');
    expect(intendedFillMs(ms('2026-01-05T10:05:03.001Z'))).to.equal(ms('2026-01-05T10:05:10.000Z'));
    expect(tickAtOrAfter(ms('2026-01-05T10:05:05.000Z'))).to.equal(ms('2026-01-05T10:05:05.000Z'));
  });

  it('fills on time at the intended tick, and late at the live tick (the one at or before the moment handled)', function () {
    const intended = ms('2026-01-05T10:05:05.000Z');
    expect(fillTimeMs(intended, ms('2026-01-05T10:05:01.500Z')), 'early: wait for it').to.equal(intended);
    expect(fillTimeMs(intended, ms('2026-01-05T10:05:09.999Z')), 'within its tick').to.equal(intended);
    expect(fillTimeMs(intended, ms('2026-01-05T10:05:10.000Z'))).to.equal(ms('2026-01-05T10:05:10.000Z'));
    expect(fillTimeMs(intended, ms('2026-01-05T10:07:42.300Z')), 'a slow worker').to.equal(ms('2026-01-05T10:07:40.000Z'));
  });
});
