/**
 * What travels on the real-time socket (`/ws`): query-api's relay validates what clients send with
 * these schemas and web/ parses what the relay pushes with them, so the two cannot drift apart.
 *
 * Client -> server: `{type:'auth', token}` (the bearer token the APIs take; never in the URL) and
 * `{type:'logout'}`. Anything else gets an ERROR message; the socket stays open.
 *
 * Server -> client, always `{type, data}`:
 *   - MARKET_UPDATE  a market tick (the market slice's tick), to every socket, throttled per coin;
 *   - AUTHENTICATED  `{userId}` after a valid token; AUTH_ERROR `{message}` after a bad or expired
 *                    one (the socket stays open and public); LOGGED_OUT `{}` after a logout;
 *   - ERROR          `{message}`: the client sent something the relay does not understand;
 *   - BOT_STATUS     `{status}` to the user whose paper bot it is (spec section 4 names ACTIVE and
 *                    STOPPED; other values pass through as text);
 *   - ML_UPDATE      to the user whose model changed (to every socket for the house model, which
 *                    everyone without a model of their own sees): `{jobId, status, modelType,
 *                    accuracy}` once the ml-status read model holds the change, so the client refreshes
 *                    ml-status and finds it (domain/src/ml/ml-status-view.ts);
 *   - JOB_PROGRESS   to the user who requested a long job (workers/src/jobs/job-runner.ts): `{jobId,
 *                    kind, status, progress, message?}`, progress a fraction from 0 to 1. Not kept
 *                    anywhere: a socket that missed one waits for the next.
 *   - BACKTEST_UPDATE to the owner of a backtest or walk-forward once the `backtests` read model holds
 *                    its change (`{id, jobId, mode, status, error}`, backtest/service-contracts.ts),
 *                    so the client re-reads the run and the history and finds it.
 * Other upper-case types may be published (the relay forwards `realtime.public.<TYPE>`); a client
 * that does not know one ignores it.
 */
import { z } from 'zod';
import { marketTickSchema } from '../market/contracts';

/** Tokens are at most a few hundred characters; 8 kB is generous. */
export const MAX_REALTIME_TOKEN_LENGTH = 8192;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(MAX_REALTIME_TOKEN_LENGTH) }),
  z.strictObject({ type: z.literal('logout') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

const message = z.object({ message: z.string() });

export const marketUpdateMessageSchema = z.object({ type: z.literal('MARKET_UPDATE'), data: marketTickSchema });
export const authenticatedMessageSchema = z.object({ type: z.literal('AUTHENTICATED'), data: z.object({ userId: z.string().min(1) }) });
export const authErrorMessageSchema = z.object({ type: z.literal('AUTH_ERROR'), data: message });
export const loggedOutMessageSchema = z.object({ type: z.literal('LOGGED_OUT'), data: z.object({}) });
export const errorMessageSchema = z.object({ type: z.literal('ERROR'), data: message });
export const botStatusMessageSchema = z.object({ type: z.literal('BOT_STATUS'), data: z.object({ status: z.string().min(1).max(64) }) });
/** What ML_UPDATE says; the client reads GET /api/ml-status for the rest (fields beyond these are ignored). */
export const mlUpdateSchema = z.object({
  jobId: z.string().nullable(),
  status: z.enum(['QUEUED', 'TRAINED', 'FAILED']),
  modelType: z.string().nullable(),
  accuracy: z.number().nullable(),
});
export type MlUpdate = z.infer<typeof mlUpdateSchema>;
export const mlUpdateMessageSchema = z.object({ type: z.literal('ML_UPDATE'), data: z.unknown() });
/** A long job's progress (workers/src/jobs/job-runner.ts). */
export const jobProgressSchema = z.object({
  jobId: z.string().min(1).max(100),
  kind: z.string().min(1).max(64),
  status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
  progress: z.number().min(0).max(1),
  message: z.string().max(200).optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;
export const jobProgressMessageSchema = z.object({ type: z.literal('JOB_PROGRESS'), data: jobProgressSchema });

/** A backtest's change (its fields: backtest/service-contracts.ts backtestUpdateSchema); the client re-reads the run. */
export const backtestUpdateMessageSchema = z.object({ type: z.literal('BACKTEST_UPDATE'), data: z.unknown() });

export const serverMessageSchema = z.discriminatedUnion('type', [
  marketUpdateMessageSchema,
  authenticatedMessageSchema,
  authErrorMessageSchema,
  loggedOutMessageSchema,
  errorMessageSchema,
  botStatusMessageSchema,
  mlUpdateMessageSchema,
  jobProgressMessageSchema,
  backtestUpdateMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];

/** The relay's answers to a client's own messages (not pushes from the bus). */
export type ControlMessage = Extract<ServerMessage, { type: 'AUTHENTICATED' | 'AUTH_ERROR' | 'LOGGED_OUT' | 'ERROR' }>;

/** The bot status before any BOT_STATUS message arrived (spec section 4). */
export const DEFAULT_BOT_STATUS = 'STOPPED';
