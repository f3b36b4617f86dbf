/**
 * The risk monitor worker: on every market tick (`market.tick.*` on the bus) it finds the users
 * holding the ticked coin (one indexed query on the `open-positions` read model, `holds_{SYMBOL}`),
 * closes the positions whose stop loss or take profit the market crossed (each position by its exit
 * plan: the bot's by the user's risk profile, a manual one by the levels its person set, or not at
 * all), records a new peak of the portfolio's value (RecordPortfolioPeak, at most one per quarter
 * percent: maxDrawdown measures from it) and raises the risk alerts whose condition holds
 * (RaiseRiskAlert, one per condition key); the rules are domain/src/trading/risk-watch.ts and the
 * engine's exits (domain/src/trading/engine/exit-spec.ts, exit-scan.ts).
 *
 * The coin's market context comes from candles cached per candle (platform/src/market/market-history.ts):
 * the figures of now (ATR14, sigma20 for positions whose entry recorded none; the 24-hour range for the
 * volatility alert). The peak is the portfolio valued at the ticks' prices (the ticked coin at its
 * tick, the others at their last tick seen here): values between ticks, and ticks this monitor did not
 * see (standby, a restart), are not counted, so the drawdown may read a little low, never high.
 *
 * Stops (issue 17): the tick notice only wakes the monitor. For each position it scans the price path
 * (the market-data port's `ticks`, up to now) from the last tick it checked, or from the position's
 * opening fill when it has not checked it yet (a new position, a restarted or new monitor), to the
 * tick of now, and closes at the first tick at or beyond a level (domain/src/trading/engine:
 * exitSpecOf, scanExits, closeCommandFor): ClosePosition at that tick's price (the decider takes the
 * half spread and impact off) and time. A trailing stop's level follows the highest tick since the
 * entry along the same scan (the cursor keeps it), so it moves with every new high, the entry's own
 * first minute included. So the close is the same whichever notices arrived: a lost
 * notice or a restart misses nothing, and the paper engine finds the same close over the same path.
 * The cursor of each position (the last tick checked, the highest tick since the entry for a trailing
 * stop) is kept in memory; a monitor that starts afresh scans each position again from its opening
 * fill under the levels as they are now (a level changed since then is applied to the ticks before the
 * change too: the one thing a restart can change; a profile change reaches the levels of a bot
 * position at once, and a running monitor applies it from the ticks it has not checked yet). A source without ticks (CoinGecko) has only the
 * notices' live prices: each is checked on its own and a close fills at it.
 *
 * Alerts are decided on the write side's portfolio, not the read model's: a round that would raise
 * one loads the portfolio stream first, so a reset the read model has not applied yet does not
 * raise alerts for the positions it discarded (the reset resolves the standing ones, risk.ts). What
 * is left is a reset that lands between that load and the alert's append (a round trip or two): its
 * resolution may then come before the alert, which stands until acknowledged.
 *
 * Once: ClosePosition names the position (its opening trade's id), so a close issued again (the
 * read model not yet caught up, a restart) appends nothing; the risk decider raises a condition key
 * once until its alert is cleared, and the monitor does not even ask again while the key stands in
 * the read model or was issued in the last RECENT_MS. Ticks are notices (at most once): a lost tick
 * is made up by the next one, whose scan covers the ticks in between.
 *
 * A coin's ticks never overlap: while one is handled, only the newest next tick waits (older ones
 * are superseded), so a slow round cannot pile up work behind the feed.
 *
 * One monitor at a time: every workers process starts one, but only the holder of the lease
 * `worker:risk-monitor` (platform/src/projections/lease.ts, like a projection's or a process
 * manager's) follows the ticks; the others try again every LEASE_RETRY_MS and take over when it is
 * released (a stop) or freed (a crashed holder's connection ends, a Mongo lease expires). Two
 * monitors would issue every close and alert twice: the deciders keep the events single, but the
 * second command only costs a conflict and a reload.
 */
import { findCoinById, type CoinId, type CoinSymbol } from '@papertrade/domain/market/coins';
import { MARKET_TICK_SUBJECTS, marketTickSchema, type MarketTick } from '@papertrade/domain/market/contracts';
import { OPEN_POSITIONS_PROJECTION, holdsField, type OpenPositionsView } from '@papertrade/domain/trading/open-positions-view';
import { evolvePortfolio, portfolioStreamId, type PortfolioEvent, type Position } from '@papertrade/domain/trading/portfolio';
import { PEAK_STEP, portfolioDecider, type ClosePosition } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider, type RaiseRiskAlert } from '@papertrade/domain/trading/risk.decider';
import { alertsRaised, peakToRecord, type CoinContext, type TickRange } from '@papertrade/domain/trading/risk-watch';
import { profileOfView } from '@papertrade/domain/trading/open-positions-view';
import { exitAtPrice, newExitHit, scanExits, type ExitCursor } from '@papertrade/domain/trading/engine/exit-scan';
import { closeCommandFor, cursorAtOpening, exitSpecOf } from '@papertrade/domain/trading/engine/exit-spec';
import { typicalMinuteVolumeUsd } from '@papertrade/domain/trading/engine/fills';
import { quoteAt } from '@papertrade/domain/trading/engine/price-ticks';
import { MarketHistory } from '@papertrade/platform/market/market-history';
import type { Bus } from '@papertrade/platform/bus/bus';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Logger } from '@papertrade/platform/config/logger';
import type { MarketData } from '@papertrade/platform/market/market-data';
import type { Lease, LeaseProvider } from '@papertrade/platform/projections/lease';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { forEachLimited } from './concurrency';

export const RISK_MONITOR_ACTOR = 'risk-monitor';
/** How long a command issued is not issued again, while the read model catches up. */
export const RECENT_MS = 60_000;
/** The lease only one monitor holds at a time. */
export const RISK_MONITOR_LEASE = 'worker:risk-monitor';
/** How often a monitor without the lease tries to take it. */
export const LEASE_RETRY_MS = 2000;

export interface RiskMonitorDeps {
  bus: Bus;
  readModels: ReadModels;
  leases: LeaseProvider;
  handler: CommandHandler;
  /** The price path up to now (`ticks`; null for a source without ticks), and the candles of the coins' figures. */
  marketData: Pick<MarketData, 'ticks' | 'candles'>;
  clock: () => Date;
  logger: Logger;
  concurrency?: number;
  /** Default LEASE_RETRY_MS (tests shorten it). */
  leaseRetryMs?: number;
}

export interface RiskMonitorStatus {
  name: 'risk-monitor';
  /** Started (in this process). */
  running: boolean;
  /** Holds the lease and follows the ticks; a started monitor without it is on standby. */
  leading: boolean;
  ticks: number;
  usersChecked: number;
  positionsClosed: number;
  peaksRecorded: number;
  alertsRaised: number;
  failures: number;
  lastTickAt: string | null;
  lastError: string | null;
}

export class RiskMonitor {
  private running = false;
  private lease: Lease | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly prices: Partial<Record<CoinSymbol, number>> = {};
  /** Per coin: the tick in hand and the newest one waiting. */
  private readonly lanes = new Map<string, { busy: Promise<void>; next: MarketTick | null }>();
  /** Per position: its coin and how far its exits have been scanned. */
  private readonly cursors = new Map<string, { coinId: CoinId; cursor: ExitCursor }>();
  /** The scan's answer, reused (the scan is synchronous: read before any await). */
  private readonly hit = newExitHit();
  /** Commands issued recently (`user|key` -> when), not issued again while the read model catches up. */
  private readonly recent = new Map<string, number>();
  private ticks = 0;
  private usersChecked = 0;
  private positionsClosed = 0;
  private peaks = 0;
  /**
   * Per user, the last peak value issued (micros) and when, so a rising value is not issued on every
   * tick while the read model catches up (forgotten after RECENT_MS: a reset starts the peak over).
   */
  private readonly peakIssued = new Map<string, { valueMicros: number; at: number }>();
  private readonly history: MarketHistory;
  private alerts = 0;
  private failures = 0;
  private lastTickAt: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly deps: RiskMonitorDeps) {
    this.history = new MarketHistory(deps.marketData, deps.clock);
  }

  /** Takes the lease and follows the ticks, or stands by (trying again every LEASE_RETRY_MS) while another monitor holds it. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.tryLead();
  }

  private async tryLead(): Promise<void> {
    if (!this.running) return;
    try {
      this.lease ??= await this.deps.leases.tryAcquire(RISK_MONITOR_LEASE);
    } catch (error) {
      this.deps.logger.warn('risk monitor lease failed', { error: String(error) });
    }
    // Stopped while the lease was being taken: give it back.
    if (!this.running) return this.releaseLease();
    if (!this.lease) {
      this.retryTimer = setTimeout(() => void this.tryLead(), this.deps.leaseRetryMs ?? LEASE_RETRY_MS);
      this.retryTimer.unref();
      return;
    }
    try {
      const unsubscribe = await this.deps.bus.subscribe(MARKET_TICK_SUBJECTS, (_subject, payload) => {
        const parsed = marketTickSchema.safeParse(payload);
        if (parsed.success) this.enqueue(parsed.data);
      });
      if (!this.running) {
        unsubscribe();
        return this.releaseLease();
      }
      this.unsubscribe = unsubscribe;
      this.deps.logger.info('risk monitor following the ticks');
    } catch (error) {
      // Without the subscription the lease would only keep another monitor out.
      this.failed(error);
      await this.releaseLease();
      this.retryTimer = setTimeout(() => void this.tryLead(), this.deps.leaseRetryMs ?? LEASE_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async releaseLease(): Promise<void> {
    const lease = this.lease;
    this.lease = null;
    await lease?.release();
  }

  /** Stops following, finishes the ticks in hand, then releases the lease (a standby monitor takes over). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.idle();
    await this.releaseLease();
  }

  /** Resolves when no tick is in hand or waiting (tests). */
  async idle(): Promise<void> {
    while ([...this.lanes.values()].length > 0) await Promise.all([...this.lanes.values()].map((l) => l.busy));
  }

  status(): RiskMonitorStatus {
    return {
      name: 'risk-monitor',
      running: this.running,
      leading: this.unsubscribe !== undefined,
      ticks: this.ticks,
      usersChecked: this.usersChecked,
      positionsClosed: this.positionsClosed,
      peaksRecorded: this.peaks,
      alertsRaised: this.alerts,
      failures: this.failures,
      lastTickAt: this.lastTickAt,
      lastError: this.lastError,
    };
  }

  private enqueue(tick: MarketTick): void {
    const lane = this.lanes.get(tick.coinId);
    if (lane) {
      lane.next = tick;
      return;
    }
    const entry: { busy: Promise<void>; next: MarketTick | null } = { busy: Promise.resolve(), next: null };
    const run = async (first: MarketTick) => {
      let current: MarketTick | null = first;
      while (current) {
        await this.onTick(current);
        current = entry.next;
        entry.next = null;
      }
      this.lanes.delete(tick.coinId);
    };
    entry.busy = run(tick);
    this.lanes.set(tick.coinId, entry);
  }

  /** Closes what the tick stopped out and raises what it breached, for every holder of its coin. */
  async onTick(tick: MarketTick): Promise<void> {
    this.ticks += 1;
    this.lastTickAt = tick.at;
    const coin = findCoinById(tick.coinId);
    if (!coin) return;
    this.prices[coin.symbol] = tick.price;
    try {
      const collection = await this.deps.readModels.collection<OpenPositionsView>(OPEN_POSITIONS_PROJECTION);
      const holders = await collection.find({ where: { [holdsField(coin.symbol)]: true } });
      if (holders.length === 0) return;
      const range: TickRange = { symbol: coin.symbol, price: tick.price, at: tick.at };
      this.forgetOld();
      const coinContext = await this.history.coinContext(coin.id);
      const ticks = this.deps.marketData.ticks;
      // Every position of the coin is scanned to the same tick: the tick of now.
      const toTick = ticks ? ticks.lastTick() : -1;
      const held = new Set<string>();
      const failures = await forEachLimited(holders, this.deps.concurrency ?? 16, (view) => this.watch(view, range, coinContext, coin.id, toTick, held));
      for (const error of failures) this.failed(error);
      for (const [positionId, entry] of this.cursors) if (entry.coinId === coin.id && !held.has(positionId)) this.cursors.delete(positionId);
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    this.failures += 1;
    this.lastError = error instanceof Error ? error.message : String(error);
    this.deps.logger.warn('risk monitor round failed; the next tick tries again', { error: this.lastError });
  }

  /**
   * The close of `position` if the market crossed one of its levels since the last check: the first
   * tick at or beyond it up to `toTick` on the path, or the notice's own price for a source without
   * ticks. Null (and the cursor moved on) when none.
   */
  private exitOf(view: OpenPositionsView, position: Position, coin: CoinContext, coinId: CoinId, range: TickRange, toTick: number): ClosePosition | null {
    const spec = exitSpecOf(position, profileOfView(view), coin.atr, coin.sigma);
    if (!spec) return null; // no automatic exit: nothing to scan
    let entry = this.cursors.get(position.positionId);
    if (!entry) {
      entry = { coinId, cursor: cursorAtOpening(position) };
      this.cursors.set(position.positionId, entry);
    }
    const ticks = this.deps.marketData.ticks;
    if (ticks) {
      if (!scanExits(ticks, coinId, spec, entry.cursor, toTick, this.hit)) return null;
      return closeCommandFor(view.userId, position, this.hit, quoteAt(ticks, coinId, this.hit.tick).minuteVolumeUsd);
    }
    if (Date.parse(range.at) <= Date.parse(position.openedAt) || !exitAtPrice(spec, entry.cursor, range.price, this.hit)) return null;
    return closeCommandFor(view.userId, position, this.hit, typicalMinuteVolumeUsd(coinId), Date.parse(range.at));
  }

  private issuedRecently(key: string): boolean {
    const at = this.recent.get(key);
    return at !== undefined && this.deps.clock().getTime() - at < RECENT_MS;
  }

  private forgetOld(): void {
    const now = this.deps.clock().getTime();
    for (const [key, at] of this.recent) if (now - at >= RECENT_MS) this.recent.delete(key);
    for (const [userId, issued] of this.peakIssued) if (now - issued.at >= RECENT_MS) this.peakIssued.delete(userId);
  }

  private async watch(view: OpenPositionsView, range: TickRange, coin: CoinContext, coinId: CoinId, toTick: number, held: Set<string>): Promise<void> {
    this.usersChecked += 1;
    const { handler } = this.deps;
    let portfolio = view.portfolio;
    const position = portfolio.status === 'open' ? portfolio.positions[range.symbol] : undefined;
    if (position) held.add(position.positionId);
    const close = position ? this.exitOf(view, position, coin, coinId, range, toTick) : null;
    const closeKey = close ? `${view.userId}|close|${close.data.positionId}` : '';
    if (close && !this.issuedRecently(closeKey)) {
      this.recent.set(closeKey, this.deps.clock().getTime());
      const result = await handler.handle(portfolioDecider, portfolioStreamId(view.userId), close, {
        actor: RISK_MONITOR_ACTOR,
        correlationId: close.data.positionId,
      });
      this.positionsClosed += result.events.filter((e) => e.type === 'PositionClosed').length;
      // The alerts below see the portfolio after the close (a stop that realised a loss may breach the daily limit).
      for (const event of result.events) portfolio = evolvePortfolio(portfolio, event as PortfolioEvent);
    }
    const peak = peakToRecord({ ...view, portfolio }, range, this.prices);
    const issued = this.peakIssued.get(view.userId);
    const nowMs = this.deps.clock().getTime();
    if (peak && (issued === undefined || nowMs - issued.at >= RECENT_MS || peak.data.valueMicros >= issued.valueMicros * (1 + PEAK_STEP))) {
      this.peakIssued.set(view.userId, { valueMicros: peak.data.valueMicros, at: nowMs });
      const result = await handler.handle(portfolioDecider, portfolioStreamId(view.userId), peak, { actor: RISK_MONITOR_ACTOR, correlationId: `${view.userId}:peak` });
      this.peaks += result.events.length;
      for (const event of result.events) portfolio = evolvePortfolio(portfolio, event as PortfolioEvent);
    }
    const alertKey = (alert: RaiseRiskAlert) => `${view.userId}|alert|${alert.data.conditionKey}`;
    let raised = alertsRaised({ ...view, portfolio }, range, this.prices, coin).filter((a) => !this.issuedRecently(alertKey(a)));
    if (raised.length > 0) {
      // The read model may not have the user's newest portfolio yet: an alert about positions a reset
      // has just discarded would come after the reset resolved the alerts, and stand for positions that
      // are gone. Alerts are rare (once per condition), so a round that would raise one asks the write
      // side for the portfolio (snapshot + tail) and raises what holds there.
      const current = await handler.load(portfolioDecider, portfolioStreamId(view.userId));
      raised = alertsRaised({ ...view, portfolio: current.state }, range, this.prices, coin).filter((a) => !this.issuedRecently(alertKey(a)));
    }
    for (const alert of raised) {
      const key = alertKey(alert);
      this.recent.set(key, this.deps.clock().getTime());
      const result = await handler.handle(riskDecider, riskStreamId(view.userId), alert, { actor: RISK_MONITOR_ACTOR, correlationId: alert.data.alertId });
      this.alerts += result.events.length;
    }
  }
}
