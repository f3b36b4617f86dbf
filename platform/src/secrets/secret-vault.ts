/**
 * Exchange credentials at rest: one document per saved set of keys in the private collection
 * `_exchange-secrets` of the document store, holding only the sealed record (secret-box.ts) and whose
 * it is. Events name the document (`secretRef`) and never hold the keys. No projection writes this
 * collection and no query-api route reads it (it is not a read model); command-api writes it when keys are saved and
 * reads it to test a connection; the testnet mirror (workers) reads it to send an order.
 */
import { randomUUID } from 'node:crypto';
import type { Collection, DocumentStore } from '../document-store/document-store';
import { open, seal, type SealedSecret } from './secret-box';
import { secretsKeyId } from './secrets-key';

export const EXCHANGE_SECRETS_COLLECTION = '_exchange-secrets';

export interface ExchangeCredentials {
  apiKey: string;
  secret: string;
  /** Coinbase Exchange's passphrase. */
  passphrase?: string;
}

type SecretDocument = { ref: string; userId: string; exchangeId: string; sealed: SealedSecret; createdAt: string } & Record<string, unknown>;

const aadOf = (ref: string, userId: string, exchangeId: string) => `exchange-credentials\n${ref}\n${userId}\n${exchangeId}`;

export class SecretVault {
  private readonly docs: Collection<SecretDocument>;

  constructor(
    documents: DocumentStore,
    private readonly key: Buffer,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.docs = documents.collection<SecretDocument>(EXCHANGE_SECRETS_COLLECTION);
  }

  /** Seals `credentials` under a new reference (a fresh IV every time) and returns the reference. */
  async store(userId: string, exchangeId: string, credentials: ExchangeCredentials): Promise<string> {
    const ref = randomUUID();
    const sealed = seal(this.key, JSON.stringify(credentials), aadOf(ref, userId, exchangeId));
    await this.docs.put(ref, { ref, userId, exchangeId, sealed, createdAt: this.clock().toISOString() });
    return ref;
  }

  /** The credentials `ref` names, for that user and exchange only; undefined when there is no such record. */
  async read(ref: string, userId: string, exchangeId: string): Promise<ExchangeCredentials | undefined> {
    const doc = await this.docs.get(ref);
    if (!doc || doc.ref !== ref || doc.userId !== userId || doc.exchangeId !== exchangeId) return undefined;
    return JSON.parse(open(this.key, doc.sealed, aadOf(ref, userId, exchangeId))) as ExchangeCredentials;
  }

  /** Forgets a record (keys replaced by newer ones are not kept). */
  async remove(ref: string): Promise<void> {
    await this.docs.delete(ref);
  }

  /**
   * Re-encrypts every record sealed under `this` vault's key with `next` (a fresh IV each); records
   * already under `next` are left as they are, so a rotation cut short can be run again. Returns the counts.
   */
  async rotateTo(next: Buffer): Promise<{ rotated: number; alreadyRotated: number }> {
    const nextId = secretsKeyId(next);
    const all = await this.docs.find({});
    let rotated = 0;
    let alreadyRotated = 0;
    for (const doc of all) {
      const { ref } = doc;
      if (doc.sealed.keyId === nextId) {
        alreadyRotated++;
        continue;
      }
      const aad = aadOf(ref, doc.userId, doc.exchangeId);
      const plaintext = open(this.key, doc.sealed, aad);
      await this.docs.put(ref, { ...doc, sealed: seal(next, plaintext, aad) });
      rotated++;
    }
    return { rotated, alreadyRotated };
  }
}
