/** Direct calls to the app's API, for arranging state faster than through the UI. */
export interface NewUser {
  email: string;
  username: string;
  password: string;
  firstName?: string;
}

let counter = 0;
export function uniqueUser(prefix: string, extra: Partial<NewUser> = {}): NewUser {
  counter += 1;
  const tag = `${prefix}${Date.now().toString(36)}${counter}`;
  return { email: `${tag}@example.com`, username: tag.slice(0, 32), password: 'correct-horse-1', ...extra };
}

/**
 * The position of the last write made through these helpers, per app (origin): sign-in reads the
 * users projection, so it sends it as X-Min-Position to read its own write, as a client should. Per
 * origin, because each browser suite starts its own app on its own store: a position of one app is
 * meaningless to (and refused by) the next one's.
 */
const lastPositions = new Map<string, string>();

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (parsed && typeof parsed === 'object' && 'position' in parsed && typeof parsed.position === 'string') lastPositions.set(new URL(base).origin, parsed.position);
  return parsed;
}

export async function signUpViaApi(base: string, user: NewUser): Promise<{ userId: string; position: string }> {
  return (await call(base, 'POST', '/api/auth/signup', { ...user, confirmPassword: user.password })) as { userId: string; position: string };
}

export async function logInViaApi(base: string, email: string, password: string): Promise<string> {
  const lastPosition = lastPositions.get(new URL(base).origin);
  const body = (await call(base, 'POST', '/api/auth/login', { email, password }, lastPosition ? { 'X-Min-Position': lastPosition } : {})) as { token: string };
  return body.token;
}

export async function getViaApi(base: string, path: string, headers: Record<string, string> = {}): Promise<unknown> {
  return call(base, 'GET', path, undefined, headers);
}

/** Any call as a signed-in user (bearer token); the answer's position is remembered like the others. */
export async function callAs(base: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const lastPosition = lastPositions.get(new URL(base).origin);
  return call(base, method, path, body, { Authorization: `Bearer ${token}`, ...(lastPosition ? { 'X-Min-Position': lastPosition } : {}) });
}
