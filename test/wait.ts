/**
 * Tests wait for a condition, never for a fixed time: a fixed sleep is either too short on a busy
 * machine (a flaky failure) or longer than needed everywhere else. The deadline is only a bound on
 * how long a broken build makes the suite hang, never an assertion about speed.
 *
 * WAIT_TIMEOUT_SCALE stretches every deadline: the mutation run (stryker.config.mjs) sets it, because
 * its initial run counts coverage at every statement and the market's path runs many times slower
 * there (a fresh feed's first ticks of 2025 computed each day's level since 2020 in more than 10 s).
 */
const SCALE = Number(process.env.WAIT_TIMEOUT_SCALE) > 0 ? Number(process.env.WAIT_TIMEOUT_SCALE) : 1;

export interface WaitOptions {
  /** Give up (and fail with `message`) after this long. */
  timeoutMs?: number;
  /** How often the condition is checked. */
  intervalMs?: number;
  message?: string;
}

/** Resolves with the first truthy value of `condition`; rejects when the deadline passes first. */
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { intervalMs = 10, message = 'condition' } = options;
  const timeoutMs = (options.timeoutMs ?? 10_000) * SCALE;
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
