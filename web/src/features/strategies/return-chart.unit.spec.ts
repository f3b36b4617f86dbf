/** The return charts' geometry: shared scales, 0 % always on the axis, curves from 0 at their first trade. */
import { expect } from 'chai';
import { buildReturnChart, tickLabel, withOrigin } from './return-chart';

const box = { width: 400, height: 200, margin: { top: 10, right: 10, bottom: 20, left: 40 } };
const day = (d: number) => new Date(Date.UTC(2026, 0, d)).toISOString();

describe('return chart', function () {
  it('a curve starts at 0 % at its first round trip, then follows the cumulative returns', function () {
    expect(withOrigin([{ date: day(2), cumulativeReturn: 3 }, { date: day(3), cumulativeReturn: -1 }])).to.deep.equal([
      { t: Date.parse(day(2)), v: 0 },
      { t: Date.parse(day(2)), v: 3 },
      { t: Date.parse(day(3)), v: -1 },
    ]);
    expect(withOrigin([])).to.deep.equal([]);
  });

  it('maps the first and last times to the plot\'s edges and keeps 0 % inside the y range', function () {
    const chart = buildReturnChart([[{ date: day(1), cumulativeReturn: 5 }, { date: day(11), cumulativeReturn: 10 }]], box);
    expect(chart.paths[0]).to.match(/^M40,\d+(\.\d+)?L40,/);
    expect(chart.ends[0]!.x).to.equal(390);
    expect(chart.zeroY).to.be.at.most(180).and.at.least(10);
    // Higher returns are higher on screen.
    expect(chart.ends[0]!.y).to.be.below(chart.zeroY);
    expect(chart.yTicks.some((t) => t.label === '0%')).to.equal(true);
  });

  it('several series share the axes; an empty one draws nothing', function () {
    const chart = buildReturnChart([[{ date: day(1), cumulativeReturn: -8 }], [], [{ date: day(5), cumulativeReturn: 4 }]], box);
    expect(chart.paths[1]).to.equal('');
    expect(chart.ends[1]).to.equal(null);
    expect(chart.ends[0]!.x).to.equal(40);
    expect(chart.ends[2]!.x).to.equal(390);
    expect(chart.ends[0]!.y).to.be.above(chart.ends[2]!.y);
  });

  it('a single instant gets a time range around it (no zero-width domain, no NaN)', function () {
    const chart = buildReturnChart([[{ date: day(1), cumulativeReturn: 2 }]], box);
    expect(chart.paths[0]).to.not.match(/NaN/);
    expect(chart.ends[0]!.x).to.equal(215);
  });

  it('x labels: days over two days or more, times of day within a day; the last one anchored not to be cut off', function () {
    expect(tickLabel(new Date(Date.UTC(2026, 0, 5, 14, 30)), 3 * 86_400_000)).to.equal('Jan 5');
    expect(tickLabel(new Date(Date.UTC(2026, 0, 5, 14, 30)), 3_600_000)).to.equal('14:30');
    const chart = buildReturnChart([[{ date: day(1), cumulativeReturn: 1 }, { date: day(11), cumulativeReturn: 2 }]], box);
    expect(chart.xTicks.at(-1)!.anchor).to.equal(chart.xTicks.at(-1)!.x > 366 ? 'end' : 'middle');
    expect(chart.xTicks[0]!.label).to.match(/^Jan \d+$/);
  });
});
