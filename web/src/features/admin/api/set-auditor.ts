/** PUT /api/admin/users/{id}/auditor {auditor} (admins): grants or revokes the read-only auditor role. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { sendJson } from '../../../lib/api-client';
import { ADMIN_USERS_PATH, ADMIN_USERS_QUERY_ROOT } from './get-admin-users';

const responseSchema = z.object({ id: z.string(), isAuditor: z.boolean(), position: z.string().nullable() });

export function setAuditor(id: string, auditor: boolean) {
  return sendJson('PUT', `${ADMIN_USERS_PATH}/${encodeURIComponent(id)}/auditor`, { auditor }, responseSchema);
}

export function useSetAuditor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, auditor }: { id: string; auditor: boolean }) => setAuditor(id, auditor),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_ROOT }),
  });
}
