/** POST /api/auth/login {email, password} -> {token, user}; success starts the session. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@papertrade/domain/auth/contracts';
import { apiRequest, readJson } from '../../../lib/api-client';
import { startSession } from '../../../lib/auth/session';

export const LOGIN_PATH = '/api/auth/login';

/** The contract (and zod) load with the first submit, so the sign-in form itself stays light. */
export async function login(request: LoginRequest): Promise<LoginResponse> {
  const [{ loginResponseSchema }, res] = await Promise.all([import('@papertrade/domain/auth/contracts'), apiRequest('POST', LOGIN_PATH, request)]);
  return readJson(res, loginResponseSchema, LOGIN_PATH);
}

export function useLogin(options: { onSuccess?: (response: LoginResponse) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async (response) => {
      await startSession(queryClient, response);
      options.onSuccess?.(response);
    },
    onError: (error) => options.onError?.(error),
  });
}
