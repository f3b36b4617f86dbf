/**
 * The sign-in token lives in localStorage under `authToken` (spec section 3). Storage can throw
 * (private browsing, disabled storage), so every access is guarded: no storage means no session.
 */
export const AUTH_TOKEN_KEY = 'authToken';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function getAuthToken(): string | null {
  try {
    return storage()?.getItem(AUTH_TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

export function setAuthToken(token: string): void {
  try {
    storage()?.setItem(AUTH_TOKEN_KEY, token);
  } catch {
    // Without storage the session lasts as long as the page (the cached `me`).
  }
}

export function removeAuthToken(): void {
  try {
    storage()?.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
