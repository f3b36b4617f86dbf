import type { Logger } from '@papertrade/platform/config/logger';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { TokenService } from '@papertrade/platform/auth/tokens';
import type { HeadPort } from '@papertrade/platform/http/min-position';
import type { OwnWrites } from '@papertrade/platform/http/own-writes';
import type { MarketData } from '@papertrade/platform/market/market-data';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import type { ApiCallCounter } from '@papertrade/platform/auth/api-call-counter';
import type { ReadModelCache } from '@papertrade/platform/projections/read-model-cache';
import type { ChatModel } from '@papertrade/platform/assistant/chat-model';
import type { ChatLimit } from './assistant/chat-limit';
import type { BacktestRun } from '@papertrade/domain/backtest/contracts';
import type { BacktestConfig } from '@papertrade/domain/backtest/run-backtest';
import type { RiskProfile } from '@papertrade/domain/trading/contracts';

/** Runs one backtest for the assistant's what-ifs, off the request's event loop (a worker thread). */
export type WhatIfRunner = (run: { config: BacktestConfig; profile: RiskProfile; userId: string }) => Promise<BacktestRun>;

export interface QueryApiDeps {
  readModels: ReadModels;
  /**
   * The polled reads (portfolio, trades, risk, signals) kept per process, dropped by change notices
   * and checked against X-Min-Position and the caller's own writes (one per process, listening).
   */
  readCache: ReadModelCache;
  /** The event store's head (cached), to refuse an X-Min-Position no projection will reach. */
  head: HeadPort;
  /** Read-your-own-writes without X-Min-Position for the user-scoped routes (one per process). */
  ownWrites: OwnWrites;
  tokens: TokenService;
  logger: Logger;
  clock: () => Date;
  /**
   * Prices and candles (simulated or CoinGecko): one per process, since it caches what it computes or
   * fetches; the simulated market's answers kept for the minute they hold (cached-market-data.ts).
   */
  marketData: MarketData;
  trustProxy: boolean;
  /** Read-only access to the event streams, for the audit routes only (src/audit): every other route reads read models. */
  events: Pick<EventStore, 'readStreamPage'>;
  /**
   * This month's API calls per user, read from the store command-api counts them in (the same
   * instance in the embedded process, whose store is memory; the shared table or collection
   * otherwise), for GET /api/subscription's usage.apiCalls.
   */
  apiCalls: Pick<ApiCallCounter, 'used'>;
  /** The AI chat (POST /api/ai-chat): the grounded assistant, or an OpenAI-compatible endpoint when CHAT_API_URL is set. */
  chat: ChatModel;
  /** Questions per user and window, counted where every instance sees them. */
  chatLimit: ChatLimit;
  /** The assistant's what-if runner: absent where the market is not the simulated one (the backtester replays its path). */
  whatIf?: WhatIfRunner;
}
