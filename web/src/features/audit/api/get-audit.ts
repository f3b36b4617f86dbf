/**
 * The audit reads (admins and auditors): a user's timeline page, and the portfolio and subscription
 * rebuilt as of a time. Shapes from domain/src/audit/contracts.ts, checked on arrival.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { portfolioAsOfResponseSchema, subscriptionAsOfResponseSchema, timelineResponseSchema } from '@papertrade/domain/audit/contracts';
import { apiRequest, getJson } from '../../../lib/api-client';
import { saveCsvFile } from '../../../lib/save-file';

export const AUDIT_TIMELINE_PAGE_SIZE = 25;

const userPath = (userId: string) => `/api/audit/users/${encodeURIComponent(userId)}`;

export function timelineQueryOptions(userId: string, page: number) {
  return queryOptions({
    queryKey: ['/api/audit/users', userId, 'timeline', page] as const,
    queryFn: ({ signal }) =>
      getJson(`${userPath(userId)}/timeline?${new URLSearchParams({ page: String(page), pageSize: String(AUDIT_TIMELINE_PAGE_SIZE) })}`, timelineResponseSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function portfolioAsOfQueryOptions(userId: string, asOf: string) {
  return queryOptions({
    queryKey: ['/api/audit/users', userId, 'portfolio', asOf] as const,
    queryFn: ({ signal }) => getJson(`${userPath(userId)}/portfolio?${new URLSearchParams({ asOf })}`, portfolioAsOfResponseSchema, { signal }),
  });
}

export function subscriptionAsOfQueryOptions(userId: string, asOf: string) {
  return queryOptions({
    queryKey: ['/api/audit/users', userId, 'subscription', asOf] as const,
    queryFn: ({ signal }) => getJson(`${userPath(userId)}/subscription?${new URLSearchParams({ asOf })}`, subscriptionAsOfResponseSchema, { signal }),
  });
}

export const useTimeline = (userId: string, page: number) => useQuery({ ...timelineQueryOptions(userId, page), enabled: userId !== '' });
export const usePortfolioAsOf = (userId: string, asOf: string | null) => useQuery({ ...portfolioAsOfQueryOptions(userId, asOf ?? ''), enabled: userId !== '' && asOf !== null });
export const useSubscriptionAsOf = (userId: string, asOf: string | null) => useQuery({ ...subscriptionAsOfQueryOptions(userId, asOf ?? ''), enabled: userId !== '' && asOf !== null });

/** The CSV of one timeline page, as the server writes it. */
export const timelineCsvUrl = (userId: string, page: number) =>
  `${userPath(userId)}/timeline?${new URLSearchParams({ page: String(page), pageSize: String(AUDIT_TIMELINE_PAGE_SIZE), format: 'csv' })}`;

/**
 * Downloads that CSV. Fetched with the bearer token (a plain link would not send it: the token lives
 * in the page, not in a cookie), then handed to the browser as a file.
 */
export async function downloadTimelineCsv(userId: string, page: number): Promise<string> {
  const res = await apiRequest('GET', timelineCsvUrl(userId, page));
  const filename = `timeline-${userId}-page-${page}.csv`;
  saveCsvFile(await res.text(), filename);
  return filename;
}
