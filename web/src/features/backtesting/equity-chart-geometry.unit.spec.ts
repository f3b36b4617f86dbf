/**
 * The equity and drawdown chart's geometry: one time axis for both plots, the equity plot above with
 * the starting capital inside its domain, the drawdown below drawn downward from 0, the cursor's
 * nearest point, and the drawdown at a time.
 */
import { expect } from 'chai';
import { buildEquityChartGeometry, drawdownAt, timeTickLabels, EQUITY_SHARE, MARGINS, MIN_DRAWDOWN_DOMAIN, nearestPointIndex, PLOT_GAP_PX, type DrawdownPoint, type EquityPoint } from './equity-chart-geometry';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const equity: EquityPoint[] = [10_000, 10_500, 9_800, 10_200, 11_000].map((e, i) => ({ time: T0 + i * DAY, equity: e }));
const drawdown: DrawdownPoint[] = [0, 0, 0.0667, 0.0286, 0].map((d, i) => ({ time: T0 + i * DAY, drawdown: d }));
const SIZE = { width: 400 + MARGINS.left + MARGINS.right, height: 318 + MARGINS.top + MARGINS.bottom };

function points(path: string | null): Array<[number, number]> {
  expect(path).to.be.a('string');
  return Array.from(path!.matchAll(/[MLZ]?([-\d.e]+),([-\d.e]+)/g), (m) => [Number(m[1]), Number(m[2])]);
}

describe('equity chart geometry', function () {
  it('splits the height: equity above, a gap, drawdown below, over one time axis', function () {
    const g = buildEquityChartGeometry(equity, drawdown, SIZE, 10_000);
    expect(g.equityPlot).to.deep.equal({ x: MARGINS.left, y: MARGINS.top, width: 400, height: (318 - PLOT_GAP_PX) * EQUITY_SHARE });
    expect(g.drawdown!.plot.y).to.be.closeTo(MARGINS.top + g.equityPlot.height + PLOT_GAP_PX, 1e-9);
    expect(g.drawdown!.plot.y + g.drawdown!.plot.height).to.be.closeTo(MARGINS.top + 318, 1e-9);
    expect(g.x(new Date(T0))).to.equal(MARGINS.left);
    expect(g.x(new Date(T0 + 4 * DAY))).to.equal(MARGINS.left + 400);
  });

  it('draws the equity through every point, higher equity higher up, inside a padded domain', function () {
    const g = buildEquityChartGeometry(equity, drawdown, SIZE, 10_000);
    const p = points(g.equityPath);
    expect(p).to.have.length(5);
    p.forEach(([x, y], i) => {
      expect(x).to.be.closeTo(MARGINS.left + 100 * i, 1e-3);
      expect(y).to.be.closeTo(g.equityY(equity[i]!.equity), 1e-3);
    });
    expect(p[4]![1]).to.be.lessThan(p[2]![1]); // 11,000 above 9,800
    const [low, high] = g.equityY.domain() as [number, number];
    expect(low).to.be.closeTo(9_800 - 60, 1e-9);
    expect(high).to.be.closeTo(11_000 + 60, 1e-9);
  });

  it('keeps the starting capital inside the domain and draws its level', function () {
    const rising = equity.map((p, i) => ({ ...p, equity: 12_000 + i * 100 }));
    const g = buildEquityChartGeometry(rising, null, SIZE, 10_000);
    expect(g.equityY.domain()[0]).to.be.lessThan(10_000);
    expect(g.reference).to.deep.equal({ value: 10_000, y: g.equityY(10_000) });
    expect(buildEquityChartGeometry(rising, null, SIZE).reference).to.equal(null);
  });

  it('draws the drawdown downward from 0 at the top of its plot to the deepest point at its bottom', function () {
    const g = buildEquityChartGeometry(equity, drawdown, SIZE, 10_000);
    const dd = g.drawdown!;
    expect(dd.y(0)).to.equal(dd.plot.y);
    expect(dd.y(0.0667)).to.be.closeTo(dd.plot.y + dd.plot.height, 1e-9);
    const line = points(dd.linePath);
    expect(line[2]![1]).to.be.closeTo(dd.plot.y + dd.plot.height, 1e-3);
    expect(line[0]![1]).to.be.closeTo(dd.plot.y, 1e-3);
    expect(dd.areaPath).to.match(/^M.*Z$/);
  });

  it('a curve that never fell gets a drawdown axis of at least 1%', function () {
    const g = buildEquityChartGeometry(equity, drawdown.map((p) => ({ ...p, drawdown: 0 })), SIZE);
    expect(g.drawdown!.y.domain()).to.deep.equal([0, MIN_DRAWDOWN_DOMAIN]);
  });

  it('without a drawdown the equity takes the whole height (the stitched walk-forward curve)', function () {
    const g = buildEquityChartGeometry(equity, null, SIZE);
    expect(g.drawdown).to.equal(null);
    expect(g.equityPlot.height).to.equal(318);
  });

  it('draws nothing from no points, and a single point without dividing by zero', function () {
    const empty = buildEquityChartGeometry([], [], SIZE, 10_000);
    expect(empty.equityPath).to.equal(null);
    expect(empty.timeTicks).to.deep.equal([]);
    expect(nearestPointIndex(empty, 100)).to.equal(-1);
    const one = buildEquityChartGeometry([{ time: T0, equity: 10_000 }], null, SIZE);
    expect(points(one.equityPath).every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))).to.equal(true);
  });

  it('labels round times and round amounts inside their plots', function () {
    const g = buildEquityChartGeometry(equity, drawdown, SIZE, 10_000);
    expect(g.timeTicks.length).to.be.greaterThan(1);
    for (const t of g.timeTicks) expect(t.at).to.be.within(MARGINS.left, MARGINS.left + 400);
    for (const t of g.equityTicks) expect(t.at).to.be.within(g.equityPlot.y, g.equityPlot.y + g.equityPlot.height);
    for (const t of g.drawdown!.ticks) expect(t.at).to.be.within(g.drawdown!.plot.y, g.drawdown!.plot.y + g.drawdown!.plot.height);
  });

  it('labels the time axis by day, or within a day the day at midnight and the hour between, never one day twice in a row', function () {
    const at = (...times: number[]) => times.map((t) => ({ value: new Date(t), at: 0 }));
    expect(timeTickLabels(at(T0, T0 + DAY, T0 + 2 * DAY))).to.deep.equal(['Jan 1', 'Jan 2', 'Jan 3']);
    expect(timeTickLabels(at(T0 + DAY / 2, T0 + DAY, T0 + 1.5 * DAY))).to.deep.equal(['12:00', 'Jan 2', '12:00']);
    const twelveHourly = buildEquityChartGeometry(equity.slice(0, 3), null, { width: 1200, height: 300 });
    const labels = timeTickLabels(twelveHourly.timeTicks);
    expect(labels.length).to.be.greaterThan(3);
    labels.slice(1).forEach((label, i) => expect(label, labels.join(', ')).not.to.equal(labels[i]));
    expect(labels.filter((l) => /^Jan \d$/.test(l))).to.deep.equal(['Jan 1', 'Jan 2', 'Jan 3']);
  });

  it('finds the point nearest in time to the cursor, the ends beyond either side', function () {
    const g = buildEquityChartGeometry(equity, drawdown, SIZE);
    expect(nearestPointIndex(g, MARGINS.left + 100 * 2 + 40)).to.equal(2);
    expect(nearestPointIndex(g, MARGINS.left + 100 * 2 + 60)).to.equal(3);
    expect(nearestPointIndex(g, -50)).to.equal(0);
    expect(nearestPointIndex(g, 10_000)).to.equal(4);
  });

  it('reads the drawdown at a time: the last point at or before it, 0 before the first', function () {
    expect(drawdownAt(drawdown, T0 + 2 * DAY)).to.equal(0.0667);
    expect(drawdownAt(drawdown, T0 + 2 * DAY + 1)).to.equal(0.0667);
    expect(drawdownAt(drawdown, T0 - 1)).to.equal(0);
    expect(drawdownAt([], T0)).to.equal(0);
  });
});
