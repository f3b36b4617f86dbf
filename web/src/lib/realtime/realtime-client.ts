/**
 * The app's one WebSocket connection (spec section 4): runs the rules of ./realtime-machine.ts
 * against a real socket and real timers, and publishes its state to React through
 * `subscribe`/`getSnapshot` (useSyncExternalStore).
 *
 * Market refreshes are coalesced: the feed ticks every coin at once, so ten MARKET_UPDATE messages
 * arrive within a few milliseconds; refreshing the queries for each would send (and cancel) ten
 * rounds of requests. One refresh goes out MARKET_REFRESH_COALESCE_MS after the first update of a
 * burst, covering all of it.
 */
import {
  initialRealtimeState,
  realtimeTransition,
  type InvalidationGroup,
  type RealtimeEffect,
  type RealtimeEvent,
  type RealtimeState,
} from './realtime-machine';

export const MARKET_REFRESH_COALESCE_MS = 250;

/** What the client needs of a WebSocket (the browser's, or a test double). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
}

/** What a socket reports; `createSocket` wires them to the socket's events. */
export interface SocketHandlers {
  onOpen(): void;
  onClose(): void;
  onError(): void;
  onMessage(data: unknown): void;
}

/** The browser's WebSocket, its events routed to `handlers`. */
export function browserSocket(url: string, handlers: SocketHandlers): SocketLike {
  const ws = new WebSocket(url);
  ws.onopen = () => handlers.onOpen();
  ws.onclose = () => handlers.onClose();
  ws.onerror = () => handlers.onError();
  ws.onmessage = (event) => handlers.onMessage(event.data);
  return ws;
}

export interface RealtimeClientDeps {
  url: string;
  createSocket: (url: string, handlers: SocketHandlers) => SocketLike;
  /** The stored sign-in token, read when a socket opens. */
  getToken: () => string | null;
  invalidate: (group: InvalidationGroup) => void;
  log: (message: string, detail?: unknown) => void;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class RealtimeClient {
  private state: RealtimeState = initialRealtimeState();
  private socket: SocketLike | null = null;
  private readonly timers = new Set<unknown>();
  private marketRefresh: unknown = null;
  private readonly listeners = new Set<() => void>();
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly deps: RealtimeClientDeps) {
    this.setTimer = deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  start(): void {
    if (!this.state.stopped) return;
    this.dispatch({ type: 'connect' });
  }

  /** Closes the socket and cancels every pending retry and refresh; `start` may follow. */
  stop(): void {
    this.dispatch({ type: 'stop' });
    for (const handle of this.timers) this.clearTimer(handle);
    this.timers.clear();
    this.marketRefresh = null;
    const socket = this.socket;
    // Its events are ignored from now on (they check that it is still the current socket).
    this.socket = null;
    socket?.close();
  }

  /** The stored token changed (sign-in, sign-out): re-authenticate the open socket. */
  setSession(token: string | null): void {
    this.dispatch({ type: 'session', token });
  }

  getSnapshot = (): RealtimeState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private dispatch(event: RealtimeEvent): void {
    const { state, effects } = realtimeTransition(this.state, event);
    const changed = state !== this.state;
    this.state = state;
    for (const effect of effects) this.run(effect);
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  private run(effect: RealtimeEffect): void {
    switch (effect.type) {
      case 'open-socket':
        return this.open();
      case 'send':
        if (this.socket) this.socket.send(JSON.stringify(effect.message));
        return;
      case 'schedule-retry': {
        const handle = this.setTimer(() => {
          this.timers.delete(handle);
          this.dispatch({ type: 'retry-due', readyState: this.socket?.readyState ?? 3 });
        }, effect.delayMs);
        this.timers.add(handle);
        return;
      }
      case 'invalidate':
        if (effect.group === 'market') return this.refreshMarketSoon();
        return this.deps.invalidate(effect.group);
      case 'log':
        return this.deps.log(effect.message, effect.detail);
    }
  }

  private refreshMarketSoon(): void {
    if (this.marketRefresh !== null) return;
    const handle = this.setTimer(() => {
      this.timers.delete(handle);
      this.marketRefresh = null;
      this.deps.invalidate('market');
    }, MARKET_REFRESH_COALESCE_MS);
    this.marketRefresh = handle;
    this.timers.add(handle);
  }

  private open(): void {
    let socket: SocketLike | null = null;
    // Events of a socket that is no longer the current one (stopped, replaced) are ignored.
    const current = (event: RealtimeEvent) => () => {
      if (socket !== null && socket === this.socket) this.dispatch(event);
    };
    try {
      socket = this.deps.createSocket(this.deps.url, {
        onOpen: () => current({ type: 'open', token: this.deps.getToken() })(),
        onClose: current({ type: 'close' }),
        onError: current({ type: 'error' }),
        onMessage: (text) => current({ type: 'message', text })(),
      });
    } catch (error) {
      // A URL the browser refuses: nothing to retry against.
      this.socket = null;
      this.deps.log('real-time: could not open the socket', error);
      this.dispatch({ type: 'error' });
      return;
    }
    this.socket = socket;
  }
}
