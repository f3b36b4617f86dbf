/**
 * The real-time connection's rules (spec section 4) as a pure transition function, so they are
 * tested without a socket, a timer or a DOM. The client (./realtime-client.ts) feeds it what the
 * socket and the timers do and carries out the effects it answers.
 *
 * - Status: connecting while a socket opens, connected on open, disconnected on close or error.
 * - Reconnect: every close schedules one retry RECONNECT_DELAY_MS later; when it is due, a new socket
 *   is opened only if the old one is in the CLOSED state (and the client was not stopped). While the
 *   server is away each failed attempt closes again, so it keeps trying every 3 s.
 * - Authentication: with a stored token the first message is `{type:'auth', token}` (never in the
 *   URL, which ends up in access logs). A later sign-in sends auth again; a sign-out sends logout.
 * - Messages: MARKET_UPDATE refreshes the market queries (portfolio, price, signals, indicators) and
 *   records the tick per coin; ML_UPDATE refreshes ml-status; BACKTEST_UPDATE the backtests; BOT_STATUS replaces the bot status
 *   (STOPPED until the first one); JOB_PROGRESS records the latest progress per long job (the ML
 *   panel's progress bar), dropped on a session change. Malformed JSON or a known type with a bad shape is only logged;
 *   a type this client does not know (the relay forwards any public push) is ignored.
 */
import { clientMessageSchema, DEFAULT_BOT_STATUS, serverMessageSchema, type ClientMessage } from '@papertrade/domain/realtime/contracts';
import type { MarketTick } from '@papertrade/domain/market/contracts';
import type { JobProgress } from '@papertrade/domain/realtime/contracts';

export const RECONNECT_DELAY_MS = 3000;
export const REALTIME_PATH = '/ws';
/** `WebSocket.CLOSED`, spelled out so this module runs where there is no WebSocket global. */
export const SOCKET_CLOSED = 3;

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';
/** Which cached queries a message makes stale. */
export type InvalidationGroup = 'market' | 'ml' | 'backtest';

export interface RealtimeState {
  status: ConnectionStatus;
  botStatus: string;
  /** The latest tick per coin id. */
  ticks: Readonly<Record<string, MarketTick>>;
  /** The latest JOB_PROGRESS per job id (this user's long jobs since the page loaded). */
  jobs: Readonly<Record<string, JobProgress>>;
  /** The token the socket has been (or will be, on open) authenticated with. */
  token: string | null;
  stopped: boolean;
}

export type RealtimeEvent =
  | { type: 'connect' }
  | { type: 'open'; token: string | null }
  | { type: 'close' }
  | { type: 'error' }
  | { type: 'retry-due'; readyState: number }
  | { type: 'message'; text: unknown }
  | { type: 'session'; token: string | null }
  | { type: 'stop' };

export type RealtimeEffect =
  | { type: 'open-socket' }
  | { type: 'send'; message: ClientMessage }
  | { type: 'schedule-retry'; delayMs: number }
  | { type: 'invalidate'; group: InvalidationGroup }
  | { type: 'log'; message: string; detail?: unknown };

export interface Transition {
  state: RealtimeState;
  effects: RealtimeEffect[];
}

export function initialRealtimeState(): RealtimeState {
  return { status: 'disconnected', botStatus: DEFAULT_BOT_STATUS, ticks: {}, jobs: {}, token: null, stopped: true };
}

/** `ws://host/ws`, or `wss://` when the page is https. */
export function realtimeUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;
}

const same = (state: RealtimeState): Transition => ({ state, effects: [] });

export function realtimeTransition(state: RealtimeState, event: RealtimeEvent): Transition {
  switch (event.type) {
    case 'connect':
      return { state: { ...state, status: 'connecting', stopped: false }, effects: [{ type: 'open-socket' }] };

    case 'open': {
      if (state.stopped) return same(state);
      const effects: RealtimeEffect[] = [];
      if (event.token) {
        // The contract caps the token's length: a corrupted stored value is not sent as it is.
        const parsed = clientMessageSchema.safeParse({ type: 'auth', token: event.token });
        if (parsed.success) effects.push({ type: 'send', message: parsed.data });
        else effects.push({ type: 'log', message: 'real-time: the stored token is not sendable; staying public' });
      }
      return { state: { ...state, status: 'connected', token: event.token }, effects };
    }

    case 'close':
      if (state.stopped) return same({ ...state, status: 'disconnected' });
      return { state: { ...state, status: 'disconnected' }, effects: [{ type: 'schedule-retry', delayMs: RECONNECT_DELAY_MS }] };

    case 'error':
      // A close follows an error in browsers; that close schedules the retry.
      return {
        state: { ...state, status: 'disconnected' },
        effects: state.stopped ? [] : [{ type: 'log', message: 'real-time: connection error' }],
      };

    case 'retry-due':
      if (state.stopped || event.readyState !== SOCKET_CLOSED) return same(state);
      return realtimeTransition(state, { type: 'connect' });

    case 'session': {
      if (event.token === state.token) return same(state);
      // The bot status is the previous user's: back to the default until this user's arrives.
      const next = { ...state, token: event.token, botStatus: DEFAULT_BOT_STATUS, jobs: {} };
      if (state.status !== 'connected') return same(next);
      if (event.token) {
        const parsed = clientMessageSchema.safeParse({ type: 'auth', token: event.token });
        return { state: next, effects: parsed.success ? [{ type: 'send', message: parsed.data }] : [] };
      }
      return { state: next, effects: [{ type: 'send', message: { type: 'logout' } }] };
    }

    case 'stop':
      return same({ ...state, status: 'disconnected', stopped: true });

    case 'message':
      return onMessage(state, event.text);
  }
}

function onMessage(state: RealtimeState, text: unknown): Transition {
  let json: unknown;
  try {
    if (typeof text !== 'string') throw new Error('not text');
    json = JSON.parse(text);
  } catch {
    return { state, effects: [{ type: 'log', message: 'real-time: a message that is not JSON text was ignored' }] };
  }
  const parsed = serverMessageSchema.safeParse(json);
  if (!parsed.success) {
    const type = typeof json === 'object' && json !== null && 'type' in json ? json.type : undefined;
    const known = serverMessageSchema.options.some((option) => option.shape.type.value === type);
    if (!known) return same(state);
    return { state, effects: [{ type: 'log', message: `real-time: a ${String(type)} message did not match the contract`, detail: parsed.error.issues[0] }] };
  }
  const message = parsed.data;
  switch (message.type) {
    case 'MARKET_UPDATE':
      return {
        state: { ...state, ticks: { ...state.ticks, [message.data.coinId]: message.data } },
        effects: [{ type: 'invalidate', group: 'market' }],
      };
    case 'ML_UPDATE':
      return { state, effects: [{ type: 'invalidate', group: 'ml' }] };
    case 'BACKTEST_UPDATE':
      return { state, effects: [{ type: 'invalidate', group: 'backtest' }] };
    case 'BOT_STATUS':
      return same({ ...state, botStatus: message.data.status });
    case 'JOB_PROGRESS':
      return same({ ...state, jobs: { ...state.jobs, [message.data.jobId]: message.data } });
    case 'AUTH_ERROR':
    case 'ERROR':
      return { state, effects: [{ type: 'log', message: `real-time: ${message.type} ${message.data.message}` }] };
    case 'AUTHENTICATED':
    case 'LOGGED_OUT':
      return same(state);
  }
}
