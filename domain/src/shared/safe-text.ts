/**
 * "Safe text": the rule every free-text field a person types (names, usernames, emails) follows on
 * top of its own format. Refused anywhere in the text:
 *
 * - control characters, `\p{Cc}` (NUL, newlines, escape sequences, DEL, C1): no place in a one-line
 *   field; they turn into log injection or broken displays;
 * - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (`\p{Zl}`, `\p{Zp}`): line breaks to
 *   JavaScript, spreadsheets and log viewers. A first name `=HYPERLINK(...)` followed by U+2028 went
 *   past the CSV writer's formula escape into the admin users CSV (issue 16 item 15);
 * - format characters, `\p{Cf}`: invisible, and they change how the text around them shows or
 *   hide text in it: bidi overrides and isolates (U+202A-202E, U+2066-2069) reorder what an admin
 *   reads, zero-width spaces and the BOM make two names look the same, soft hyphens split a word,
 *   and tag characters (U+E0000 block) carry ASCII nobody sees. Two are allowed, ZWNJ (U+200C) and
 *   ZWJ (U+200D): Persian and several Indic scripts need them to spell a name correctly, emoji
 *   sequences are joined by ZWJ, and Unicode's identifier rules (UAX #31) keep both for those
 *   reasons. Neither breaks a line nor reorders anything; the cost is that a ZWJ can sit unseen
 *   between two letters, which for a name (not unique, not used to sign in) we accept;
 * - a lone UTF-16 surrogate (`\p{Cs}` with the `u` flag): not Unicode at all. PostgreSQL refuses
 *   both NUL and lone surrogates inside JSONB, which used to surface as a 500 instead of a 400.
 *
 * Names stored before a rule existed are not re-validated: the CSV writers escape by the first
 * character whatever follows (query-api/src/csv.ts).
 */
import { z } from 'zod';

const UNSAFE = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

export const SAFE_TEXT_MESSAGE =
  'must not contain control characters (such as NUL), line or paragraph separators, invisible formatting characters or unpaired UTF-16 surrogates';

export function isSafeText(text: string): boolean {
  return !UNSAFE.test(text);
}

/** The first character safe text refuses, as `U+2028`, or undefined. */
export function firstUnsafeCharacter(text: string): string | undefined {
  const found = UNSAFE.exec(text)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A trimmed string that is safe text: start a field's chain with it. Surrounding whitespace goes
 * first (a pasted trailing newline is not worth an error); the check then aborts the checks after
 * it, so the answer names the real problem rather than "must be a valid email address", and names
 * the character it found, since most of them cannot be seen.
 */
export function safeText() {
  return z
    .string()
    .trim()
    .refine(isSafeText, { error: (issue) => `${SAFE_TEXT_MESSAGE} (found ${firstUnsafeCharacter(String(issue.input))})`, abort: true });
}
