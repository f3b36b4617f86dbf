/** Bearer tokens: JWT HS256 (pinned on verify), claims `sub` and `exp` (24 h). */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

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

  issue(userId: string): string {
    const now = Math.floor(this.clock().getTime() / 1000);
    return jwt.sign({ sub: userId, iat: now, exp: now + TOKEN_TTL_SECONDS }, this.key, { algorithm: 'HS256' });
  }

  /** The user id, or null for a missing, malformed, forged or expired token. */
  verify(token: string): string | null {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'], clockTimestamp: Math.floor(this.clock().getTime() / 1000) });
      const parsed = z.object({ sub: z.string().min(1) }).safeParse(payload);
      return parsed.success ? parsed.data.sub : null;
    } catch {
      return null;
    }
  }
}
