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

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

export async function signUpViaApi(base: string, user: NewUser): Promise<{ userId: string; position: string }> {
  return (await call(base, 'POST', '/api/auth/signup', { ...user, confirmPassword: user.password })) as { userId: string; position: string };
}

export async function logInViaApi(base: string, email: string, password: string): Promise<string> {
  const body = (await call(base, 'POST', '/api/auth/login', { email, password })) as { token: string };
  return body.token;
}

export async function getViaApi(base: string, path: string, headers: Record<string, string> = {}): Promise<unknown> {
  return call(base, 'GET', path, undefined, headers);
}
