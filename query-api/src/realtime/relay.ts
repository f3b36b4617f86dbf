/**
 * The real-time relay: a WebSocket endpoint at `/ws` on query-api's HTTP server (and on the embedded
 * app's) that follows the bus and pushes JSON messages to the sockets allowed to see them
 * (subjects and message shapes: ./messages.ts). Every query-api instance runs one; with NATS each
 * instance receives every notice, so a socket may connect to any of them.
 *
 * Authentication: the same bearer token as the APIs, sent in the first message
 * (`{type:'auth', token}`) or as a subprotocol `bearer.<token>` (offer `papertrade` as well; the
 * relay then answers with `papertrade`, never echoing the token). Never in the URL: a handshake with
 * a credential-like query parameter is refused (400), since URLs end up in access logs. A socket
 * without a valid token is public: it gets MARKET_UPDATE and public pushes only. A bad or expired
 * token gets an AUTH_ERROR message and leaves the socket public (not closed): the dashboard is useful
 * signed out, and the client learns why its private feed is missing. A token that expires while
 * connected is noticed at the next private push (checked with the token service, injected clock),
 * which then is not delivered. No cookie is involved, so a cross-site page cannot ride on a visitor's
 * session (no Origin check needed).
 *
 * Greeting: right after AUTHENTICATED the relay asks `greet` (when given) for the current state of
 * the user's private feeds and sends it as ordinary pushes (query-api's is BOT_STATUS from the
 * trading-bots read model, ../trading/bot-status-greeting.ts). Pushes only say what changed, so
 * without it a page opened after the bot started would show the default (STOPPED) until the next
 * change, and a user could not pause a running bot from it. A push of the same type that reached the
 * socket while the read was out is newer than (or as new as) what the read found, so the greeting
 * skips that type; a greeting for an earlier sign-in of the socket is dropped.
 *
 * Slow clients cannot make memory grow without bound: before each send the socket's
 * `bufferedAmount` (bytes queued in the process, not yet taken by the kernel) is checked. Above
 * SLOW_SOCKET_DROP_BYTES market updates for that socket are dropped (the next tick replaces them
 * anyway; counted); above SLOW_SOCKET_CLOSE_BYTES (only private or public pushes, which are never
 * dropped silently, can get it there) the socket is closed with code 4008 and terminated shortly
 * after. Heartbeats: a ping every HEARTBEAT_INTERVAL_MS; a socket that has not answered the previous
 * ping by then is terminated. Client messages are at most MAX_CLIENT_MESSAGE_BYTES. A process holds
 * at most MAX_SOCKETS sockets (further handshakes: 503), so the per-socket bound is a process bound.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { marketTickSchema, MARKET_TICK_SUBJECTS, type MarketTick } from '@papertrade/domain/market/contracts';
import { PUBLIC_REALTIME_SUBJECTS, routeRealtimeSubject, USER_REALTIME_SUBJECTS } from '@papertrade/domain/realtime/subjects';
import type { Bus } from '@papertrade/platform/bus/bus';
import type { TokenService } from '@papertrade/platform/auth/tokens';
import type { Logger } from '@papertrade/platform/config/logger';
import { MarketThrottle, MARKET_UPDATE_INTERVAL_MS } from './market-throttle';
import { clientMessageSchema, type ControlMessage, type RelayFrame } from './messages';

export const REALTIME_PATH = '/ws';
export const HEARTBEAT_INTERVAL_MS = 30_000;
/** Above this many bytes queued for a socket, market updates for it are dropped. */
export const SLOW_SOCKET_DROP_BYTES = 256 * 1024;
/** Above this many bytes queued for a socket, it is closed (4008) and terminated. */
export const SLOW_SOCKET_CLOSE_BYTES = 1024 * 1024;
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** Sockets one process holds at most; more are refused (503) so that the bound above stays a bound. */
export const MAX_SOCKETS = 10_000;
/** Close code for a socket that does not read what it is sent (application range 4000-4999). */
export const CLOSE_TOO_SLOW = 4008;
/** The subprotocol the relay selects when a client offers it (with or without a bearer one). */
export const REALTIME_SUBPROTOCOL = 'papertrade';
const BEARER_PROTOCOL_PREFIX = 'bearer.';
/** How long a socket closed for being slow gets to take its close frame before it is destroyed. */
const TERMINATE_AFTER_CLOSE_MS = 1000;

export interface RelayDeps {
  bus: Bus;
  tokens: Pick<TokenService, 'claims'>;
  logger: Logger;
  /** The current state of a user's private feeds, sent to a socket once it authenticates (see the top of this file). */
  greet?: (userId: string) => Promise<RelayFrame[]>;
}

export interface RelayOptions {
  path?: string;
  marketUpdateIntervalMs?: number;
  heartbeatIntervalMs?: number;
  dropMarketAboveBytes?: number;
  closeAboveBytes?: number;
  maxSockets?: number;
}

interface Client {
  ws: WebSocket;
  alive: boolean;
  userId: string | undefined;
  token: string | undefined;
  droppedMarketUpdates: number;
  /** Counts the sign-ins and sign-outs of this socket, so a late greeting for an earlier one is dropped. */
  session: number;
  /** The private push types delivered since the socket's current sign-in. */
  pushedSinceAuth: Set<string>;
}

export interface RelayStats {
  sockets: number;
  authenticated: number;
  droppedMarketUpdates: number;
  closedTooSlow: number;
  terminatedNoPong: number;
  /** The largest `bufferedAmount` seen before a send, over all sockets: what the relay held for a client. */
  maxBufferedBytes: number;
}

/** A query parameter that looks like a credential (by name, or a JWT-shaped value). */
const CREDENTIAL_NAME = /token|auth|bearer|jwt|key|secret|pass/i;
const JWT_SHAPED = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export class RealtimeRelay {
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<Client>();
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly throttle: MarketThrottle<MarketTick>;
  private readonly path: string;
  private readonly heartbeatIntervalMs: number;
  private readonly dropAbove: number;
  private readonly closeAbove: number;
  private readonly maxSockets: number;
  private readonly servers = new Set<Server>();
  private unsubscribers: Array<() => void> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly counters = { droppedMarketUpdates: 0, closedTooSlow: 0, terminatedNoPong: 0, maxBufferedBytes: 0 };

  constructor(
    private readonly deps: RelayDeps,
    options: RelayOptions = {},
  ) {
    this.path = options.path ?? REALTIME_PATH;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    this.dropAbove = options.dropMarketAboveBytes ?? SLOW_SOCKET_DROP_BYTES;
    this.closeAbove = options.closeAboveBytes ?? SLOW_SOCKET_CLOSE_BYTES;
    this.maxSockets = options.maxSockets ?? MAX_SOCKETS;
    this.throttle = new MarketThrottle(options.marketUpdateIntervalMs ?? MARKET_UPDATE_INTERVAL_MS, (tick) =>
      this.broadcast({ type: 'MARKET_UPDATE', data: tick }, 'market'),
    );
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_CLIENT_MESSAGE_BYTES,
      perMessageDeflate: false,
      handleProtocols: (protocols) => selectProtocol(protocols),
    });
    this.wss.on('connection', (ws, req) => this.onConnection(ws, req));
  }

  /** Follows the bus and starts heartbeats. Resolves once the subscriptions are registered. */
  async start(): Promise<void> {
    const { bus } = this.deps;
    this.unsubscribers = await Promise.all([
      bus.subscribe(MARKET_TICK_SUBJECTS, (subject, payload) => this.onTick(subject, payload)),
      bus.subscribe(USER_REALTIME_SUBJECTS, (subject, payload) => this.onPush(subject, payload)),
      bus.subscribe(PUBLIC_REALTIME_SUBJECTS, (subject, payload) => this.onPush(subject, payload)),
    ]);
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatIntervalMs);
    this.heartbeat.unref();
  }

  /** Serves WebSocket upgrades on `path` for this HTTP server; any other upgrade is answered 404. */
  attach(server: Server): this {
    server.on('upgrade', this.onUpgrade);
    this.servers.add(server);
    return this;
  }

  /** Stops following the bus, closes every socket (1001) and detaches from the servers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.throttle.stop();
    clearInterval(this.heartbeat);
    for (const server of this.servers) server.off('upgrade', this.onUpgrade);
    for (const client of this.clients) client.ws.close(1001, 'server shutting down');
    // Sockets that do not complete the closing handshake at once are not waited for.
    for (const client of this.clients) client.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  stats(): RelayStats {
    let authenticated = 0;
    for (const client of this.clients) if (client.userId) authenticated += 1;
    return { sockets: this.clients.size, authenticated, ...this.counters };
  }

  // ---- handshake and sockets ----

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    if (this.closed || url.pathname !== this.path) return refuseHandshake(socket, 404, 'Not found', `WebSocket connections are served at ${this.path} only.`);
    for (const [name, value] of url.searchParams) {
      if (CREDENTIAL_NAME.test(name) || JWT_SHAPED.test(value)) {
        return refuseHandshake(
          socket,
          400,
          'Bad request',
          'A token in the URL is refused (URLs are logged). Send {"type":"auth","token":...} as the first message, or offer the subprotocol bearer.<token>.',
        );
      }
    }
    if (this.clients.size >= this.maxSockets) {
      return refuseHandshake(socket, 503, 'Service unavailable', 'This server holds as many real-time connections as it can; try again later.', { 'Retry-After': '5' });
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  };

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const client: Client = { ws, alive: true, userId: undefined, token: undefined, droppedMarketUpdates: 0, session: 0, pushedSinceAuth: new Set() };
    this.clients.add(client);
    ws.on('pong', () => (client.alive = true));
    ws.on('message', (data, isBinary) => this.onClientMessage(client, data, isBinary));
    ws.on('close', () => this.forget(client));
    // A broken connection (reset, a frame over maxPayload) closes the socket; nothing else to do.
    ws.on('error', () => undefined);
    const token = bearerFromProtocols(req.headers['sec-websocket-protocol']);
    if (token !== undefined) this.authenticate(client, token);
  }

  private onClientMessage(client: Client, data: RawData, isBinary: boolean): void {
    let json: unknown;
    try {
      if (isBinary) throw new Error('binary');
      json = JSON.parse(rawText(data));
    } catch {
      return this.sendTo(client, { type: 'ERROR', data: { message: 'Messages must be JSON text, such as {"type":"auth","token":"..."}.' } }, 'control');
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) {
      return this.sendTo(client, { type: 'ERROR', data: { message: 'Unknown message: send {"type":"auth","token":"..."} or {"type":"logout"}.' } }, 'control');
    }
    if (parsed.data.type === 'auth') this.authenticate(client, parsed.data.token);
    else {
      this.setUser(client, undefined, undefined);
      this.sendTo(client, { type: 'LOGGED_OUT', data: {} }, 'control');
    }
  }

  /** A valid token makes the socket that user's; an invalid one leaves it public, whatever it was. */
  private authenticate(client: Client, token: string): void {
    const claims = this.deps.tokens.claims(token);
    if (!claims) {
      this.setUser(client, undefined, undefined);
      this.sendTo(client, { type: 'AUTH_ERROR', data: { message: 'The token is invalid or expired; this connection receives public messages only.' } }, 'control');
      return;
    }
    this.setUser(client, claims.userId.toLowerCase(), token);
    this.sendTo(client, { type: 'AUTHENTICATED', data: { userId: claims.userId } }, 'control');
    if (this.deps.greet) void this.greet(client, this.deps.greet, claims.userId);
  }

  /** Sends the user's current state (RelayDeps.greet) unless the socket moved on or a newer push of that type came first. */
  private async greet(client: Client, greet: NonNullable<RelayDeps['greet']>, userId: string): Promise<void> {
    const session = client.session;
    let frames: RelayFrame[];
    try {
      frames = await greet(userId);
    } catch (error) {
      // The socket works without it: the next change is pushed as usual.
      this.deps.logger.warn('real-time greeting failed', { userId, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (client.session !== session || !this.clients.has(client)) return;
    for (const frame of frames) {
      if (client.pushedSinceAuth.has(frame.type)) continue;
      this.sendFrame(client, Buffer.from(JSON.stringify(frame), 'utf8'), 'push');
    }
  }

  private setUser(client: Client, userId: string | undefined, token: string | undefined): void {
    if (client.userId) {
      const set = this.byUser.get(client.userId);
      set?.delete(client);
      if (set?.size === 0) this.byUser.delete(client.userId);
    }
    client.userId = userId;
    client.token = token;
    client.session += 1;
    client.pushedSinceAuth = new Set();
    if (userId) {
      const set = this.byUser.get(userId) ?? new Set<Client>();
      set.add(client);
      this.byUser.set(userId, set);
    }
  }

  private forget(client: Client): void {
    this.setUser(client, undefined, undefined);
    this.clients.delete(client);
  }

  private beat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        this.counters.terminatedNoPong += 1;
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      if (client.ws.readyState === WebSocket.OPEN) client.ws.ping();
    }
  }

  // ---- from the bus ----

  private onTick(subject: string, payload: unknown): void {
    const tick = marketTickSchema.safeParse(payload);
    if (!tick.success) {
      this.deps.logger.warn('market tick ignored by the relay: not a valid tick', { subject, problem: tick.error.issues[0]?.message });
      return;
    }
    this.throttle.push(tick.data.coinId, tick.data);
  }

  private onPush(subject: string, payload: unknown): void {
    const route = routeRealtimeSubject(subject);
    if (!route) {
      this.deps.logger.warn('real-time push ignored: not a realtime.user.<userId>.<TYPE> or realtime.public.<TYPE> subject', { subject });
      return;
    }
    const message: RelayFrame = { type: route.type, data: payload };
    if (route.audience === 'public') return this.broadcast(message, 'push');
    const sockets = this.byUser.get(route.userId);
    if (!sockets) return;
    const frame = Buffer.from(JSON.stringify(message), 'utf8');
    for (const client of [...sockets]) {
      // The token may have expired since the socket authenticated: check it before a private push.
      if (!client.token || !this.deps.tokens.claims(client.token)) {
        this.setUser(client, undefined, undefined);
        this.sendTo(client, { type: 'AUTH_ERROR', data: { message: 'The token has expired; this connection now receives public messages only.' } }, 'control');
        continue;
      }
      client.pushedSinceAuth.add(route.type);
      this.sendFrame(client, frame, 'push');
    }
  }

  private broadcast(message: RelayFrame, kind: 'market' | 'push'): void {
    if (this.clients.size === 0) return;
    // Serialised and encoded once, whatever the number of sockets.
    const frame = Buffer.from(JSON.stringify(message), 'utf8');
    for (const client of this.clients) this.sendFrame(client, frame, kind);
  }

  private sendTo(client: Client, message: ControlMessage, kind: 'control'): void {
    this.sendFrame(client, JSON.stringify(message), kind);
  }

  /** Sends unless the socket is not open or too far behind (see the top of this file). */
  private sendFrame(client: Client, frame: string | Buffer, kind: 'market' | 'push' | 'control'): void {
    const { ws } = client;
    if (ws.readyState !== WebSocket.OPEN) return;
    const buffered = ws.bufferedAmount;
    if (buffered > this.counters.maxBufferedBytes) this.counters.maxBufferedBytes = buffered;
    if (buffered > this.closeAbove) return this.closeTooSlow(client);
    if (kind === 'market' && buffered > this.dropAbove) {
      client.droppedMarketUpdates += 1;
      this.counters.droppedMarketUpdates += 1;
      return;
    }
    // A text frame either way (a Buffer would otherwise go out as binary).
    ws.send(frame, { binary: false });
  }

  private closeTooSlow(client: Client): void {
    this.counters.closedTooSlow += 1;
    this.deps.logger.warn('real-time socket closed: it does not read its messages', { bufferedBytes: client.ws.bufferedAmount, userId: client.userId });
    client.ws.close(CLOSE_TOO_SLOW, 'too slow: messages are not being read');
    // A client that does not read will not answer the close either: free its buffers soon.
    setTimeout(() => client.ws.terminate(), TERMINATE_AFTER_CLOSE_MS).unref();
  }
}

/** `papertrade` when offered, else the bearer protocol (a browser fails a handshake that selects none). */
function selectProtocol(protocols: Set<string>): string | false {
  if (protocols.has(REALTIME_SUBPROTOCOL)) return REALTIME_SUBPROTOCOL;
  for (const p of protocols) if (p.startsWith(BEARER_PROTOCOL_PREFIX)) return p;
  return false;
}

function bearerFromProtocols(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const offered = header.split(',').map((p) => p.trim());
  const bearer = offered.find((p) => p.startsWith(BEARER_PROTOCOL_PREFIX));
  return bearer === undefined ? undefined : bearer.slice(BEARER_PROTOCOL_PREFIX.length);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** Answers a refused handshake like the APIs answer bad input: a problem body, then closes. */
function refuseHandshake(socket: Duplex, status: number, title: string, detail: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
