/**
 * AES-256-GCM for secrets at rest. Each encryption draws a fresh random 96-bit IV (so the same
 * secret saved twice gives two different ciphertexts), binds the record to its reference as
 * additional authenticated data (a ciphertext copied under another reference does not decrypt),
 * and keeps the 128-bit authentication tag: a record changed by one bit, or read with another key,
 * fails to decrypt rather than yielding garbage.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretsKeyId } from './secrets-key';

export interface SealedSecret {
  /** Format version of this record. */
  v: 1;
  alg: 'AES-256-GCM';
  /** Which key sealed it (secretsKeyId), to say so when another key is tried. */
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export class SecretDecryptionError extends Error {}

export function seal(key: Buffer, plaintext: string, aad: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { v: 1, alg: 'AES-256-GCM', keyId: secretsKeyId(key), iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') };
}

export function open(key: Buffer, sealed: SealedSecret, aad: string): string {
  if (sealed.v !== 1 || sealed.alg !== 'AES-256-GCM') throw new SecretDecryptionError(`unknown secret record format ${String(sealed.v)}/${String(sealed.alg)}`);
  if (sealed.keyId !== secretsKeyId(key)) throw new SecretDecryptionError(`the secret was encrypted under another SECRETS_KEY (key id ${sealed.keyId})`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError('the secret record failed authentication (changed, or sealed under another key or reference)');
  }
}
