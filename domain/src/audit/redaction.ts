/**
 * The one place that decides what an auditor may not see. Every audit answer (HTTP, CLI) passes the
 * events it shows through `redactSecrets`, so a password hash, a token or a key that some event
 * carries (today `UserRegistered.passwordHash`; tomorrow perhaps a Stripe secret) never leaves the
 * store by this route, whoever added the field and wherever it is nested.
 *
 * The rule is by field name, not by event type, so a new event needs no change here: any key whose
 * name contains password, passphrase, secret, token, hash, apikey/api_key, privatekey/private_key,
credential or an exchange's key (binanceKey, coinbaseKey, krakenKey, exchangeKey; any case)
 * has its value replaced by REDACTED. It errs on the side of hiding: `requestHash` (a digest of a
 * command body) is hidden too, which costs an auditor nothing.
 */
export const REDACTED = '[redacted]';

// Exchange credentials (issue 21): the API settings name keys by exchange (binanceKey, coinbaseKey),
// Coinbase Exchange's keys have a passphrase; any `credential(s)` field is one by name.
const SECRET_FIELD = /password|passphrase|secret|token|hash|api_?key|private_?key|credential|(?:binance|coinbase|kraken|exchange)_?key/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/** A deep copy of a JSON value with every secret field's value replaced by REDACTED. */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T;
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = isSecretField(key) ? REDACTED : redact(inner);
    return out;
  }
  return value;
}
