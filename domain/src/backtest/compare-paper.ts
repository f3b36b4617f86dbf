/**
 * Backtest versus paper (issue 18): the backtest's fills lined up with the paper bot's over the same
 * period, each difference explained. Pure.
 *
 * Lining up: a bot trade's id derives from its signal and its user (tradeIdFor), and a close's from
 * its position (the BUY's id), so a backtest run for the same user with the live signal ids
 * (runBacktest's `signalIdOf`) gives the paper trade's very ids: trades are matched by id, then what
 * is left by side, reason and fill time. A matched pair agrees when side, reason, fill time, amount,
 * price (to the cent of the trade's value), fee and P&L (to the cent) are equal.
 *
 * Differences and their explanations:
 * - late-fill: the bot filled after its intended tick (its `execution.delayMs`): a late worker;
 * - different-fill: another tick, amount or price, with both figures;
 * - refused-by-risk: the backtest traded on a signal the bot refused (its BotSignalRefused: the rule
 *   and its words);
 * - missing-in-paper: the backtest traded, the bot has no trade or refusal for it (the bot was off,
 *   or its portfolio differed: cash, a position held from before the period);
 * - missing-in-backtest: the bot traded, the backtest did not (a manual trade, another coin's signal,
 *   or a signal the strategy did not give).
 * The backtest's END_OF_TEST sale has no paper counterpart by design and is left out.
 */
import type { BotDecision } from '../trading/contracts';
import type { PortfolioEvent } from '../trading/portfolio';
import type { BacktestTrade, ComparePaperReport, ComparisonDifference } from './contracts';
import { tradesOfEvents } from './run-backtest';

/** A BUY or SELL signal the bot refused (BotSignalRefused's data). */
export interface PaperRefusal {
  signalId: string;
  symbol: string;
  signalType: 'BUY' | 'SELL';
  candleTime: string;
  decision: BotDecision;
  refusedAt: string;
}

export interface ComparePaperInput {
  backtestTrades: readonly BacktestTrade[];
  /** The user's portfolio events (its stream; those outside the period are ignored). */
  paperEvents: readonly PortfolioEvent[];
  /** The bot's refusals (BotSignalRefused) in the period. */
  refusals: readonly PaperRefusal[];
  /** The period, ms: [start, end). */
  startMs: number;
  endMs: number;
  /** The symbol backtested: the bot's trades of other coins are not differences. */
  symbol: string;
  /** The profile's stop is trailing (names its stop closes TRAILING_STOP, as the backtest does). */
  trailing: boolean;
}

const cents = (x: number) => Math.round(x * 100);
const usd = (x: number) => `$${x.toFixed(2)}`;

function describe(t: BacktestTrade): string {
  return `${t.side} ${t.amount} ${t.symbol} at ${usd(t.price)} (${t.reason.toLowerCase().replace(/_/g, ' ')}, ${t.time})`;
}

/** Whether two fills agree to the cent (see the module comment). */
export function sameFill(a: BacktestTrade, b: BacktestTrade): boolean {
  return (
    a.side === b.side &&
    a.reason === b.reason &&
    a.time === b.time &&
    a.amount === b.amount &&
    cents(a.amount * a.price) === cents(b.amount * b.price) &&
    cents(a.fee) === cents(b.fee) &&
    (a.pnl === null ? b.pnl === null : b.pnl !== null && cents(a.pnl) === cents(b.pnl))
  );
}

export function comparePaper(input: ComparePaperInput): ComparePaperReport {
  const within = (t: BacktestTrade) => {
    const ms = Date.parse(t.time);
    return ms >= input.startMs && ms < input.endMs;
  };
  const backtest = input.backtestTrades.filter((t) => t.reason !== 'END_OF_TEST' && within(t));
  const paper = tradesOfEvents(input.paperEvents, input.trailing).filter((t) => within(t) && t.symbol === input.symbol);
  const refusals = new Map(input.refusals.map((r) => [r.signalId, r]));

  const paperById = new Map(paper.map((t) => [t.tradeId, t]));
  const used = new Set<string>();
  const differences: ComparisonDifference[] = [];
  let matched = 0;
  const unmatched: BacktestTrade[] = [];
  for (const b of backtest) {
    const p = paperById.get(b.tradeId);
    if (p && !used.has(p.tradeId)) {
      used.add(p.tradeId);
      if (sameFill(b, p)) matched++;
      else differences.push(fillDifference(b, p));
    } else unmatched.push(b);
  }
  // What is left: by side, reason and fill time.
  for (const b of unmatched) {
    const p = paper.find((t) => !used.has(t.tradeId) && t.side === b.side && t.reason === b.reason && t.time === b.time);
    if (p) {
      used.add(p.tradeId);
      if (sameFill(b, p)) matched++;
      else differences.push(fillDifference(b, p));
      continue;
    }
    const refusal = b.signalId ? refusals.get(b.signalId) : undefined;
    if (refusal) {
      differences.push({ kind: 'refused-by-risk', backtestTrade: b, explanation: `The backtest ${describe(b)}; the bot refused the same ${refusal.signalType} signal at ${refusal.refusedAt} by its ${refusal.decision.rule} rule: ${refusal.decision.text}` });
    } else if (b.signalId) {
      differences.push({ kind: 'missing-in-paper', backtestTrade: b, explanation: `The backtest ${describe(b)} on signal ${b.signalId}; the bot has no trade and no refusal for it (it was not running, or its portfolio differed then: its cash or a position it held)` });
    } else {
      differences.push({ kind: 'missing-in-paper', backtestTrade: b, explanation: `The backtest closed a position (${describe(b)}) the bot did not hold then` });
    }
  }
  for (const p of paper) {
    if (used.has(p.tradeId)) continue;
    const why = p.reason !== 'SIGNAL' ? 'the bot closed a position the backtest did not hold' : p.signalId ? `the strategy gave no such signal (${p.signalId}) or the backtest's portfolio refused it` : 'a manual trade';
    differences.push({ kind: 'missing-in-backtest', paperTrade: p, explanation: `The bot ${describe(p)}; the backtest did not: ${why}` });
  }
  differences.sort((a, b) => (a.backtestTrade ?? a.paperTrade)!.time.localeCompare((b.backtestTrade ?? b.paperTrade)!.time));
  return {
    start: new Date(input.startMs).toISOString(),
    end: new Date(input.endMs).toISOString(),
    backtestTrades: backtest.length,
    paperTrades: paper.length,
    matched,
    differences,
    agree: differences.length === 0,
  };
}

function fillDifference(b: BacktestTrade, p: BacktestTrade): ComparisonDifference {
  const delay = p.execution.delayMs ?? 0;
  if (delay > 0 && p.time !== b.time) {
    return { kind: 'late-fill', backtestTrade: b, paperTrade: p, explanation: `The bot filled ${delay / 1000} s after its intended tick (${p.execution.intendedAt}): ${describe(p)} against the backtest's ${describe(b)}` };
  }
  const what: string[] = [];
  if (p.time !== b.time) what.push(`another tick (${p.time} against ${b.time})`);
  if (p.amount !== b.amount) what.push(`another amount (${p.amount} against ${b.amount}: the portfolio or the rules' figures differed)`);
  if (cents(p.price * p.amount) !== cents(b.price * b.amount)) what.push(`another price (${usd(p.price)} against ${usd(b.price)})`);
  if (cents(p.fee) !== cents(b.fee)) what.push(`another fee (${usd(p.fee)} against ${usd(b.fee)})`);
  if ((p.pnl === null) !== (b.pnl === null) || cents(p.pnl ?? 0) !== cents(b.pnl ?? 0)) what.push(`another P&L (${p.pnl === null ? 'none' : usd(p.pnl)} against ${b.pnl === null ? 'none' : usd(b.pnl)}: the lots sold differed)`);
  if (p.reason !== b.reason) what.push(`another reason (${p.reason} against ${b.reason})`);
  return { kind: 'different-fill', backtestTrade: b, paperTrade: p, explanation: `The same trade filled at ${what.join(', ') || 'another fill'}` };
}
