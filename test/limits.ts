/**
 * Every test and bench client signs up and signs in from 127.0.0.1, so the per-address limits of a
 * real deployment (20 attempts a minute, 10 sign-ups an hour) are lifted where a suite is not about
 * them. The per-account limits stay as configured: the suites that test limits set their own.
 */
export const LOOPBACK_LIMITS: Record<string, string> = {
  LOGIN_MAX_ATTEMPTS_PER_IP: '1000000',
  SIGNUP_MAX_PER_IP: '1000000',
};
