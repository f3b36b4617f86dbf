/** POST /api/auth/signup -> 201 {userId, position}; the body is not used beyond a successful parse. */
import { useMutation } from '@tanstack/react-query';
import { signupResponseSchema, type SignupRequest, type SignupResponse } from '@papertrade/domain/auth/contracts';
import { sendJson } from '../../../lib/api-client';

export const SIGNUP_PATH = '/api/auth/signup';

export function signup(request: SignupRequest): Promise<SignupResponse> {
  return sendJson('POST', SIGNUP_PATH, request, signupResponseSchema);
}

export function useSignup(options: { onSuccess?: (response: SignupResponse) => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: signup,
    onSuccess: (response) => options.onSuccess?.(response),
    onError: (error) => options.onError?.(error),
  });
}
