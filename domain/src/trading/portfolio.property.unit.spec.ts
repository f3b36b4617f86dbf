/**
 * Property: over any sequence of trades, stop/target closes, resets and price moves, the paper
 * balance never drifts from what the trades say, and the valuation adds up to the cent.
 *
 * fast-check generates the sequences (refused commands are part of them: buying beyond the cash,
 * selling more than held). After every command the spec checks against a ledger of its own, kept
 * from the events' quantities and prices only:
 * - every fill's notional is quantity x price and its fee 0.1 percent of that, to the micro-dollar;
 * - the cash is the starting cash minus every buy (with fee) plus every sale (less fee), exactly;
 * - the quantity held of each coin is what was bought minus what was sold, exactly;
 * - the cash never goes negative, no quantity is negative or zero-but-listed;
 * - cash + cost bases - realised P&L = starting cash (micro-dollars, exactly);
 * - valuePortfolio: totalValue = cash + sum of market values to the cent, totalPnl = realised +
 *   unrealised to the cent, and totalValue is within half a cent per figure of cash + quantity x price.
 *
 * And through the real read models (the projections' evolves and trading-read, issue 16): every
 * position's FIFO lots add up to it; the sum of the trades' `pnl` since the last reset equals the
 * portfolio's realised + unrealised P&L to the cent (and every trade's, the all-time realised of the
 * summary + unrealised), whatever was bought, partly or wholly sold, stopped out or reset, at
 * whatever prices; each open BUY's document holds what its lot holds; a BUY's entry price is its fill.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { DomainError } from '../shared/errors';
import { quantityToUnits, STARTING_CASH_MICROS, TRADE_FEE_RATE } from './money';
import type { PortfolioEvent, PortfolioState, Position } from './portfolio';
import { portfolioDecider, type PortfolioCommand } from './portfolio.decider';
import { valuePortfolio } from './portfolio-valuation';
import { portfolioResponse, tradeResponse, tradeSummary } from './trading-read';
import { closeTradeId, evolvePortfolioView, evolveTradeView, tradeViewId, tradeViewIds, type PortfolioView, type TradeView } from './trading-view';

const SYMBOLS = ['BTC', 'ETH', 'ADA'] as const;
type Sym = (typeof SYMBOLS)[number];
const START_PRICES: Record<Sym, number> = { BTC: 65000.12345, ETH: 3200.987654, ADA: 0.451237 };
const NOW = '2026-03-04T05:06:07.000Z';

type Step =
  | { kind: 'BUY'; symbol: Sym; share: number; overshoot: boolean }
  | { kind: 'SELL'; symbol: Sym; share: number; overshoot: boolean }
  | { kind: 'CLOSE'; symbol: Sym; reason: 'STOP_LOSS' | 'TAKE_PROFIT' }
  | { kind: 'RESET' }
  | { kind: 'MOVE'; symbol: Sym; factor: number };

const symbol = fc.constantFrom(...SYMBOLS);
// A share of what may be bought or sold; 1 often, so whole positions are sold too.
const share = fc.oneof(fc.double({ min: 0.0001, max: 1, noNaN: true }), fc.constant(1));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('BUY' as const), symbol, share, overshoot: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('SELL' as const), symbol, share, overshoot: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('CLOSE' as const), symbol, reason: fc.constantFrom('STOP_LOSS' as const, 'TAKE_PROFIT' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'RESET' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('MOVE' as const), symbol, factor: fc.double({ min: 0.5, max: 1.6, noNaN: true }) }) },
);

const cents = (usd: number) => Math.round(usd * 100);
const positionsOf = (state: PortfolioState): Position[] => (state.status === 'open' ? Object.values(state.positions).filter((p): p is Position => !!p) : []);

describe('portfolio property: no drift, valuation to the cent', function () {
  it('holds over random sequences of trades, closes, resets and price moves', function () {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 80 }), (steps) => {
        let state = portfolioDecider.initialState();
        const prices: Record<Sym, number> = { ...START_PRICES };
        // The spec's own ledger, from the events' quantities and prices.
        let ledgerCash = STARTING_CASH_MICROS;
        const ledgerUnits: Record<string, number> = {};
        // The read models, as the projector keeps them, and the trades placed since the last reset.
        let view: PortfolioView | null = null;
        const docs = new Map<string, TradeView>();
        const sinceReset = new Set<string>();
        let n = 0;
        for (const s of steps) {
          n += 1;
          const tradeId = `t${n}`;
          let command: PortfolioCommand | undefined;
          if (s.kind === 'MOVE') prices[s.symbol] = Math.max(0.0001, prices[s.symbol] * s.factor);
          else if (s.kind === 'RESET') command = { type: 'ResetPortfolio', data: { userId: 'u' }, metadata: { now: NOW } };
          else if (s.kind === 'CLOSE') {
            const held = state.status === 'open' ? state.positions[s.symbol] : undefined;
            if (held) command = { type: 'ClosePosition', data: { userId: 'u', positionId: held.positionId, symbol: s.symbol, reason: s.reason, price: prices[s.symbol] }, metadata: { now: NOW } };
          } else {
            const cash = state.status === 'open' ? state.cashMicros : STARTING_CASH_MICROS;
            const heldUnits = state.status === 'open' ? (state.positions[s.symbol]?.units ?? 0) : 0;
            // Mostly amounts that fit; overshoot asks for more than allowed, to exercise the refusals.
            const base = s.kind === 'BUY' ? cash / 1e6 / prices[s.symbol] : heldUnits / 1e8;
            const amount = Number((base * s.share * (s.overshoot ? 1.5 : 1)).toFixed(8));
            command = { type: 'PlaceSimulatedTrade', data: { userId: 'u', tradeId, symbol: s.symbol, side: s.kind, amount, price: prices[s.symbol], source: { kind: 'MANUAL' } }, metadata: { now: NOW } };
          }
          if (!command) continue;
          let events: PortfolioEvent[];
          try {
            events = portfolioDecider.decide(command, state);
          } catch (error) {
            expect(error).to.be.instanceOf(DomainError);
            continue;
          }
          for (const event of events) {
            if (event.type === 'SimulatedTradePlaced' || event.type === 'PositionClosed') {
              const d = event.data;
              const units = quantityToUnits(d.quantity);
              expect(Math.abs(d.notionalMicros - d.quantity * d.price * 1e6)).to.be.at.most(1);
              expect(Math.abs(d.feeMicros - d.notionalMicros * TRADE_FEE_RATE)).to.be.at.most(0.5);
              const buying = event.type === 'SimulatedTradePlaced' && event.data.side === 'BUY';
              ledgerCash += buying ? -(d.notionalMicros + d.feeMicros) : d.notionalMicros - d.feeMicros;
              ledgerUnits[d.symbol] = (ledgerUnits[d.symbol] ?? 0) + (buying ? units : -units);
            } else if (event.type === 'PortfolioReset') {
              ledgerCash = event.data.startingCashMicros;
              for (const key of Object.keys(ledgerUnits)) ledgerUnits[key] = 0;
              sinceReset.clear();
            }
            if (event.type === 'SimulatedTradePlaced') sinceReset.add(tradeViewId('u', event.data.tradeId));
            if (event.type === 'PositionClosed') sinceReset.add(tradeViewId('u', closeTradeId(event.data.positionId)));
            state = portfolioDecider.evolve(state, event);
            view = evolvePortfolioView(view, event);
            for (const id of tradeViewIds(event)) {
              const next = evolveTradeView(docs.get(id) ?? null, event);
              if (next) docs.set(id, next);
            }
          }

          if (state.status !== 'open') continue;
          expect(state.cashMicros, 'cash').to.equal(ledgerCash);
          expect(state.cashMicros).to.be.at.least(0);
          expect(Number.isSafeInteger(state.cashMicros)).to.equal(true);
          for (const sym of SYMBOLS) expect(state.positions[sym]?.units ?? 0, `${sym} held`).to.equal(ledgerUnits[sym] ?? 0);
          const held = positionsOf(state);
          for (const p of held) {
            expect(p.units).to.be.above(0);
            expect(p.costBasisMicros).to.be.at.least(0);
            // The FIFO lots, oldest first, add up to the position; each open BUY's document holds its lot.
            expect(p.lots.reduce((sum, l) => sum + l.units, 0), 'lot units').to.equal(p.units);
            expect(p.lots.reduce((sum, l) => sum + l.costMicros, 0), 'lot costs').to.equal(p.costBasisMicros);
            expect(p.lots.reduce((sum, l) => sum + l.entryNotionalMicros, 0), 'lot entry notionals').to.equal(p.entryNotionalMicros);
            expect(p.lots.map((l) => l.tradeId)).to.deep.equal(p.openTradeIds);
            for (const lot of p.lots) {
              expect(lot.units).to.be.above(0);
              const doc = docs.get(tradeViewId('u', lot.tradeId))!;
              expect(doc).to.deep.include({ status: 'OPEN', heldUnits: lot.units, heldCostMicros: lot.costMicros, entryPrice: lot.price });
            }
          }
          const bases = held.reduce((sum, p) => sum + p.costBasisMicros, 0);
          expect(state.cashMicros + bases - state.realisedPnlMicros).to.equal(state.startingCashMicros);

          const v = valuePortfolio(state, prices);
          expect(cents(v.totalValue)).to.equal(cents(v.cash) + v.positions.reduce((sum, p) => sum + cents(p.marketValue), 0));
          expect(cents(v.positionsValue)).to.equal(v.positions.reduce((sum, p) => sum + cents(p.marketValue), 0));
          expect(cents(v.totalPnl)).to.equal(cents(v.realisedPnl) + cents(v.unrealisedPnl));
          // totalValue - startingCash is the same amount rounded once rather than per trade and per lot:
          // at most half a cent apart per figure rounded (the cash, each closing trade, each lot).
          const closes = [...sinceReset].filter((id) => docs.get(id)?.type === 'SELL').length;
          const lots = held.reduce((sum, p) => sum + p.lots.length, 0);
          expect(Math.abs(cents(v.totalPnl) - (cents(v.totalValue) - cents(v.startingCash)))).to.be.at.most((1 + closes + lots) / 2);
          expect(v.cash).to.be.at.least(0);

          // Through the read models: the trades' pnl add up to the portfolio's realised + unrealised.
          const body = portfolioResponse({ view, prices, dayStartPrices: {}, latestPrice: { symbol: 'ETH', price: prices.ETH, change24h: null, changePercent24h: null }, signalCounts: { total: 0, buy: 0, sell: 0, hold: 0 }, demo: false, now: new Date(NOW) });
          expect([body.cash, body.totalValue, body.realisedPnl, body.unrealisedPnl, body.totalPnl]).to.deep.equal([v.cash, v.totalValue, v.realisedPnl, v.unrealisedPnl, v.totalPnl]);
          const shown = [...docs.entries()].map(([id, doc]) => ({ id, trade: tradeResponse(doc, prices) }));
          const pnlCents = (keep: (id: string) => boolean) => shown.filter((t) => keep(t.id)).reduce((sum, t) => sum + cents(t.trade.pnl ?? 0), 0);
          expect(pnlCents((id) => sinceReset.has(id)), 'pnl since the reset').to.equal(cents(body.realisedPnl) + cents(body.unrealisedPnl));
          expect(pnlCents(() => true), 'pnl of every trade').to.equal(cents(tradeSummary(view?.summary).totalPnl) + cents(body.unrealisedPnl));
          for (const { trade } of shown) {
            if (trade.type === 'BUY') expect(trade.entryPrice).to.equal(trade.price);
            if (trade.status === 'OPEN') expect(trade.pnl, 'an open BUY at a known price has a pnl').to.be.a('number');
          }
          // Each lot is valued to the cent on its own.
          const marked = state.cashMicros / 1e6 + held.reduce((sum, p) => sum + (p.units / 1e8) * prices[p.symbol as Sym], 0);
          expect(Math.abs(v.totalValue - marked)).to.be.at.most(0.005 * (lots + 1) + 1e-6);
        }
      }),
      // 300 sequences in every test run; the mutation run (stryker.config.mjs) asks for fewer, since it
      // repeats this spec for every mutant of the trading code.
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });
});
