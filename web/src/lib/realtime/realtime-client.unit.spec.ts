import { expect } from 'chai';
import { MARKET_REFRESH_COALESCE_MS, RealtimeClient, type SocketHandlers, type SocketLike } from './realtime-client';
import type { InvalidationGroup } from './realtime-machine';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closed = false;
  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.handlers.onOpen();
  }
  serverGoesAway() {
    this.readyState = 3;
    this.handlers.onError();
    this.handlers.onClose();
  }
  closeEvent() {
    this.handlers.onClose();
  }
  message(data: unknown) {
    this.handlers.onMessage(data);
  }
  push(value: unknown) {
    this.handlers.onMessage(JSON.stringify(value));
  }
}

/** Timers the test fires by hand: `advance(ms)` runs what falls due, in order. */
class ManualTimers {
  private now = 0;
  private next = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();
  set = (callback: () => void, ms: number) => {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, callback });
    return id;
  };
  clear = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
  get count() {
    return this.pending.size;
  }
}

describe('real-time client', () => {
  let sockets: FakeSocket[];
  let timers: ManualTimers;
  let invalidated: InvalidationGroup[];
  let logged: string[];
  let token: string | null;

  function client() {
    return new RealtimeClient({
      url: 'ws://app.test/ws',
      createSocket: (url, handlers) => {
        const socket = new FakeSocket(url, handlers);
        sockets.push(socket);
        return socket;
      },
      getToken: () => token,
      invalidate: (group) => invalidated.push(group),
      log: (message) => logged.push(message),
      setTimer: timers.set,
      clearTimer: timers.clear,
    });
  }

  beforeEach(() => {
    sockets = [];
    timers = new ManualTimers();
    invalidated = [];
    logged = [];
    token = null;
  });

  it('connects to the URL it is given, and sends the stored token as its first message on open', () => {
    token = 'tok-1';
    const c = client();
    c.start();
    expect(sockets.map((s) => s.url)).to.deep.equal(['ws://app.test/ws']);
    expect(c.getSnapshot().status).to.equal('connecting');
    sockets[0]!.serverOpens();
    expect(c.getSnapshot().status).to.equal('connected');
    expect(sockets[0]!.sent).to.deep.equal([JSON.stringify({ type: 'auth', token: 'tok-1' })]);
  });

  it('while the server is away it tries again every 3 s, one socket per close, and recovers', () => {
    const c = client();
    c.start();
    sockets[0]!.serverOpens();
    sockets[0]!.serverGoesAway();
    expect(c.getSnapshot().status).to.equal('disconnected');
    timers.advance(2999);
    expect(sockets).to.have.length(1);
    timers.advance(1);
    expect(sockets).to.have.length(2);
    sockets[1]!.serverGoesAway();
    timers.advance(3000);
    expect(sockets).to.have.length(3);
    sockets[2]!.serverOpens();
    expect(c.getSnapshot().status).to.equal('connected');
    expect(timers.count).to.equal(0);
  });

  it('does not reconnect when the old socket is not CLOSED when the retry falls due', () => {
    const c = client();
    c.start();
    sockets[0]!.closeEvent();
    sockets[0]!.readyState = 2; // still closing
    timers.advance(3000);
    expect(sockets).to.have.length(1);
  });

  it('stop closes the socket and cancels the pending retry', () => {
    const c = client();
    c.start();
    sockets[0]!.serverGoesAway();
    c.stop();
    timers.advance(10_000);
    expect(sockets).to.have.length(1);
    expect(timers.count).to.equal(0);
    c.start();
    expect(sockets).to.have.length(2);
  });

  it('ignores the events of a socket it has stopped or replaced', () => {
    const c = client();
    c.start();
    const old = sockets[0]!;
    c.stop();
    c.start();
    old.serverOpens();
    expect(c.getSnapshot().status).to.equal('connecting');
    old.serverGoesAway();
    timers.advance(3000);
    expect(sockets).to.have.length(2);
  });

  it('coalesces a burst of MARKET_UPDATEs into one market refresh; ML_UPDATE refreshes ml at once', () => {
    const c = client();
    c.start();
    sockets[0]!.serverOpens();
    let notified = 0;
    c.subscribe(() => notified++);
    for (const [coinId, symbol] of [['ethereum', 'ETH'], ['bitcoin', 'BTC'], ['solana', 'SOL']]) {
      sockets[0]!.push({ type: 'MARKET_UPDATE', data: { coinId, symbol, price: 10, changePercent24h: null, at: '2026-01-01T00:00:00.000Z' } });
    }
    expect(invalidated).to.deep.equal([]);
    timers.advance(MARKET_REFRESH_COALESCE_MS);
    expect(invalidated).to.deep.equal(['market']);
    expect(Object.keys(c.getSnapshot().ticks)).to.deep.equal(['ethereum', 'bitcoin', 'solana']);
    expect(notified).to.equal(3);
    sockets[0]!.push({ type: 'ML_UPDATE', data: {} });
    expect(invalidated).to.deep.equal(['market', 'ml']);
  });

  it('logs a malformed message and stays connected', () => {
    const c = client();
    c.start();
    sockets[0]!.serverOpens();
    sockets[0]!.message('nope');
    expect(logged).to.have.length(1);
    expect(c.getSnapshot().status).to.equal('connected');
  });
});
