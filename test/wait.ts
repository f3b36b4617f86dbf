/**
 * Tests wait for a condition, never for a fixed time: a fixed sleep is either too short on a busy
 * machine (a flaky failure) or longer than needed everywhere else. The deadline is only a bound on
 * how long a broken build makes the suite hang, never an assertion about speed.
 */

export interface WaitOptions {
  /** Give up (and fail with `message`) after this long. */
  timeoutMs?: number;
  /** How often the condition is checked. */
  intervalMs?: number;
  message?: string;
}

/** Resolves with the first truthy value of `condition`; rejects when the deadline passes first. */
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, intervalMs = 10, message = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error; // e.g. a server not listening yet: try again until the deadline
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
