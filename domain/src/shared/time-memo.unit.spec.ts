/** The kept time texts answer what the built-ins answer, however the questions interleave. */
import { expect } from 'chai';
import { isoOf, parseTime, utcDayOf } from './time-memo';

describe('time memo', function () {
  const texts = ['2024-01-01T00:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-02-30T12:00:00.000Z', '2024-03-01T00:00:00+02:00', 'not a time', '', '2024-13-01T00:00:00.000Z', '2026-11-26T10:00:05.000Z'];

  it('parseTime is Date.parse, asked in any order and again', function () {
    for (let round = 0; round < 3; round++) {
      for (const [i, t] of texts.entries()) {
        expect(parseTime(t), t).to.deep.equal(Date.parse(t));
        // Interleaved with others, so the last-texts ring turns over.
        const other = texts[(i * 3 + round) % texts.length]!;
        expect(parseTime(other), other).to.deep.equal(Date.parse(other));
      }
    }
  });

  it('isoOf is toISOString, and parseTime of its text is its time (fractions of a millisecond dropped as the Date does)', function () {
    for (const ms of [0, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_000.7, -1, -0.5, 1_700_000_000_000.7]) {
      const text = isoOf(ms);
      expect(text).to.equal(new Date(ms).toISOString());
      expect(parseTime(text)).to.equal(Date.parse(new Date(ms).toISOString()));
      expect(isoOf(ms)).to.equal(text);
    }
    expect(() => isoOf(Number.NaN)).to.throw(RangeError);
  });

  it('utcDayOf is the day of new Date(text).toISOString(), an hour 24 or a 30th of February included, and throws on an invalid time even after a valid one', function () {
    for (const t of ['2024-01-01T24:00:00.000Z', '2024-02-30T12:00:00.000Z', '2024-03-01T00:30:00+02:00', '2024-03-01T00:30:00.000Z']) {
      expect(utcDayOf(t), t).to.equal(new Date(t).toISOString().slice(0, 10));
      expect(utcDayOf(t), t).to.equal(new Date(t).toISOString().slice(0, 10));
    }
    expect(utcDayOf('2024-01-01T24:00:00.000Z')).to.equal('2024-01-02');
    for (const bad of ['', 'not a time', '2024-13-01T00:00:00.000Z']) expect(() => utcDayOf(bad), bad).to.throw(RangeError);
  });
});
