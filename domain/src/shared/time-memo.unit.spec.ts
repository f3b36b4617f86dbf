/** The kept time texts answer what the built-ins answer, however the questions interleave. */
import { expect } from 'chai';
import { forgetTimeTexts, isoOf, parseTime, utcDayOf } from './time-memo';

describe('time memo', function () {
  // Each case from an empty memo (a mutation test reruns them in one process; a text kept by an earlier
  // run would answer before the rule under test is asked).
  beforeEach(forgetTimeTexts);
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

  it('isoOf keeps one text per slot: times a slot apart (65,536 s) and times asked again after them each get their own text', function () {
    const base = 1_735_689_600_000;
    const times = [base, base + 65_536_000, base + 2 * 65_536_000, base + 5000, base - 65_536_000, -65_536_000, 0];
    for (let round = 0; round < 3; round++) {
      for (const ms of times) expect(isoOf(ms), String(ms)).to.equal(new Date(ms).toISOString());
      for (const ms of [...times].reverse()) expect(isoOf(ms), String(ms)).to.equal(new Date(ms).toISOString());
    }
    // An invalid time throws whatever was kept in its slot (NaN's slot is 0's).
    expect(isoOf(0)).to.equal('1970-01-01T00:00:00.000Z');
    expect(() => isoOf(Number.NaN)).to.throw(RangeError);
    expect(() => isoOf(8.64e15 + 65_536_000)).to.throw(RangeError);
  });

  it('utcDayOf is the day of new Date(text).toISOString(), an hour 24 or a 30th of February included, and throws on an invalid time even after a valid one', function () {
    for (const t of ['2024-01-01T24:00:00.000Z', '2024-02-30T12:00:00.000Z', '2024-03-01T00:30:00+02:00', '2024-03-01T00:30:00.000Z']) {
      expect(utcDayOf(t), t).to.equal(new Date(t).toISOString().slice(0, 10));
      expect(utcDayOf(t), t).to.equal(new Date(t).toISOString().slice(0, 10));
    }
    expect(utcDayOf('2024-01-01T24:00:00.000Z')).to.equal('2024-01-02');
    for (const bad of ['', 'not a time', '2024-13-01T00:00:00.000Z']) expect(() => utcDayOf(bad), bad).to.throw(RangeError);
  });

  it('utcDayOf of a text just made by isoOf or just parsed: its own first ten characters only when it is in toISOString form', function () {
    // Parsed, not canonical: an offset, an hour 24 (both roll over into another day than their first ten characters say).
    for (const t of ['2024-03-01T00:30:00+02:00', '2024-01-01T24:00:00.000Z', '2024-03-01T01:00:00.000+02:00']) {
      parseTime(t);
      expect(utcDayOf(t), t).to.equal(new Date(t).toISOString().slice(0, 10));
    }
    // Made by isoOf, six-digit years included.
    for (const ms of [Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(50, 0, 1), 253_402_300_800_000, -62_198_755_200_000]) {
      const t = isoOf(ms);
      expect(utcDayOf(t), t).to.equal(new Date(ms).toISOString().slice(0, 10));
    }
  });
});

describe('time memo: texts in toISOString form, by arithmetic', function () {
  beforeEach(forgetTimeTexts);
  /** Texts near every edge the arithmetic checks: leap days, month ends, hour 24, second 60, two-digit years, stray characters. */
  function edgeTexts(): string[] {
    const out: string[] = [];
    for (const y of ['0000', '0050', '0099', '0100', '1900', '1970', '2000', '2023', '2024', '2100', '9999', '20a4']) {
      for (const mo of ['00', '01', '02', '04', '12', '13']) {
        for (const d of ['00', '01', '28', '29', '30', '31', '32']) {
          for (const time of ['00:00:00.000', '23:59:59.999', '24:00:00.000', '12:60:00.000', '12:00:60.000', '12:00:00.5x0']) out.push(`${y}-${mo}-${d}T${time}Z`);
        }
      }
    }
    return out;
  }

  it('parseTime and utcDayOf answer as Date.parse and toISOString for every edge text and 20,000 random times', function () {
    const random: string[] = [];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) random.push(new Date(Math.floor(-2e12 + next() * 2e14)).toISOString());
    for (const t of [...edgeTexts(), ...random]) {
      expect(parseTime(t), t).to.deep.equal(Date.parse(t));
      const date = new Date(t);
      if (Number.isNaN(date.getTime())) expect(() => utcDayOf(t), t).to.throw(RangeError);
      else expect(utcDayOf(t), t).to.equal(date.toISOString().slice(0, 10));
    }
  });

  it('answers as the built-ins for every text one character away from toISOString form: each character replaced, dropped or doubled, and one added at either end', function () {
    // The arithmetic must take only texts in that exact form: a separator elsewhere, a letter in a
    // number, a text a character longer or shorter goes to the built-ins (most of them are NaN there).
    const others = ['0', '1', '5', '9', '-', ':', 'T', '.', 'Z', ' ', '+', '/', 'x', 't', 'z', ',', '\u0000'];
    const near = (text: string): string[] => {
      const out: string[] = [];
      for (let i = 0; i < text.length; i++) {
        for (const c of others) if (c !== text[i]) out.push(text.slice(0, i) + c + text.slice(i + 1));
        out.push(text.slice(0, i) + text.slice(i + 1), text.slice(0, i + 1) + text.slice(i));
      }
      for (const c of others) out.push(c + text, text + c);
      return out;
    };
    let checked = 0;
    for (const base of ['2024-12-31T23:59:59.999Z', '2023-02-28T00:00:00.000Z', '1999-09-09T09:09:09.009Z']) {
      for (const t of near(base)) {
        forgetTimeTexts();
        expect(parseTime(t), t).to.deep.equal(Date.parse(t));
        forgetTimeTexts();
        const date = new Date(t);
        if (Number.isNaN(date.getTime())) expect(() => utcDayOf(t), t).to.throw(RangeError);
        else expect(utcDayOf(t), t).to.equal(date.toISOString().slice(0, 10));
        checked++;
      }
    }
    expect(checked).to.equal(1411); // 3 texts x (24 characters x (16 or 17 others + dropped + doubled) + 2 x 17 at the ends)
  });
});
