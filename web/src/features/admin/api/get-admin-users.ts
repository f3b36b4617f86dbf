/**
 * GET /api/admin/users (admins and auditors): one page of users, newest first, filtered by a search
 * (a prefix of the email, username or name, matched by the server) and optionally tier and status.
 * The body is the contract's array of users; the number of matches is in X-Total-Count.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminUsersResponseSchema, type AdminUser } from '@papertrade/domain/admin/contracts';
import { ContractError, apiRequest, readJson } from '../../../lib/api-client';
import { downloadCsv } from '../../../lib/download-file';

export const ADMIN_USERS_PATH = '/api/admin/users';
export const ADMIN_USERS_QUERY_ROOT = [ADMIN_USERS_PATH] as const;
export const ADMIN_USERS_PAGE_SIZE = 20;

export interface AdminUsersParams {
  q: string;
  page: number;
}

export interface AdminUsersPage {
  users: AdminUser[];
  total: number;
}

export async function getAdminUsers({ q, page }: AdminUsersParams, signal?: AbortSignal): Promise<AdminUsersPage> {
  const query = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_USERS_PAGE_SIZE) });
  if (q.trim()) query.set('q', q.trim());
  const path = `${ADMIN_USERS_PATH}?${query}`;
  const res = await apiRequest('GET', path, undefined, { signal });
  const total = Number(res.headers.get('X-Total-Count'));
  if (!Number.isInteger(total) || total < 0) throw new ContractError(path, 'X-Total-Count missing or not a count');
  return { users: await readJson(res, adminUsersResponseSchema, path), total };
}

export function adminUsersQueryOptions(params: AdminUsersParams, enabled: boolean) {
  return queryOptions({
    queryKey: [...ADMIN_USERS_QUERY_ROOT, params],
    queryFn: ({ signal }) => getAdminUsers(params, signal),
    // The table keeps the previous page while the next one (or a new search) loads.
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAdminUsers(params: AdminUsersParams, enabled: boolean) {
  return useQuery(adminUsersQueryOptions(params, enabled));
}

/**
 * Downloads the CSV of every user matching the search (not only the page on screen; the server caps
 * an export at 10,000 rows), fetched with the bearer token and saved under the server's file name.
 */
export async function downloadAdminUsersCsv(q: string): Promise<string> {
  const query = new URLSearchParams({ format: 'csv' });
  if (q.trim()) query.set('q', q.trim());
  const res = await apiRequest('GET', `${ADMIN_USERS_PATH}?${query}`);
  const filename = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'users.csv';
  downloadCsv(filename, await res.text());
  return filename;
}
