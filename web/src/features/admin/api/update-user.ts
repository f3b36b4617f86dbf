/**
 * PUT /api/admin/users/{id} (admins): username, email, names, tier and status. Success refetches the
 * user list and the stats (spec section 4); the dialog closes in the caller.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { AdminUpdateUserRequest } from '@papertrade/domain/admin/contracts';
import { sendJson } from '../../../lib/api-client';
import { ADMIN_STATS_QUERY_ROOT } from './get-admin-stats';
import { ADMIN_USERS_PATH, ADMIN_USERS_QUERY_ROOT } from './get-admin-users';

const commandResponseSchema = z.object({ id: z.string(), position: z.string().nullable() });

export function updateUser(id: string, changes: AdminUpdateUserRequest) {
  return sendJson('PUT', `${ADMIN_USERS_PATH}/${encodeURIComponent(id)}`, changes, commandResponseSchema);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: AdminUpdateUserRequest }) => updateUser(id, changes),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_ROOT }),
        queryClient.invalidateQueries({ queryKey: ADMIN_STATS_QUERY_ROOT }),
      ]);
    },
  });
}
