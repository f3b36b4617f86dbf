/**
 * Bearer tokens: JWT HS256 (pinned on verify), claims `sub` (a user id, a UUID), `exp` (24 h,
 * required) and optionally `pos`: a position of the event store at which the account existed, so a
 * query-api that does not know the user yet (a sign-in right after sign-up) can wait for its users
 * projection to get there instead of answering that the account does not exist.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
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

/**
 * Tokens verified lately, by their exact text. A token is sent with every request of a session, and
 * checking its HMAC and parsing it cost about as much as the rest of a small command: the text of a
 * token that verified once verifies again with the same key, so only its expiry is checked again.
 * Only tokens that verified are kept (a stranger's garbage cannot fill the cache), and an entry
 * never outlives its `exp`.
 */
export const VERIFIED_TOKEN_CACHE_ENTRIES = 10_000;

export interface TokenClaims {
  userId: string;
  /** Where the account is known to exist in the event store (absent in older tokens). */
  position?: Position;
}

export class TokenService {
  /** A KeyObject made once: given a string, jsonwebtoken tries to parse it as a public key on every verify. */
  private readonly key: KeyObject;
  private readonly verified = new LRUCache<string, { claims: TokenClaims; exp: number }>({ max: VERIFIED_TOKEN_CACHE_ENTRIES });

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
    const nowSeconds = Math.floor(this.clock().getTime() / 1000);
    const known = this.verified.get(token);
    if (known) {
      // jsonwebtoken's rule: expired once the clock reaches exp.
      if (nowSeconds < known.exp) return known.claims;
      this.verified.delete(token);
      return null;
    }
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'], clockTimestamp: nowSeconds });
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) return null;
      const claims: TokenClaims = parsed.data.pos === undefined ? { userId: parsed.data.sub } : { userId: parsed.data.sub, position: parsed.data.pos };
      this.verified.set(token, { claims, exp: parsed.data.exp });
      return claims;
    } catch {
      return null;
    }
  }

  /** The user id, or null for a missing, malformed, forged or expired token. */
  verify(token: string): string | null {
    return this.claims(token)?.userId ?? null;
  }
}
