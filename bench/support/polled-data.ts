/**
 * Realistic data for the reads a signed-in dashboard polls (bench/query.bench.ts): per user an
 * account, a paper portfolio with some dozens of trades over the last days and a few positions still
 * open (some held since before today, so the daily P&L needs the day's opening prices), a risk stream
 * with changed bot settings and some alerts (one acknowledged), and for some users Premium; per coin
 * the signals of the last day.
 *
 * Every event comes from the domain's deciders, folded in memory (the same decide and evolve the
 * command handler runs), so the data keeps the shape the code writes whatever the accounting becomes;
 * only the appends are batched (`appendMany`, one statement for many users) since the bench is about
 * the read path. Prices are the market-data port's candle closes at each trade's time.
 */
import { randomUUID } from 'node:crypto';
import { userStreamId } from '@papertrade/domain/auth/user';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { coins, type Candle, type Coin } from '@papertrade/domain/market/coins';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { signalDecider, type EvaluateSignal } from '@papertrade/domain/signals/signal.decider';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { closedCandles, readingsOfLastCandle } from '@papertrade/domain/signals/readings';
import { SIGNAL_HISTORY_DAYS } from '@papertrade/domain/signals/contracts';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { riskDecider, type RiskCommand } from '@papertrade/domain/trading/risk.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import type { EventStore, NewEvent, StreamAppend } from '@papertrade/platform/event-store/event-store';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { signalIdFor } from '@papertrade/workers/signal-engine';

/** Trades per user: 13 round trips (a buy, then a sell of all of it) and 4 buys still open on 3 coins. */
export const TRADES_PER_USER = 30;
/** Alerts raised per user, the first of them acknowledged. */
export const ALERTS_PER_USER = 4;
/** Users whose streams go in one appendMany. */
const USERS_PER_APPEND = 100;
/** How far back the trades go. */
const HISTORY_DAYS = 10;
const HOUR_MS = 3_600_000;

/** One coin's hourly closes over the last HISTORY_DAYS days, from the port (what the trades fill at). */
export type PriceBook = Map<string, Candle[]>;

export async function priceBook(marketData: MarketData): Promise<PriceBook> {
  const book: PriceBook = new Map();
  for (const coin of coins) book.set(coin.symbol, (await marketData.candles(coin.id, HISTORY_DAYS)).candles);
  return book;
}

/** The price of `symbol` at the last candle at or before `atMs`. */
function priceAt(book: PriceBook, symbol: string, atMs: number): number {
  const candles = book.get(symbol)!;
  let price = candles[0]!.close;
  for (const c of candles) {
    if (c.time > atMs) break;
    price = c.close;
  }
  return price;
}

/** Folds `commands` through `decider` from its initial state: the events they append, in order. */
function decideAll<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, commands: C[]): E[] {
  let state = decider.initialState();
  const out: E[] = [];
  for (const command of commands) {
    const events = decider.decide(command, state);
    for (const event of events) state = decider.evolve(state, event);
    out.push(...events);
  }
  return out;
}

function toNew(actor: string, schemaVersion: number, at: (event: DomainEvent, i: number) => string) {
  return (event: DomainEvent, i: number): NewEvent => {
    const correlationId = randomUUID();
    return { id: randomUUID(), type: event.type, data: event.data, metadata: { userId: actor, correlationId, causationId: correlationId, at: at(event, i), schemaVersion } };
  };
}

/** The commands of user number `n`'s trading history ending before `nowMs`: deterministic per n. */
function tradeCommands(userId: string, n: number, book: PriceBook, nowMs: number): Array<{ command: PortfolioCommand; at: string }> {
  const out: Array<{ command: PortfolioCommand; at: string }> = [];
  const start = nowMs - HISTORY_DAYS * 24 * HOUR_MS + HOUR_MS;
  // 30 trades spread over the days, the last ones some hours before now (still today for most runs).
  const step = Math.floor((nowMs - 2 * HOUR_MS - start) / TRADES_PER_USER);
  let t = start + (n % 7) * 60_000;
  const place = (symbol: string, side: 'BUY' | 'SELL', amount: number) => {
    const at = new Date(t).toISOString();
    out.push({
      at,
      command: {
        type: 'PlaceSimulatedTrade',
        data: { userId, tradeId: randomUUID(), symbol, side, amount, price: priceAt(book, symbol, t), source: { kind: 'MANUAL' } },
        metadata: { now: at },
      },
    });
    t += step;
  };
  // About $400-$900 a trade, in whole 1/10,000 units of the coin.
  const amountFor = (symbol: string, k: number) => Math.max(0.0001, Math.round(((400 + ((n * 37 + k * 101) % 500)) / priceAt(book, symbol, t)) * 10_000) / 10_000);
  for (let k = 0; k < 13; k++) {
    const coin = coins[(n + k) % coins.length]!;
    const amount = amountFor(coin.symbol, k);
    place(coin.symbol, 'BUY', amount);
    place(coin.symbol, 'SELL', amount);
  }
  // Open at the end: three coins, the first bought twice (two lots of one position).
  const open = [coins[(n + 3) % coins.length]!, coins[(n + 5) % coins.length]!, coins[(n + 8) % coins.length]!, coins[(n + 3) % coins.length]!];
  open.forEach((coin, k) => place(coin.symbol, 'BUY', amountFor(coin.symbol, 20 + k)));
  return out;
}

function riskCommands(userId: string, n: number, nowMs: number): Array<{ command: RiskCommand; at: string }> {
  const at = (hoursAgo: number) => new Date(nowMs - hoursAgo * HOUR_MS).toISOString();
  const commands: Array<{ command: RiskCommand; at: string }> = [
    { at: at(200), command: { type: 'ChangeBotSettings', data: { userId, changes: { maxPositionSize: 8, stopLossPercent: 4, takeProfitPercent: 9 } }, metadata: { now: at(200) } } },
  ];
  const kinds = ['POSITION_SIZE', 'DAILY_LOSS', 'VOLATILITY', 'CONCURRENT_TRADES'] as const;
  for (let k = 0; k < ALERTS_PER_USER; k++) {
    const when = at(40 - k * 8);
    commands.push({
      at: when,
      command: {
        type: 'RaiseRiskAlert',
        data: {
          userId,
          alertId: `bench-${n}-${k}`,
          conditionKey: `bench-${k}`,
          kind: kinds[k % kinds.length]!,
          severity: k % 2 === 0 ? 'medium' : 'high',
          symbol: k % 2 === 0 ? coins[(n + k) % coins.length]!.symbol : null,
          message: `Bench alert ${k + 1} of user ${n}`,
          value: 6 + k,
          threshold: 5,
        },
        metadata: { now: when },
      },
    });
  }
  commands.push({ at: at(2), command: { type: 'AcknowledgeRiskAlert', data: { userId, alertId: `bench-${n}-0` }, metadata: { now: at(2) } } });
  return commands;
}

/**
 * Seeds users `from` .. `from + count - 1`: registration, portfolio, risk, and Premium for those
 * `premium(n)` names. Returns their ids in order.
 */
export async function seedPolledUsers(
  eventStore: EventStore,
  book: PriceBook,
  options: { from: number; count: number; premium: (n: number) => boolean; nowMs: number },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < options.count; i += USERS_PER_APPEND) {
    const appends: StreamAppend[] = [];
    // Premium after the accounts, in a later statement: the users read model applies a tier change
    // only to an account it has (one appendMany does not promise the order of its streams).
    const later: StreamAppend[] = [];
    for (let j = i; j < Math.min(options.count, i + USERS_PER_APPEND); j++) {
      const n = options.from + j;
      const userId = randomUUID();
      ids.push(userId);
      const registeredAt = new Date(options.nowMs - (HISTORY_DAYS + 1) * 24 * HOUR_MS).toISOString();
      const registered: DomainEvent = {
        type: 'UserRegistered',
        // Not a real scrypt hash: nobody signs in with these users (tokens are issued directly).
        data: { userId, email: `bench-${n}@example.com`, username: `bench_${n}`, firstName: null, lastName: null, passwordHash: 'bench', registeredAt },
      };
      appends.push({ streamId: userStreamId(userId), events: [registered].map(toNew(userId, 1, () => registeredAt)), expected: 'no_stream' });

      const trades = tradeCommands(userId, n, book, options.nowMs);
      const portfolioEvents = decideAll(portfolioDecider, trades.map((t) => t.command));
      // A first trade also opens the portfolio (two events, one time): each event takes its command's time.
      const portfolioTimes = eventTimes(portfolioEvents, trades.map((t) => t.at));
      appends.push({ streamId: portfolioStreamId(userId), events: portfolioEvents.map(toNew(userId, portfolioDecider.schemaVersion, (_e, k) => portfolioTimes[k]!)), expected: 'no_stream' });

      const risk = riskCommands(userId, n, options.nowMs);
      const riskEvents = decideAll(riskDecider, risk.map((r) => r.command));
      const riskTimes = risk.map((r) => r.at);
      appends.push({ streamId: riskStreamId(userId), events: riskEvents.map(toNew(userId, riskDecider.schemaVersion, (_e, k) => riskTimes[k] ?? riskTimes.at(-1)!)), expected: 'no_stream' });

      if (options.premium(n)) {
        const now = new Date(options.nowMs - 12 * 24 * HOUR_MS).toISOString();
        const events = decideAll(subscriptionDecider, [{ type: 'ChangeSubscriptionByAdmin', data: { userId, tier: 'PREMIUM', adminId: 'bench' }, metadata: { now } }]);
        later.push({ streamId: subscriptionStreamId(userId), events: events.map(toNew('bench-admin', subscriptionDecider.schemaVersion, () => now)), expected: 'no_stream' });
      }
    }
    for (const batch of [appends, later]) {
      const results = batch.length > 0 ? await eventStore.appendMany(batch) : [];
      const failed = results.find((r) => r instanceof Error);
      if (failed) throw failed;
    }
  }
  return ids;
}

/** The time of each event: its command's, where one command appended more than one event (the opening). */
function eventTimes(events: DomainEvent[], commandTimes: string[]): string[] {
  const times: string[] = [];
  let c = -1;
  for (const event of events) {
    if (event.type !== 'PortfolioOpened') c++;
    times.push(commandTimes[Math.max(0, c === -1 ? 0 : c)]!);
  }
  return times;
}

/**
 * The signals of the last day for every coin, as the signal engine would have appended them: each
 * closed SIGNAL_CANDLE_MINUTES candle evaluated over the candles before it, a signal only when the
 * evidence changed (the decider's rule). Returns how many were appended.
 */
export async function seedSignals(eventStore: EventStore, marketData: MarketData, nowMs: number): Promise<number> {
  let total = 0;
  const appends: StreamAppend[] = [];
  for (const coin of coins) {
    const events = await signalsOf(coin, marketData, nowMs);
    total += events.length;
    if (events.length > 0) appends.push({ streamId: signalsStreamId(coin.symbol), events, expected: 'any' });
  }
  const results = await eventStore.appendMany(appends);
  const failed = results.find((r) => r instanceof Error);
  if (failed) throw failed;
  return total;
}

async function signalsOf(coin: Coin, marketData: MarketData, nowMs: number): Promise<NewEvent[]> {
  const series = await marketData.candles(coin.id, SIGNAL_HISTORY_DAYS);
  const candles = closedCandles(series.candles, series.interval.minutes, nowMs);
  const commands: EvaluateSignal[] = [];
  // From the 60th candle on, so the slower indicators (sma50) have their history.
  for (let end = 60; end <= candles.length; end++) {
    const last = readingsOfLastCandle(candles.slice(0, end));
    if (!last) continue;
    const candleTime = new Date(last.candle.time).toISOString();
    commands.push({ type: 'EvaluateSignal', data: { signalId: signalIdFor(coin.symbol, candleTime), symbol: coin.symbol, candleTime, readings: last.readings } });
  }
  const events: DomainEvent[] = decideAll(signalDecider, commands);
  return events.map(toNew('signal-engine', signalDecider.schemaVersion, (e) => String((e.data as { candleTime: string }).candleTime)));
}
