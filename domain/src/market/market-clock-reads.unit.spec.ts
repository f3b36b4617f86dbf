/**
 * What the market clock keeps (market-clock.ts): each day's total variance is computed once, whatever
 * order the days are asked in (a path asks the totals of every day up to the one it prices), and the
 * last days' minutes are kept. Counted on a clock whose day computation records every call; the numbers
 * themselves are market-clock.unit.spec.ts's.
 */
import { expect } from 'chai';
import { DAY_CACHE, MarketClock, type DayClock } from './market-clock';

const KEY = Uint32Array.from([41, 11, 12, 13, 14, 15, 16, 17]);

/** A clock that records the days it computes. */
function countedClock(): { clock: MarketClock; computed: number[] } {
  const clock = new MarketClock(KEY);
  const computed: number[] = [];
  const into = clock.dayClockInto.bind(clock);
  clock.dayClockInto = (day: number, target: DayClock) => {
    computed.push(day);
    return into(day, target);
  };
  return { clock, computed };
}

describe('market clock reads: each day computed once', function () {
  this.timeout(60_000);

  it("computes each day's total once, whatever order the days are asked in", function () {
    const { clock, computed } = countedClock();
    const late = clock.dayTotal(12);
    expect(computed, 'days 0 to 12, in order').to.deep.equal(Array.from({ length: 13 }, (_, d) => d));
    computed.length = 0;
    const early = clock.dayTotal(5);
    expect(clock.dayTotal(12)).to.equal(late);
    expect(computed, 'days known already').to.deep.equal([]);
    expect(early).to.equal(new MarketClock(KEY).dayTotal(5));
    expect(clock.dayTotal(14)).to.equal(new MarketClock(KEY).dayTotal(14));
    expect(computed, 'only the days past the known ones').to.deep.equal([13, 14]);
  });

  it("keeps a day's minutes: the same object the second time, and the day it says", function () {
    const { clock, computed } = countedClock();
    const day = clock.dayClock(30);
    expect(clock.dayClock(30)).to.equal(day);
    expect(day.day).to.equal(30);
    expect(computed).to.deep.equal([30]);
  });

  it(`keeps the ${DAY_CACHE} days asked last, and lets the one asked longest ago go`, function () {
    const { clock, computed } = countedClock();
    const days = Array.from({ length: DAY_CACHE }, (_, i) => 100 + i);
    const first = days.map((day) => clock.dayClock(day));
    expect(days.map((day) => clock.dayClock(day)), 'all kept').to.deep.equal(first);
    clock.dayClock(100); // now the one asked last
    clock.dayClock(200); // one more: day 101, asked longest ago, goes
    computed.length = 0;
    expect(clock.dayClock(100), 'asked last, kept').to.equal(first[0]);
    expect(clock.dayClock(102), 'kept').to.equal(first[2]);
    expect(computed, 'nothing computed again').to.deep.equal([]);
    expect(clock.dayClock(101), 'let go').to.not.equal(first[1]);
    expect(computed).to.deep.equal([101]);
  });
});
