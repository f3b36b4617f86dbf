/**
 * The real-time relay: a WebSocket endpoint at `/ws` on query-api's HTTP server (and on the embedded
 * app's) that follows the bus and pushes JSON messages to the sockets allowed to see them
 * (subjects and message shapes: ./messages.ts). Every query-api instance runs one; with NATS each
 * instance receives every notice, so a socket may connect to any of them.
 *
 * Authentication: the same bearer token as the APIs, sent in the first message
 * (`{type:'auth', token}`, what the web app does) or as a subprotocol `bearer.<token>` beside
 * `papertrade`: the relay selects `papertrade`, so the handshake's answer never holds the token. A
 * handshake that offers a bearer protocol without `papertrade` is refused (400): the only protocol
 * it could select is the token itself, echoed in the answer's Sec-WebSocket-Protocol (into proxy
 * logs), and a client that offered protocols fails a handshake that selects none. Never in the URL
 * either: a credential-like query parameter is refused (400), since URLs end up in access logs. A
 * socket without a valid token is public: it gets MARKET_UPDATE and public pushes only. A bad or
 * expired token, or a validly signed one whose account does not exist (RelayDeps.accounts, the same
 * resolution as HTTP's guards, which answer 401), gets an AUTH_ERROR message and leaves the socket
 * public (not closed): the dashboard is useful signed out, and the client learns why its private feed
 * is missing. A token that expires while connected is noticed at the next private push (checked with
 * the token service, injected clock), which then is not delivered. No cookie is involved, so a
 * cross-site page cannot ride on a visitor's session (no Origin check needed).
 *
 * Abuse bounds: at most `maxSocketsPerAddress` open sockets per client address (the address from
 * X-Forwarded-For only with `trustProxy`, as the APIs; further handshakes: 429), so one client
 * cannot take every socket of the process; and each socket's messages are metered by a token bucket
 * (`messageBurst` at once, `messageRefillPerSecond` after): a socket over it is closed with 1008
 * (policy violation), since each `auth` costs a token check and an account read (5,000 of them cost
 * 1.5 s of CPU before the bucket).
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
import type { TokenClaims, TokenService } from '@papertrade/platform/auth/tokens';
import type { Logger } from '@papertrade/platform/config/logger';
import { clientAddress } from '@papertrade/platform/http/client-address';
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
/** Sockets one client address may hold at once (a tab each; an office behind one NAT shares it); more are refused (429). */
export const MAX_SOCKETS_PER_ADDRESS = 20;
/** Client messages a socket may send at once... */
export const MESSAGE_BURST = 10;
/** ...and per second after that. A client sends `auth` on open and on each sign-in, `logout` on sign-out. */
export const MESSAGE_REFILL_PER_SECOND = 1;
/** Close code for a socket that sends more messages than its bucket allows (RFC 6455: policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;
/** Close code for a socket that does not read what it is sent (application range 4000-4999). */
export const CLOSE_TOO_SLOW = 4008;
/** The subprotocol the relay selects when a client offers it (with or without a bearer one). */
export const REALTIME_SUBPROTOCOL = 'papertrade';
const BEARER_PROTOCOL_PREFIX = 'bearer.';
/** How long a socket closed for being slow (or for flooding) gets to take its close frame before it is destroyed. */
const TERMINATE_AFTER_CLOSE_MS = 1000;

export interface RelayDeps {
  bus: Bus;
  tokens: Pick<TokenService, 'claims'>;
  /**
   * Whether the account a verified token names exists (platform/src/auth/guards.ts accountLookup,
   * over the users read model): `{ error }` when it does not, or not yet.
   */
  accounts: (claims: TokenClaims) => Promise<{ user: object } | { error: string }>;
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
  maxSocketsPerAddress?: number;
  /** The client address from X-Forwarded-For (behind the gateway), as the APIs with TRUST_PROXY. */
  trustProxy?: boolean;
  messageBurst?: number;
  messageRefillPerSecond?: number;
  /** Milliseconds, for the message buckets (tests inject a clock). */
  now?: () => number;
}

interface Client {
  ws: WebSocket;
  /** Its client address, as counted against maxSocketsPerAddress. */
  address: string;
  /** Messages it may still send now (a token bucket), and when that was last worked out. */
  allowance: number;
  allowanceAt: number;
  /** Closed for flooding: whatever else it sends is ignored. */
  closing: boolean;
  /** Counts its auth and logout messages, so an account read that a later one overtook is dropped. */
  authAttempt: number;
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
  closedTooManyMessages: number;
  refusedPerAddress: number;
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
  private readonly maxSocketsPerAddress: number;
  private readonly trustProxy: boolean;
  private readonly messageBurst: number;
  private readonly messageRefillPerMs: number;
  private readonly now: () => number;
  /** Open sockets per client address. */
  private readonly perAddress = new Map<string, number>();
  private readonly servers = new Set<Server>();
  private unsubscribers: Array<() => void> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly counters = { droppedMarketUpdates: 0, closedTooSlow: 0, closedTooManyMessages: 0, refusedPerAddress: 0, terminatedNoPong: 0, maxBufferedBytes: 0 };

  constructor(
    private readonly deps: RelayDeps,
    options: RelayOptions = {},
  ) {
    this.path = options.path ?? REALTIME_PATH;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    this.dropAbove = options.dropMarketAboveBytes ?? SLOW_SOCKET_DROP_BYTES;
    this.closeAbove = options.closeAboveBytes ?? SLOW_SOCKET_CLOSE_BYTES;
    this.maxSockets = options.maxSockets ?? MAX_SOCKETS;
    this.maxSocketsPerAddress = options.maxSocketsPerAddress ?? MAX_SOCKETS_PER_ADDRESS;
    this.trustProxy = options.trustProxy ?? false;
    this.messageBurst = options.messageBurst ?? MESSAGE_BURST;
    this.messageRefillPerMs = (options.messageRefillPerSecond ?? MESSAGE_REFILL_PER_SECOND) / 1000;
    this.now = options.now ?? (() => performance.now());
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
    const offered = offeredProtocols(req.headers['sec-websocket-protocol']);
    if (offered.some((p) => p.startsWith(BEARER_PROTOCOL_PREFIX)) && !offered.includes(REALTIME_SUBPROTOCOL)) {
      return refuseHandshake(
        socket,
        400,
        'Bad request',
        `Offer the subprotocol ${REALTIME_SUBPROTOCOL} beside bearer.<token> (the relay selects ${REALTIME_SUBPROTOCOL} and never echoes the token), or send {"type":"auth","token":...} as the first message.`,
      );
    }
    if (this.clients.size >= this.maxSockets) {
      return refuseHandshake(socket, 503, 'Service unavailable', 'This server holds as many real-time connections as it can; try again later.', { 'Retry-After': '5' });
    }
    const address = clientAddress(req, this.trustProxy);
    if ((this.perAddress.get(address) ?? 0) >= this.maxSocketsPerAddress) {
      this.counters.refusedPerAddress += 1;
      return refuseHandshake(
        socket,
        429,
        'Too many requests',
        `At most ${this.maxSocketsPerAddress} real-time connections per address are served; close another tab or try again later.`,
        { 'Retry-After': '5' },
      );
    }
    // ws completes the handshake synchronously here (no verifyClient), so the counts above cannot
    // be overtaken by another handshake before onConnection records this one.
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  };

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const address = clientAddress(req, this.trustProxy);
    const client: Client = {
      ws,
      address,
      allowance: this.messageBurst,
      allowanceAt: this.now(),
      closing: false,
      authAttempt: 0,
      alive: true,
      userId: undefined,
      token: undefined,
      droppedMarketUpdates: 0,
      session: 0,
      pushedSinceAuth: new Set(),
    };
    this.clients.add(client);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    ws.on('pong', () => (client.alive = true));
    ws.on('message', (data, isBinary) => this.onClientMessage(client, data, isBinary));
    ws.on('close', () => this.forget(client));
    // A broken connection (reset, a frame over maxPayload) closes the socket; nothing else to do.
    ws.on('error', () => undefined);
    const token = bearerFromProtocols(req.headers['sec-websocket-protocol']);
    if (token !== undefined) void this.authenticate(client, token);
  }

  /** Takes one message from the socket's bucket; false when it is empty. */
  private allowMessage(client: Client): boolean {
    const now = this.now();
    client.allowance = Math.min(this.messageBurst, client.allowance + (now - client.allowanceAt) * this.messageRefillPerMs);
    client.allowanceAt = now;
    if (client.allowance < 1) return false;
    client.allowance -= 1;
    return true;
  }

  private onClientMessage(client: Client, data: RawData, isBinary: boolean): void {
    if (client.closing) return;
    // Metered before anything is parsed or checked: the cost of a message is what is bounded.
    if (!this.allowMessage(client)) {
      client.closing = true;
      this.counters.closedTooManyMessages += 1;
      this.deps.logger.warn('real-time socket closed: too many messages', { address: client.address, userId: client.userId });
      client.ws.close(CLOSE_POLICY_VIOLATION, 'too many messages');
      setTimeout(() => client.ws.terminate(), TERMINATE_AFTER_CLOSE_MS).unref();
      return;
    }
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
    if (parsed.data.type === 'auth') void this.authenticate(client, parsed.data.token);
    else {
      client.authAttempt += 1;
      this.setUser(client, undefined, undefined);
      this.sendTo(client, { type: 'LOGGED_OUT', data: {} }, 'control');
    }
  }

  /**
   * A valid token for an existing account makes the socket that user's; anything else leaves it
   * public, whatever it was. An answer a later auth or logout of the socket overtook is dropped.
   */
  private async authenticate(client: Client, token: string): Promise<void> {
    const attempt = ++client.authAttempt;
    const refuse = (message: string) => {
      this.setUser(client, undefined, undefined);
      this.sendTo(client, { type: 'AUTH_ERROR', data: { message: `${message}; this connection receives public messages only.` } }, 'control');
    };
    const claims = this.deps.tokens.claims(token);
    if (!claims) return refuse('The token is invalid or expired');
    let account: Awaited<ReturnType<RelayDeps['accounts']>>;
    try {
      account = await this.deps.accounts(claims);
    } catch (error) {
      this.deps.logger.warn('real-time sign-in: the account could not be read', { userId: claims.userId, error: error instanceof Error ? error.message : String(error) });
      account = { error: 'The account cannot be checked right now; please retry in a moment' };
    }
    if (client.authAttempt !== attempt || !this.clients.has(client)) return;
    if ('error' in account) return refuse(account.error.replace(/[.;]\s*$/, ''));
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
    if (!this.clients.delete(client)) return;
    const left = (this.perAddress.get(client.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(client.address, left);
    else this.perAddress.delete(client.address);
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

/**
 * `papertrade` when offered, and never anything else: selecting the bearer protocol would echo the
 * token in the answer (a handshake offering one without `papertrade` is refused before this).
 */
function selectProtocol(protocols: Set<string>): string | false {
  return protocols.has(REALTIME_SUBPROTOCOL) ? REALTIME_SUBPROTOCOL : false;
}

function offeredProtocols(header: string | undefined): string[] {
  return header ? header.split(',').map((p) => p.trim()) : [];
}

function bearerFromProtocols(header: string | undefined): string | undefined {
  const bearer = offeredProtocols(header).find((p) => p.startsWith(BEARER_PROTOCOL_PREFIX));
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
