/**
 * POST /api/auth/logout (204), then the session ends whatever the server said: the token goes,
 * the cached data goes, and the app returns to `/`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { apiRequest } from '../api-client';
import { endSession } from './session';

export const LOGOUT_PATH = '/api/auth/logout';

export async function logout(): Promise<void> {
  await apiRequest('POST', LOGOUT_PATH);
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSettled: async () => {
      await endSession(queryClient);
      await navigate('/');
    },
  });
}
