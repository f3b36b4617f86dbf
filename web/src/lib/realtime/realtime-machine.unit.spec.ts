import { expect } from 'chai';
import { initialRealtimeState, RECONNECT_DELAY_MS, realtimeTransition, realtimeUrl, SOCKET_CLOSED, type RealtimeEvent, type RealtimeState } from './realtime-machine';

const tick = (coinId: string, symbol: string, price: number) => ({ coinId, symbol, price, changePercent24h: 1.25, at: '2026-01-01T00:00:00.000Z' });
const msg = (value: unknown) => ({ type: 'message', text: JSON.stringify(value) }) as const;

/** Runs events from the initial state; returns the final state and every effect in order. */
function run(...events: RealtimeEvent[]) {
  let state: RealtimeState = initialRealtimeState();
  const effects = [];
  for (const event of events) {
    const next = realtimeTransition(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

describe('real-time connection rules', () => {
  it('builds ws:// on http and wss:// on https, on the same host, path /ws, nothing in the query', () => {
    expect(realtimeUrl({ protocol: 'http:', host: 'localhost:3000' })).to.equal('ws://localhost:3000/ws');
    expect(realtimeUrl({ protocol: 'https:', host: 'trade.example.com' })).to.equal('wss://trade.example.com/ws');
  });

  it('goes connecting -> connected on open -> disconnected on close, and schedules one retry after 3 s', () => {
    expect(RECONNECT_DELAY_MS).to.equal(3000);
    expect(run({ type: 'connect' }).state.status).to.equal('connecting');
    expect(run({ type: 'connect' }).effects).to.deep.equal([{ type: 'open-socket' }]);
    expect(run({ type: 'connect' }, { type: 'open', token: null }).state.status).to.equal('connected');
    const closed = run({ type: 'connect' }, { type: 'open', token: null }, { type: 'close' });
    expect(closed.state.status).to.equal('disconnected');
    expect(closed.effects).to.deep.equal([{ type: 'open-socket' }, { type: 'schedule-retry', delayMs: 3000 }]);
  });

  it('an error disconnects (and is logged) without scheduling a retry itself; the close that follows does', () => {
    const errored = run({ type: 'connect' }, { type: 'open', token: null }, { type: 'error' });
    expect(errored.state.status).to.equal('disconnected');
    expect(errored.effects.filter((e) => e.type === 'schedule-retry')).to.have.length(0);
    expect(errored.effects.filter((e) => e.type === 'log')).to.have.length(1);
    const closed = run({ type: 'connect' }, { type: 'error' }, { type: 'close' });
    expect(closed.effects.filter((e) => e.type === 'schedule-retry')).to.have.length(1);
  });

  it('opens a new socket when the retry is due only if the old one is CLOSED', () => {
    const base: RealtimeEvent[] = [{ type: 'connect' }, { type: 'close' }];
    const due = run(...base, { type: 'retry-due', readyState: SOCKET_CLOSED });
    expect(due.state.status).to.equal('connecting');
    expect(due.effects.filter((e) => e.type === 'open-socket')).to.have.length(2);
    for (const readyState of [0, 1, 2]) {
      const notClosed = run(...base, { type: 'retry-due', readyState });
      expect(notClosed.effects.filter((e) => e.type === 'open-socket'), `readyState ${readyState}`).to.have.length(1);
      expect(notClosed.state.status).to.equal('disconnected');
    }
  });

  it('keeps trying every 3 s while the server is away: each failed attempt closes and schedules the next', () => {
    const { effects } = run(
      { type: 'connect' },
      { type: 'close' },
      { type: 'retry-due', readyState: SOCKET_CLOSED },
      { type: 'error' },
      { type: 'close' },
      { type: 'retry-due', readyState: SOCKET_CLOSED },
      { type: 'close' },
    );
    expect(effects.filter((e) => e.type === 'open-socket')).to.have.length(3);
    expect(effects.filter((e) => e.type === 'schedule-retry')).to.have.length(3);
  });

  it('after stop: no retry on close, none when a retry falls due, and open is ignored', () => {
    const { state, effects } = run({ type: 'connect' }, { type: 'stop' }, { type: 'close' }, { type: 'retry-due', readyState: SOCKET_CLOSED }, { type: 'open', token: 't' });
    expect(state.status).to.equal('disconnected');
    expect(effects).to.deep.equal([{ type: 'open-socket' }]);
  });

  it('authenticates with the stored token as the first message, and sends nothing without one', () => {
    expect(run({ type: 'connect' }, { type: 'open', token: 'tok-1' }).effects).to.deep.equal([
      { type: 'open-socket' },
      { type: 'send', message: { type: 'auth', token: 'tok-1' } },
    ]);
    expect(run({ type: 'connect' }, { type: 'open', token: null }).effects).to.deep.equal([{ type: 'open-socket' }]);
    // A stored value the contract refuses (8 kB+) is not sent; the socket stays public.
    const huge = run({ type: 'connect' }, { type: 'open', token: 'x'.repeat(9000) });
    expect(huge.effects.some((e) => e.type === 'send')).to.equal(false);
  });

  it('re-authenticates an open socket on sign-in and sends logout on sign-out; the same token is not sent twice', () => {
    const signIn = run({ type: 'connect' }, { type: 'open', token: null }, { type: 'session', token: 'tok-2' }, { type: 'session', token: 'tok-2' });
    expect(signIn.effects.filter((e) => e.type === 'send')).to.deep.equal([{ type: 'send', message: { type: 'auth', token: 'tok-2' } }]);
    const signOut = run({ type: 'connect' }, { type: 'open', token: 'tok-2' }, { type: 'session', token: null });
    expect(signOut.effects.filter((e) => e.type === 'send')).to.deep.equal([
      { type: 'send', message: { type: 'auth', token: 'tok-2' } },
      { type: 'send', message: { type: 'logout' } },
    ]);
    // While connecting nothing is sent: the open sends the token then.
    expect(run({ type: 'connect' }, { type: 'session', token: 'tok-3' }).effects.filter((e) => e.type === 'send')).to.have.length(0);
  });

  it('MARKET_UPDATE records the tick per coin and refreshes the market queries', () => {
    const { state, effects } = run(
      { type: 'connect' },
      { type: 'open', token: null },
      msg({ type: 'MARKET_UPDATE', data: tick('ethereum', 'ETH', 3000) }),
      msg({ type: 'MARKET_UPDATE', data: tick('bitcoin', 'BTC', 90000) }),
      msg({ type: 'MARKET_UPDATE', data: tick('ethereum', 'ETH', 3001.5) }),
    );
    expect(state.ticks.ethereum?.price).to.equal(3001.5);
    expect(state.ticks.bitcoin?.price).to.equal(90000);
    expect(effects.filter((e) => e.type === 'invalidate')).to.deep.equal(Array(3).fill({ type: 'invalidate', group: 'market' }));
  });

  it('ML_UPDATE refreshes ml-status; BOT_STATUS replaces the bot status, STOPPED until then and after a session change', () => {
    expect(initialRealtimeState().botStatus).to.equal('STOPPED');
    expect(run(msg({ type: 'ML_UPDATE', data: { accuracy: 61 } })).effects).to.deep.equal([{ type: 'invalidate', group: 'ml' }]);
    expect(run(msg({ type: 'BACKTEST_UPDATE', data: { id: 'b1', status: 'COMPLETED' } })).effects).to.deep.equal([{ type: 'invalidate', group: 'backtest' }]);
    const active = run(msg({ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }));
    expect(active.state.botStatus).to.equal('ACTIVE');
    expect(run(msg({ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }), msg({ type: 'BOT_STATUS', data: { status: 'STOPPED' } })).state.botStatus).to.equal('STOPPED');
    expect(run(msg({ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }), { type: 'session', token: null }, { type: 'session', token: 'other' }).state.botStatus).to.equal('STOPPED');
  });

  it('JOB_PROGRESS keeps the latest progress per job (no refetch); a session change drops them', () => {
    const progress = (jobId: string, value: number) => msg({ type: 'JOB_PROGRESS', data: { jobId, kind: 'model-training', status: 'RUNNING', progress: value } });
    const state = run(progress('j1', 0.2), progress('j2', 0.5), progress('j1', 0.6)).state;
    expect(state.jobs.j1?.progress).to.equal(0.6);
    expect(state.jobs.j2?.progress).to.equal(0.5);
    expect(run(progress('j1', 0.2)).effects).to.deep.equal([]);
    expect(run(progress('j1', 0.2), { type: 'session', token: 'other' }).state.jobs).to.deep.equal({});
    expect(run(msg({ type: 'JOB_PROGRESS', data: { jobId: 'j1', progress: 2 } })).state.jobs).to.deep.equal({});
  });

  it('only logs malformed JSON and known messages of the wrong shape, ignores unknown types, and keeps the status', () => {
    const base: RealtimeEvent[] = [{ type: 'connect' }, { type: 'open', token: null }];
    for (const bad of [{ type: 'message', text: '{not json' }, { type: 'message', text: new ArrayBuffer(2) }, msg({ type: 'MARKET_UPDATE', data: { coinId: 'ethereum' } }), msg({ type: 'BOT_STATUS', data: {} })] as RealtimeEvent[]) {
      const { state, effects } = run(...base, bad);
      expect(state.status).to.equal('connected');
      expect(state.ticks).to.deep.equal({});
      expect(effects.slice(1)).to.have.length(1);
      expect(effects[1]!.type).to.equal('log');
    }
    const unknown = run(...base, msg({ type: 'ANNOUNCEMENT', data: {} }));
    expect(unknown.effects).to.deep.equal([{ type: 'open-socket' }]);
  });
});
