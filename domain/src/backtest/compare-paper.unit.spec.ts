/**
 * comparePaper on a backtest's own events taken as the paper bot's: they agree; then each kind of
 * difference is made on purpose (a late fill, a risk refusal, a missing trade each way, another
 * amount) and explained.
 */
import { expect } from 'chai';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import type { PortfolioEvent, SimulatedTradePlaced } from '../trading/portfolio';
import { comparePaper, type PaperRefusal } from './compare-paper';
import { comparePaperReportSchema, findStrategy } from './contracts';
import { simulationMarket } from './market';
import { runBacktestDetail } from './run-backtest';

const KEY = Uint32Array.from([18, 4, 2, 3, 4, 5, 6, 7]);
const START = Date.UTC(2025, 7, 4);
const END = START + 2 * 86_400_000;
const profile = { ...DEFAULT_RISK_PROFILE, stopLossType: 'fixed' as const, stopLossValue: 0.5, riskRewardRatio: 0.5, correlationLimit: 1 };

describe('comparePaper', function () {
  this.timeout(120_000);
  // Run in a hook, not as the file loads, on a simulation made there: a mutation test loads the specs
  // once and then runs them with each mutant active, so a run made at load would never see a mutant,
  // and a simulation kept across the runs would keep its caches from an earlier mutant.
  let run: ReturnType<typeof runBacktestDetail>;
  let paper: PortfolioEvent[];
  before(function () {
    run = runBacktestDetail({ strategyId: 'ma-crossover', symbol: 'ETH', startMs: START, endMs: END, initialCapital: 10_000, parameters: Object.fromEntries(Object.entries(findStrategy('ma-crossover')!.parameters).map(([k, v]) => [k, v.default])) }, simulationMarket(new MarketSimulation(KEY)), { rules: { profile } });
    paper = run.events.filter((e) => !(e.type === 'SimulatedTradePlaced' && e.data.tradeId.startsWith('end-of-test:')));
  });
  const compare = (events: PortfolioEvent[], refusals: PaperRefusal[] = []) => comparePaperReportSchema.parse(comparePaper({ backtestTrades: run.trades, paperEvents: events, refusals, startMs: START, endMs: END, symbol: 'ETH', trailing: false }));
  const buys = () => paper.filter((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced' && e.data.side === 'BUY');

  it('agrees with itself, the end-of-test sale left out', function () {
    const report = compare(paper);
    expect(report.agree).to.equal(true);
    expect(report.matched).to.equal(run.trades.filter((t) => t.reason !== 'END_OF_TEST').length);
    expect(report.matched).to.be.greaterThan(10);
  });

  it('explains a late fill, a refusal, a trade missing on either side and another amount', function () {
    const [first, second, third] = buys();
    const late: SimulatedTradePlaced = structuredClone(first!);
    const filled = Date.parse(late.data.execution!.filledAt) + 15_000;
    late.data.execution = { ...late.data.execution!, filledAt: new Date(filled).toISOString(), delayMs: 15_000 };
    const bigger: SimulatedTradePlaced = structuredClone(third!);
    bigger.data.quantity = bigger.data.quantity * 2;
    bigger.data.notionalMicros *= 2;
    const manual: SimulatedTradePlaced = structuredClone(first!);
    manual.data.tradeId = 'manual-1';
    manual.data.source = { kind: 'MANUAL' };
    const events = paper.filter((e) => e !== first && e !== second && e !== third).concat([late, bigger, manual]);
    const refusal: PaperRefusal = { signalId: second!.data.source.kind === 'SIGNAL' ? second!.data.source.signalId : '', symbol: 'ETH', signalType: 'BUY', candleTime: '', decision: { rule: 'CORRELATION_LIMIT', text: 'refused: correlation 0.83 with BTC above 0.70', figures: {} }, refusedAt: second!.data.placedAt };
    const report = compare(events, [refusal]);
    expect(report.agree).to.equal(false);
    const kinds = report.differences.map((d) => d.kind);
    expect(kinds).to.include.members(['late-fill', 'refused-by-risk', 'different-fill', 'missing-in-backtest']);
    expect(report.differences.find((d) => d.kind === 'late-fill')!.explanation).to.match(/15 s after its intended tick/);
    expect(report.differences.find((d) => d.kind === 'refused-by-risk')!.explanation).to.match(/CORRELATION_LIMIT rule: refused: correlation 0.83/);
    expect(report.differences.find((d) => d.kind === 'different-fill')!.explanation).to.match(/another amount/);
    expect(report.differences.find((d) => d.kind === 'missing-in-backtest')!.explanation).to.match(/a manual trade/);
    const gone = compare(paper.filter((e) => e !== first));
    expect(gone.differences.map((d) => d.kind)).to.include('missing-in-paper');
  });
});
