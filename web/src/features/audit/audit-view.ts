/** Pure helpers of the Audit tab (unit-tested in audit-view.unit.spec.ts). */
import type { AuditEvent } from '@papertrade/domain/audit/contracts';

/**
 * A `datetime-local` input's value (local time, no zone) as an ISO instant, or null when it is
 * empty or not a date. The browser's zone is the auditor's: what they typed is what they mean.
 */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The asOf asked for by a `datetime-local` value the auditor reads to the second: "as of 12:00:00"
 * takes in everything shown as 12:00:00, i.e. up to 12:00:00.999 (milliseconds typed are kept as
 * they are), and never a time after `now` (the server refuses a future asOf; the default, now shown
 * to the second, means now). null when the value is not a date-time.
 */
export function asOfFromInput(value: string, now: Date): string | null {
  const start = localInputToIso(value);
  if (start === null) return null;
  const typedMillis = /\.\d{1,3}$/.test(value);
  const end = typedMillis ? Date.parse(start) : Date.parse(start) + 999;
  return new Date(Math.min(end, now.getTime())).toISOString();
}

/** An instant as a `datetime-local` value in local time (to the second). */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** One line saying what an event did, from its data (the full data is in the row's details). */
export function summariseEvent(event: Pick<AuditEvent, 'type' | 'data'>): string {
  const d = event.data;
  const str = (key: string) => (typeof d[key] === 'string' || typeof d[key] === 'number' ? String(d[key]) : '');
  switch (event.type) {
    case 'SimulatedTradePlaced':
      return `${str('side')} ${str('quantity')} ${str('symbol')} @ ${str('price')}`;
    case 'PositionClosed':
      return `${str('reason')} ${str('quantity')} ${str('symbol')} @ ${str('price')}`;
    case 'SubscriptionChangedByAdmin':
      return `${str('previousTier')}/${str('previousStatus')} -> ${str('tier')}/${str('status')}`;
    default: {
      const keys = Object.keys(d).filter((k) => k !== 'userId');
      return keys.slice(0, 3).map((k) => `${k}: ${typeof d[k] === 'object' ? JSON.stringify(d[k]) : String(d[k])}`).join(', ');
    }
  }
}

export const pageLabel = (page: number, totalPages: number, total: number) => `Page ${page} of ${totalPages} (${total} events)`;
