/**
 * CoinGecko behind the market-data port (production, DESIGN.md section 4). Three endpoints of the
 * public API v3, every answer checked with zod before use:
 * - `GET /coins/markets?vs_currency=usd&ids=...`: price, 24-hour change and volume of all ten coins
 *   in one call;
 * - `GET /coins/{id}/ohlc?vs_currency=usd&days=N`: candles `[closeTimeMs, open, high, low, close]`
 *   whose width CoinGecko picks (1-2 days: 30 minutes, 3-30 days: 4 hours, more: 4 days) and which
 *   carry no volume; `days` must be one of 1, 7, 14, 30, 90, 180, 365;
 * - `GET /coins/{id}/market_chart?vs_currency=usd&days=N`: `{ prices, market_caps, total_volumes }`,
 *   each `[timeMs, value]` (1 day: 5-minutely, 2-90 days: hourly, more: daily).
 *
 * Rate limits assumed (docs.coingecko.com, "Errors & Rate Limits"): the keyless public API limits by
 * IP address, shared with everyone behind it and varying with CoinGecko's traffic; the Demo plan
 * documents 30 calls a minute (100 in newer docs). So this adapter spends at most `requestsPerMinute`
 * (default 10) calls a minute from a token bucket, and caches each answer for about as long as
 * CoinGecko itself caches it: markets 60 s (CoinGecko refreshes them every 45-60 s), OHLC 15 minutes
 * (its documented update frequency), market charts 60 s for one day, 30 minutes up to 90 days, 12
 * hours beyond. Requested ranges are rounded up to the OHLC endpoint's allowed `days` and trimmed
 * after, so ten coins times seven ranges bound both the cache and the calls. A 429 stops all calls
 * until its Retry-After (60 s when absent) has passed. When CoinGecko cannot answer, a recent enough
 * cached answer is served (markets up to 10 minutes old, charts up to 6 hours, long charts 2 days);
 * otherwise MarketDataUnavailableError (503 with Retry-After). Identical concurrent requests share
 * one call.
 *
 * Caveats: candle volume is an estimate, since the OHLC endpoint has none: CoinGecko's rolling 24-hour
 * volume at the candle's close (from the market chart) times the candle's share of a day. Ranges under
 * a day are drawn from the 1-day OHLC (30-minute candles), so a 1-hour chart has two candles. The
 * catalogue's `polygon` is CoinGecko's `matic-network` (MATIC, since migrated to POL).
 *
 * Trading (issue 17): CoinGecko has no price path, so `ticks` is null (the risk monitor checks the
 * feed's live prices) and `quotesAt` answers the live prices of `prices()` whatever the time asked,
 * each with the time CoinGecko observed it (the trade records it), and a minute's volume of the
 * 24-hour volume / 1440 (the catalogue's typical volume when CoinGecko gives none).
 */
import { z } from 'zod';
import { coins, findCoinById, type Candle, type CoinId, type PricePoint } from '@papertrade/domain/market/coins';
import {
  intervalLabel,
  MarketDataUnavailableError,
  requireCoinId,
  requireDays,
  type CandleSeries,
  type CoinPrice,
  type MarketData,
  type MarketDataFailure,
  type OrderQuote,
} from './market-data';
import { typicalMinuteVolumeUsd } from '@papertrade/domain/trading/engine/fills';

export interface CoinGeckoOptions {
  /** API root, e.g. https://api.coingecko.com/api/v3 (COINGECKO_URL). */
  baseUrl: string;
  clock?: () => Date;
  /** Calls this adapter may make per minute (token bucket, starts full). */
  requestsPerMinute?: number;
  /** Per-request time limit. */
  timeoutMs?: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Catalogue ids that CoinGecko spells differently. */
const upstreamIds: Partial<Record<CoinId, string>> = { polygon: 'matic-network' };
const upstreamId = (coinId: CoinId) => upstreamIds[coinId] ?? coinId;
const coinIdByUpstream = new Map<string, CoinId>(coins.map((c) => [upstreamId(c.id), c.id]));

/** The `days` values the OHLC endpoint accepts; a range is fetched at the first that covers it. */
const OHLC_DAYS = [1, 7, 14, 30, 90, 180, 365] as const;

const marketsSchema = z.array(
  z.object({
    id: z.string(),
    current_price: z.number().nullable(),
    price_change_24h: z.number().nullable().optional(),
    price_change_percentage_24h: z.number().nullable().optional(),
    total_volume: z.number().nullable().optional(),
    last_updated: z.string().nullable().optional(),
  }),
);
const ohlcSchema = z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]));
const pointsSchema = z.array(z.tuple([z.number(), z.number().nullable()]));
const marketChartSchema = z.object({ prices: pointsSchema, total_volumes: pointsSchema });

type Markets = z.infer<typeof marketsSchema>;
type MarketChart = z.infer<typeof marketChartSchema>;

interface CachePolicy {
  ttlMs: number;
  /** How old a cached answer may be and still stand in when CoinGecko cannot answer. */
  maxStaleMs: number;
}

const MARKETS_POLICY: CachePolicy = { ttlMs: 60_000, maxStaleMs: 10 * MINUTE_MS };
const OHLC_POLICY: CachePolicy = { ttlMs: 15 * MINUTE_MS, maxStaleMs: 6 * HOUR_MS };
function marketChartPolicy(days: number): CachePolicy {
  if (days <= 1) return { ttlMs: 60_000, maxStaleMs: 30 * MINUTE_MS };
  if (days <= 90) return { ttlMs: 30 * MINUTE_MS, maxStaleMs: 6 * HOUR_MS };
  return { ttlMs: 12 * HOUR_MS, maxStaleMs: 2 * DAY_MS };
}

interface CacheEntry {
  value: unknown;
  fetchedAt: number;
}

export class CoinGeckoMarketData implements MarketData {
  readonly source = 'coingecko' as const;
  readonly ticks = null;
  private readonly baseUrl: string;
  private readonly clock: () => Date;
  private readonly requestsPerMinute: number;
  private readonly timeoutMs: number;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private tokens: number;
  private tokensAt: number;
  private coolDownUntil = 0;

  constructor(options: CoinGeckoOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.clock = options.clock ?? (() => new Date());
    this.requestsPerMinute = options.requestsPerMinute ?? 10;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.tokens = this.requestsPerMinute;
    this.tokensAt = this.now();
  }

  supportedCoins() {
    return coins;
  }

  async prices(): Promise<CoinPrice[]> {
    const markets = await this.markets();
    const byCoin = new Map<CoinId, CoinPrice>();
    for (const row of markets) {
      const coinId = coinIdByUpstream.get(row.id);
      if (!coinId || row.current_price === null) continue;
      byCoin.set(coinId, {
        coinId,
        symbol: findCoinById(coinId)!.symbol,
        price: row.current_price,
        change24h: row.price_change_24h ?? null,
        changePercent24h: row.price_change_percentage_24h ?? null,
        volume24h: row.total_volume ?? null,
        at: isoOrNow(row.last_updated, this.now()),
      });
    }
    return coins.flatMap((c) => byCoin.get(c.id) ?? []);
  }

  /** The live prices (no history at this grain): `atMs` is not a time CoinGecko can answer for, the quote's `filledAt` says when it holds. */
  async quotesAt(_atMs: number): Promise<OrderQuote[]> {
    return (await this.prices()).map((p) => ({
      coinId: p.coinId,
      symbol: p.symbol,
      price: p.price,
      filledAt: p.at,
      minuteVolumeUsd: p.volume24h !== null && p.volume24h > 0 ? p.volume24h / 1440 : typicalMinuteVolumeUsd(p.coinId),
    }));
  }

  async price(coinId: CoinId): Promise<CoinPrice> {
    const id = requireCoinId(coinId);
    const found = (await this.prices()).find((p) => p.coinId === id);
    if (!found) throw new MarketDataUnavailableError('bad-response', `CoinGecko has no price for ${id}`, 60);
    return found;
  }

  /** The chart of now: CoinGecko has no path to read at an earlier `endMs` (the port's contract). */
  async candles(coinId: CoinId, days: number, _endMs?: number): Promise<CandleSeries> {
    const id = requireCoinId(coinId);
    const range = requireDays(days);
    const upstreamDays = ohlcDays(range);
    const [rows, chart] = await Promise.all([this.ohlc(id, upstreamDays), this.marketChart(id, upstreamDays)]);
    const widthMs = candleWidthMs(rows.map((r) => r[0]), upstreamDays);
    const since = this.now() - range * DAY_MS;
    const volumes = chart.total_volumes.filter((p): p is [number, number] => p[1] !== null);
    const candles: Candle[] = rows
      .filter(([closeTime]) => closeTime > since)
      .map(([closeTime, open, high, low, close]) => ({
        time: closeTime - widthMs,
        open,
        high,
        low,
        close,
        volume: (volumeAt(volumes, closeTime) * widthMs) / DAY_MS,
      }));
    const minutes = widthMs / MINUTE_MS;
    return { coinId: id, interval: { label: intervalLabel(minutes), minutes }, candles };
  }

  async history(coinId: CoinId, days: number): Promise<PricePoint[]> {
    const id = requireCoinId(coinId);
    const range = requireDays(days);
    const chart = await this.marketChart(id, ohlcDays(range));
    const since = this.now() - range * DAY_MS;
    return chart.prices.flatMap(([time, price]) => (price !== null && time >= since ? [{ time, price }] : []));
  }

  private markets(): Promise<Markets> {
    const ids = coins.map((c) => upstreamId(c.id)).join(',');
    return this.cached('markets', MARKETS_POLICY, () => this.getJson(`/coins/markets?vs_currency=usd&ids=${encodeURIComponent(ids)}`, marketsSchema));
  }

  private ohlc(coinId: CoinId, days: number) {
    const path = `/coins/${encodeURIComponent(upstreamId(coinId))}/ohlc?vs_currency=usd&days=${days}`;
    return this.cached(path, OHLC_POLICY, () => this.getJson(path, ohlcSchema));
  }

  private marketChart(coinId: CoinId, days: number): Promise<MarketChart> {
    const path = `/coins/${encodeURIComponent(upstreamId(coinId))}/market_chart?vs_currency=usd&days=${days}`;
    return this.cached(path, marketChartPolicy(days), () => this.getJson(path, marketChartSchema));
  }

  /** A fresh cached answer, else one call (shared by concurrent callers), else a stale answer, else the failure. */
  private cached<T>(key: string, policy: CachePolicy, load: () => Promise<T>): Promise<T> {
    const entry = this.cache.get(key);
    if (entry && this.now() - entry.fetchedAt < policy.ttlMs) return Promise.resolve(entry.value as T);
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<T>;
    const call = this.refresh(key, policy, entry, load);
    this.inFlight.set(key, call);
    // Forget the call once settled (it may settle before this line runs, e.g. an empty budget).
    call.then(
      () => this.inFlight.delete(key),
      () => this.inFlight.delete(key),
    );
    return call;
  }

  private async refresh<T>(key: string, policy: CachePolicy, entry: CacheEntry | undefined, load: () => Promise<T>): Promise<T> {
    try {
      this.spendToken();
      const value = await load();
      this.cache.set(key, { value, fetchedAt: this.now() });
      return value;
    } catch (error) {
      if (error instanceof MarketDataUnavailableError && entry && this.now() - entry.fetchedAt <= policy.maxStaleMs) return entry.value as T;
      throw error;
    }
  }

  private spendToken(): void {
    const now = this.now();
    if (now < this.coolDownUntil) {
      throw unavailable('rate-limited', 'CoinGecko asked us to slow down (429); waiting before calling again', (this.coolDownUntil - now) / 1000);
    }
    this.tokens = Math.min(this.requestsPerMinute, this.tokens + ((now - this.tokensAt) * this.requestsPerMinute) / MINUTE_MS);
    this.tokensAt = now;
    if (this.tokens < 1) {
      const waitMs = ((1 - this.tokens) * MINUTE_MS) / this.requestsPerMinute;
      throw unavailable('rate-limited', `CoinGecko call budget spent (${this.requestsPerMinute} a minute)`, waitMs / 1000);
    }
    this.tokens -= 1;
  }

  private async getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      throw unavailable('unreachable', `CoinGecko cannot be reached (${cause})`, 30);
    }
    if (response.status === 429) {
      const seconds = retryAfterSeconds(response.headers.get('retry-after'), this.now()) ?? 60;
      this.coolDownUntil = this.now() + seconds * 1000;
      await response.body?.cancel();
      throw unavailable('rate-limited', 'CoinGecko rate limit reached (429)', seconds);
    }
    if (!response.ok) {
      await response.body?.cancel();
      const reason = response.status >= 500 ? 'CoinGecko is failing' : 'CoinGecko refused the request';
      throw unavailable('upstream-error', `${reason} (${response.status})`, retryAfterSeconds(response.headers.get('retry-after'), this.now()) ?? 30);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw unavailable('bad-response', `CoinGecko answered ${path.split('?')[0]} with something that is not JSON`, 60);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw unavailable('bad-response', `CoinGecko answered ${path.split('?')[0]} in an unexpected shape (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`, 60);
    }
    return parsed.data;
  }

  private now(): number {
    return this.clock().getTime();
  }
}

function unavailable(reason: MarketDataFailure, message: string, retryAfterSeconds: number): MarketDataUnavailableError {
  return new MarketDataUnavailableError(reason, message, retryAfterSeconds);
}

function ohlcDays(days: number): number {
  return OHLC_DAYS.find((d) => d >= days) ?? 365;
}

/** The candles' width: the most common gap between close times, or CoinGecko's documented one. */
function candleWidthMs(closeTimes: number[], upstreamDays: number): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < closeTimes.length; i++) {
    const gap = closeTimes[i]! - closeTimes[i - 1]!;
    if (gap > 0) counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best: [number, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  if (best) return best[0];
  return upstreamDays <= 2 ? 30 * MINUTE_MS : upstreamDays <= 30 ? 4 * HOUR_MS : 4 * DAY_MS;
}

/** The rolling 24-hour volume at `time`: the last point at or before it (or the first point). */
function volumeAt(points: [number, number][], time: number): number {
  let value = points[0]?.[1] ?? 0;
  for (const [t, v] of points) {
    if (t > time) break;
    value = v;
  }
  return value;
}

function isoOrNow(value: string | null | undefined, now: number): string {
  const parsed = value ? Date.parse(value) : Number.NaN;
  return new Date(Number.isNaN(parsed) ? now : parsed).toISOString();
}

/** Retry-After as seconds (an HTTP date is converted), or undefined when absent or unreadable. */
function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(1, (date - now) / 1000);
}
