/**
 * "Safe text": the rule every free-text field a person types (names, usernames, emails) follows on
 * top of its own format. Control characters (NUL, newlines, escape sequences, C1) have no place in a
 * one-line field and turn into log injection or broken displays; a lone UTF-16 surrogate is not
 * Unicode at all, and PostgreSQL refuses both NUL and lone surrogates inside JSONB, which used to
 * surface as a 500 instead of a 400 naming the field.
 */
import { z } from 'zod';

/** `\p{Cc}`: C0 controls (NUL included), DEL, C1. `\p{Cs}` with the `u` flag: only unpaired surrogates. */
const UNSAFE = /[\p{Cc}\p{Cs}]/u;

export const SAFE_TEXT_MESSAGE = 'must not contain control characters (such as NUL) or unpaired UTF-16 surrogates';

export function isSafeText(text: string): boolean {
  return !UNSAFE.test(text);
}

/**
 * A trimmed string that is safe text: start a field's chain with it. Surrounding whitespace goes
 * first (a pasted trailing newline is not worth an error); the check then aborts the checks after
 * it, so the answer names the real problem rather than "must be a valid email address".
 */
export function safeText() {
  return z.string().trim().refine(isSafeText, { message: SAFE_TEXT_MESSAGE, abort: true });
}
