/**
 * Starting and ending a session in the client (spec section 4). The cached `me` is the single
 * source of "who is logged in"; everything else cached may belong to the previous visitor, so it
 * is dropped (inactive queries) or reset and refetched (queries on screen).
 */
import type { Query, QueryClient } from '@tanstack/react-query';
import type { Me } from '@papertrade/domain/auth/contracts';
import { forgetLastWrite } from '../api-client';
import { removeAuthToken, setAuthToken } from './auth-token';
import { meQueryOptions } from './get-me';

const isMeQuery = (query: Query) => query.queryHash === JSON.stringify(meQueryOptions().queryKey);

async function dropOtherUsersData(queryClient: QueryClient): Promise<void> {
  const notMe = (query: Query) => !isMeQuery(query);
  await queryClient.cancelQueries({ predicate: notMe });
  queryClient.removeQueries({ predicate: (query) => notMe(query) && query.getObserversCount() === 0 });
  await queryClient.resetQueries({ predicate: notMe });
}

export async function startSession(queryClient: QueryClient, session: { token: string; user: Me }): Promise<void> {
  setAuthToken(session.token);
  queryClient.setQueryData(meQueryOptions().queryKey, session.user);
  await dropOtherUsersData(queryClient);
}

export async function endSession(queryClient: QueryClient): Promise<void> {
  removeAuthToken();
  forgetLastWrite();
  await queryClient.cancelQueries({ predicate: isMeQuery });
  queryClient.setQueryData(meQueryOptions().queryKey, null);
  await dropOtherUsersData(queryClient);
}
