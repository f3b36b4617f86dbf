/**
 * The one HTTP client of the web app (spec sections 7 and 8):
 * - cookies are sent (`credentials: 'include'`), a bearer header when a token is stored, a JSON
 *   content type when there is a body;
 * - a non-OK answer raises an `ApiError` whose message is `status: body-text` (the status text when
 *   the body is empty); when the body is an RFC 7807 problem its `detail` is kept for toasts;
 * - a 401 on any request removes the stored token and tells the listeners (the auth provider sets
 *   the cached `me` to null, so the UI is logged out at once).
 */
import type { z } from 'zod';
import type { Problem } from '@papertrade/domain/auth/contracts';
import { getAuthToken, removeAuthToken } from './auth/auth-token';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
    readonly problem: Problem | null,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }
}

/** The response did not match the contract: a server/client drift, reported as such. */
export class ContractError extends Error {
  override readonly name = 'ContractError';

  constructor(path: string, issues: string) {
    super(`Unexpected response from ${path}: ${issues}`);
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Subscribe to "a request answered 401"; returns the unsubscribe function. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

/**
 * Error bodies are checked against the contract's problem schema. The contracts (and zod with them)
 * are imported on the error path only, so the initial bundle of every page stays free of zod.
 */
async function parseProblem(text: string): Promise<Problem | null> {
  if (!text) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const { problemSchema } = await import('@papertrade/domain/auth/contracts');
  const parsed = problemSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  if (res.status === 401) {
    removeAuthToken();
    for (const listener of [...unauthorizedListeners]) listener();
  }
  let text = '';
  try {
    text = await res.text();
  } catch {
    // An unreadable body reads as empty: the status text stands in.
  }
  throw new ApiError(res.status, text, res.statusText, await parseProblem(text));
}

/**
 * Read-your-writes (DESIGN.md section 2): a command answers the global position of its last event;
 * requests sent shortly after carry it as `X-Min-Position`, so the query side waits (at most 2 s)
 * until its read models include that write. The window keeps a position from a store that has since
 * been reset from slowing every later request down; it lives in memory, so a reload forgets it.
 */
export const READ_YOUR_WRITES_WINDOW_MS = 10_000;
let lastWrite: { position: string; at: number } | null = null;

async function rememberPosition(res: Response): Promise<void> {
  if (!res.headers.get('Content-Type')?.includes('json')) return;
  try {
    const body: unknown = await res.clone().json();
    if (body && typeof body === 'object' && 'position' in body && typeof body.position === 'string') {
      lastWrite = { position: body.position, at: Date.now() };
    }
  } catch {
    // Not JSON after all: nothing to remember.
  }
}

function minPosition(): string | null {
  if (lastWrite && Date.now() - lastWrite.at > READ_YOUR_WRITES_WINDOW_MS) lastWrite = null;
  return lastWrite?.position ?? null;
}

/** For tests and sign-out: forget the last write. */
export function forgetLastWrite(): void {
  lastWrite = null;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

/** Sends a request and returns the OK response; raises `ApiError` otherwise. */
export async function apiRequest(method: string, url: string, data?: unknown, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (data !== undefined) headers['Content-Type'] = 'application/json';
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const position = minPosition();
  if (position) headers['X-Min-Position'] = position;
  const res = await fetch(url, {
    method,
    headers,
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfResNotOk(res);
  if (method !== 'GET') await rememberPosition(res);
  return res;
}

/** Reads a JSON body and validates it against its contract. */
export async function readJson<S extends z.ZodType>(res: Response, schema: S, path: string): Promise<z.output<S>> {
  const body: unknown = await res.json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ContractError(path, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; '));
  }
  return parsed.data;
}

/** GET a path and validate the JSON answer. */
export async function getJson<S extends z.ZodType>(path: string, schema: S, options: RequestOptions = {}): Promise<z.output<S>> {
  const res = await apiRequest('GET', path, undefined, options);
  return readJson(res, schema, path);
}

/** Send a body (or none) and validate the JSON answer. */
export async function sendJson<S extends z.ZodType>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data: unknown, schema: S): Promise<z.output<S>> {
  const res = await apiRequest(method, path, data);
  return readJson(res, schema, path);
}

/** The path of a default reading call: the query key's segments joined by '/'. */
export function pathFromQueryKey(queryKey: readonly unknown[]): string {
  return queryKey.map(String).join('/');
}

/**
 * The default query function: GET the joined key and parse JSON (no contract). Every feature
 * query passes its own contract-checked `queryFn`; this is the fallback the spec describes.
 */
export function getQueryFn(options: { on401: 'returnNull' | 'throw' }) {
  return async ({ queryKey, signal }: { queryKey: readonly unknown[]; signal?: AbortSignal }): Promise<unknown> => {
    try {
      const res = await apiRequest('GET', pathFromQueryKey(queryKey), undefined, { signal });
      return (await res.json()) as unknown;
    } catch (error) {
      if (options.on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };
}

/**
 * What a toast says about a failed call: the problem's `detail` when the server sent one, else the
 * error's message, else the caller's fallback.
 */
export function describeError(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.problem?.detail) return error.problem.detail;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
