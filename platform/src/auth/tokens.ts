/**
 * Bearer tokens: JWT HS256 (pinned on verify), claims `sub` (a user id, a UUID), `exp` (24 h,
 * required) and optionally `pos`: a position of the event store at which the account existed, so a
 * query-api that does not know the user yet (a sign-in right after sign-up) can wait for its users
 * projection to get there instead of answering that the account does not exist.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { positionSchema, type Position } from '../event-store/position';

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * What a token we issued holds. Checked after the signature, because a leaked or mis-set secret must
 * not turn into a 500 either: a subject that is not a UUID (a NUL in it used to reach the database)
 * or a token that never expires is refused like a forged one. jsonwebtoken checks `exp` only when
 * it is present, hence `exp` required here.
 */
const claimsSchema = z.object({ sub: z.uuid(), exp: z.number(), pos: positionSchema.optional() });

export interface TokenClaims {
  userId: string;
  /** Where the account is known to exist in the event store (absent in older tokens). */
  position?: Position;
}

export class TokenService {
  /** A KeyObject made once: given a string, jsonwebtoken tries to parse it as a public key on every verify. */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(userId: string, options: { position?: Position | undefined } = {}): string {
    // A programming error, not bad input: a plain Error, so it is a 500 that reaches the log.
    if (!claimsSchema.shape.sub.safeParse(userId).success) throw new Error('TokenService.issue: the user id must be a UUID');
    const now = Math.floor(this.clock().getTime() / 1000);
    const pos = options.position === undefined ? {} : { pos: positionSchema.parse(options.position) };
    return jwt.sign({ sub: userId, iat: now, exp: now + TOKEN_TTL_SECONDS, ...pos }, this.key, { algorithm: 'HS256' });
  }

  /** The claims, or null for a missing, malformed, forged or expired token. */
  claims(token: string): TokenClaims | null {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'], clockTimestamp: Math.floor(this.clock().getTime() / 1000) });
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) return null;
      return parsed.data.pos === undefined ? { userId: parsed.data.sub } : { userId: parsed.data.sub, position: parsed.data.pos };
    } catch {
      return null;
    }
  }

  /** The user id, or null for a missing, malformed, forged or expired token. */
  verify(token: string): string | null {
    return this.claims(token)?.userId ?? null;
  }
}
