/** Small helpers for the bench scripts: fixed-count concurrent runs, medians and a plain text table. */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * Runs `op(0) … op(total - 1)` with at most `concurrency` calls in flight (each worker takes the next
 * index when its previous call settles). Returns the wall time in milliseconds. The first error stops
 * the run and is rethrown.
 */
export async function runConcurrent(total: number, concurrency: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined) {
      const i = next++;
      if (i >= total) return;
      try {
        await op(i);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const elapsed = performance.now() - start;
  if (failed !== undefined) throw failed;
  return elapsed;
}

/** Wall time of one awaited call, in milliseconds, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Operations per second from a count and milliseconds. */
export const perSecond = (count: number, ms: number) => (count * 1000) / ms;

export const fmtRate = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const fmtMs = (value: number) => `${value >= 100 ? Math.round(value) : value.toFixed(1)} ms`;
export const fmtCount = (value: number) => value.toLocaleString('en-US');

/** Left-aligned first column, right-aligned others. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** a / b as "0.123x", "1.23x" or "12.3x"; "n/a" when either is not a number. */
export function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return 'n/a';
  const r = a / b;
  return `${r >= 10 ? r.toFixed(1) : r >= 1 ? r.toFixed(2) : r.toFixed(3)}x`;
}

export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}
