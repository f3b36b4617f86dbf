/**
 * The bus subjects that feed the real-time socket (`/ws`): publishers (workers, projectors) name a
 * subject with these, and query-api's relay routes what it receives with `routeRealtimeSubject`. They
 * live here, beside the socket's message contracts (contracts.ts), so a publisher does not import
 * the relay's service to reach them.
 *
 * Subjects (all notices, at most once, like everything on the bus):
 *   - `market.tick.<coinId>`              a market feed tick (../market/contracts.ts) -> MARKET_UPDATE, to every socket, throttled
 *   - `realtime.public.<TYPE>`            any public push (payload = `data`) -> `{ type: TYPE, data }`, to every socket
 *   - `realtime.user.<userId>.<TYPE>`     a private push (BOT_STATUS, ML_UPDATE, ...) -> `{ type: TYPE, data }`,
 *                                         only to the sockets authenticated as that user
 * A publisher calls `userRealtimeSubject(userId, 'BOT_STATUS')`. TYPE is an upper-case message type;
 * a subject with a user id that is not a UUID or a type that is not upper-case is dropped by the relay
 * (and refused here when built), so a wrong publisher cannot reach anyone by accident.
 */
import { z } from 'zod';

export const REALTIME_SUBJECT_PREFIX = 'realtime';
/** Every private push: `realtime.user.<userId>.<TYPE>`. */
export const USER_REALTIME_SUBJECTS = `${REALTIME_SUBJECT_PREFIX}.user.*.*`;
/** Every public push: `realtime.public.<TYPE>`. */
export const PUBLIC_REALTIME_SUBJECTS = `${REALTIME_SUBJECT_PREFIX}.public.*`;

const messageType = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an upper-case message type such as BOT_STATUS');
const userId = z.uuid();

export type MessageType = 'BOT_STATUS' | 'ML_UPDATE' | 'JOB_PROGRESS' | (string & {});

/** The subject on which to publish a push for one user's sockets only. */
export function userRealtimeSubject(user: string, type: MessageType): string {
  userId.parse(user);
  messageType.parse(type);
  return `${REALTIME_SUBJECT_PREFIX}.user.${user}.${type}`;
}

/** The subject on which to publish a push for every socket. */
export function publicRealtimeSubject(type: MessageType): string {
  messageType.parse(type);
  return `${REALTIME_SUBJECT_PREFIX}.public.${type}`;
}

export type RoutedSubject = { audience: 'user'; userId: string; type: string } | { audience: 'public'; type: string } | null;

/** Who a `realtime.*` subject is for, or null when it is not one we serve. */
export function routeRealtimeSubject(subject: string): RoutedSubject {
  const parts = subject.split('.');
  if (parts[0] !== REALTIME_SUBJECT_PREFIX) return null;
  if (parts[1] === 'user' && parts.length === 4) {
    const [, , user, type] = parts as [string, string, string, string];
    if (!userId.safeParse(user).success || !messageType.safeParse(type).success) return null;
    return { audience: 'user', userId: user.toLowerCase(), type };
  }
  if (parts[1] === 'public' && parts.length === 3) {
    const type = parts[2]!;
    return messageType.safeParse(type).success ? { audience: 'public', type } : null;
  }
  return null;
}
