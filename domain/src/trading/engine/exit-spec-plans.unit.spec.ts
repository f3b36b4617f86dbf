/**
 * A position's exit levels by its plan, at the edges the profile must not reach: a manual position's
 * own levels never trail, even under a trailing profile; a manual position with a target only is
 * still scanned for it; and a crossing is closed only for a coin of the catalogue.
 */
import { expect } from 'chai';
import { tickAt } from '../../market/market-path';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../contracts';
import type { PortfolioState, Position } from '../portfolio';
import { portfolioDecider, type ExitRequest } from '../portfolio.decider';
import { STOP_LOSS } from './exit-scan';
import { closeCommandFor, exitSpecOf } from './exit-spec';

const OPENED = '2026-01-05T10:00:07.000Z';
const trailing: RiskProfile = { ...DEFAULT_RISK_PROFILE, stopLossType: 'trailing', stopLossValue: 3 };

/** 0.25 ETH bought by hand at 2,000 with the exits asked. */
function manualPosition(exits: ExitRequest): Position {
  let state: PortfolioState = portfolioDecider.initialState();
  const command = { type: 'PlaceSimulatedTrade' as const, data: { userId: 'u1', tradeId: 't1', symbol: 'ETH', side: 'BUY' as const, amount: 0.25, price: 2000, source: { kind: 'MANUAL' as const }, exits }, metadata: { now: OPENED } };
  for (const e of portfolioDecider.decide(command, state)) state = portfolioDecider.evolve(state, e);
  if (state.status !== 'open') throw new Error('not open');
  return state.positions.ETH!;
}

describe('engine: exit levels of manual positions, and closes of unknown coins', function () {
  it('a manual position keeps its own fixed stop under a trailing profile: it never trails', function () {
    expect(exitSpecOf(manualPosition({ kind: 'MANUAL', stopLossPercent: 10, takeProfitPercent: 20 }), trailing)).to.deep.equal({ stopLoss: 1800, trail: 0, entry: 2000, takeProfit: 2400 });
  });

  it('a manual position with a target and no stop is scanned for its target', function () {
    expect(exitSpecOf(manualPosition({ kind: 'MANUAL', stopLossPercent: null, takeProfitPercent: 15 }), DEFAULT_RISK_PROFILE)).to.deep.equal({ stopLoss: Number.NEGATIVE_INFINITY, trail: 0, entry: 2000, takeProfit: 2300 });
  });

  it('refuses to close a position in a coin outside the catalogue, naming it', function () {
    const hit = { tick: tickAt(Date.parse(OPENED)) + 10, price: 1, reason: STOP_LOSS, level: 2 } as const;
    expect(() => closeCommandFor('u1', { positionId: 't1', symbol: 'DOGE' as Position['symbol'] }, hit, 1e6)).to.throw(RangeError, 'no coin DOGE');
  });
});
