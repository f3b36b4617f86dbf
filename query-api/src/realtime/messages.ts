/**
 * What travels on the real-time socket (`/ws`), as the relay sees it.
 *
 * The bus subjects that feed it (`realtime.user.<userId>.<TYPE>`, `realtime.public.<TYPE>`, and
 * `userRealtimeSubject` / `publicRealtimeSubject` for publishers) are the domain's
 * `@papertrade/domain/realtime/subjects`, so workers and projectors publish without importing this
 * service. The messages themselves (client -> server auth/logout, server -> client MARKET_UPDATE,
 * AUTHENTICATED, AUTH_ERROR, LOGGED_OUT, ERROR, BOT_STATUS, ML_UPDATE) are the domain contract
 * `@papertrade/domain/realtime/contracts`, shared with web/.
 */
export { clientMessageSchema, type ClientMessage, type ControlMessage, type ServerMessage } from '@papertrade/domain/realtime/contracts';

/**
 * A frame as the relay forwards it: a push from the bus may carry any upper-case type (clients
 * ignore the ones they do not know), so its data is whatever the publisher sent.
 */
export interface RelayFrame {
  type: string;
  data: unknown;
}
