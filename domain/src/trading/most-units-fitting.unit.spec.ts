/**
 * The sizing's search for the most whole units a budget buys (money.ts, mostUnitsFitting; used by the
 * bot's buy and the arbitrage pair): the same answer as stepping down one unit at a time from the
 * guess, for any guess, and a bounded number of checks however far the guess is.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { feeMicros, mostUnitsFitting, notionalMicros, TRADE_FEE_RATE } from './money';

/** What the sizing did before: from the guess down, one unit at a time, to the first that fits. */
function stepDown(guess: number, fits: (units: number) => boolean): number {
  let units = guess;
  while (units > 0 && !fits(units)) units -= 1;
  return units;
}

/** A fill of `units` at `price` (notional + fee) within `budget` micro-dollars. */
const fillFits = (budget: number, price: number) => (units: number) => notionalMicros(units, price) + feeMicros(notionalMicros(units, price)) <= budget;

/** `fits` that counts its calls. */
function counted(fits: (units: number) => boolean) {
  const calls: number[] = [];
  return { calls, fits: (units: number) => (calls.push(units), fits(units)) };
}

describe('the most units a budget buys', function () {
  it('gives what stepping down from the guess gives, for budgets and prices of every size', function () {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.double({ min: 0.0001, max: 200_000, noNaN: true }),
        fc.integer({ min: -40, max: 40 }),
        (budget, price, offset) => {
          // The sizing's own guess, moved a few units either way (a guess past the answer included).
          const guess = Math.max(0, Math.floor((budget / (1 + TRADE_FEE_RATE) / price) * 100) + offset);
          expect(mostUnitsFitting(guess, fillFits(budget, price))).to.equal(stepDown(guess, fillFits(budget, price)));
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('answers every count from 0 to far above the largest that fits, for a threshold anywhere', function () {
    for (const largest of [0, 1, 2, 3, 7, 8, 9, 100]) {
      for (let guess = 0; guess <= 130; guess += 1) {
        expect(mostUnitsFitting(guess, (u) => u <= largest), `largest ${largest}, guess ${guess}`).to.equal(Math.min(guess, largest));
      }
    }
  });

  it('checks a guess that fits once and nothing else', function () {
    const probe = counted((u) => u <= 500);
    expect(mostUnitsFitting(500, probe.fits)).to.equal(500);
    expect(probe.calls).to.deep.equal([500]);
  });

  it('steps one unit first: a guess one over the answer costs two checks', function () {
    const probe = counted((u) => u <= 499);
    expect(mostUnitsFitting(500, probe.fits)).to.equal(499);
    expect(probe.calls).to.deep.equal([500, 499]);
  });

  it('stays within about 2 x log2 of the distance: a guess 1e15 units too high (a coin under a dollar, a bad first guess) takes under 110 checks', function () {
    const answer = 123_456;
    const probe = counted((u) => u <= answer);
    expect(mostUnitsFitting(answer + 1e15, probe.fits)).to.equal(answer);
    expect(probe.calls.length).to.be.below(110);
    // Stepping down would have checked 1e15 counts.
  });

  it('buys nothing for a guess of zero, below zero or not a number, without checking', function () {
    for (const guess of [0, -3, Number.NaN]) {
      const probe = counted(() => true);
      expect(mostUnitsFitting(guess, probe.fits), String(guess)).to.equal(0);
      expect(probe.calls, String(guess)).to.deep.equal([]);
    }
  });

  it('gives 0 when not even one unit fits, without checking 0 itself', function () {
    const probe = counted((u) => u === 0);
    expect(mostUnitsFitting(1_000, probe.fits)).to.equal(0);
    expect(probe.calls).not.to.include(0);
  });

  it('sizes a coin under a dollar to the unit: $1,000 of a $0.35 coin with the fee', function () {
    const budget = 1_000_000_000; // micro-dollars
    const units = mostUnitsFitting(Math.floor((budget / (1 + TRADE_FEE_RATE) / 0.35) * 100) + 300, fillFits(budget, 0.35));
    expect(fillFits(budget, 0.35)(units)).to.equal(true);
    expect(fillFits(budget, 0.35)(units + 1)).to.equal(false);
  });
});
