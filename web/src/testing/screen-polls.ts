/**
 * What a screen polls, read from the screen itself rather than from a table kept beside it: the
 * screen is rendered to HTML (react-dom/server, no browser) inside the shell's frame, the way the
 * route table mounts it, with a QueryClient that records the options of every query its components
 * mount (./screen-render.tsx). Each query's own function then runs once against a recording `fetch`
 * to learn the call it makes, so a spec reads "GET /api/risk/alerts every 10 s" from the code that
 * will run.
 *
 * How react-query polls one query that several mounted components observe with different
 * intervals: each observer keeps its own timer, and every update of the query (a fetch starting or
 * ending) restarts all of them (QueryObserver.onQueryUpdate), so the shortest interval fires first
 * every time and the longer ones never do: the query is fetched every `min(intervals)` of the
 * observers that are enabled. A disabled observer polls nothing.
 *
 * Limits: one render pass, so what a screen mounts only after data arrives, a click or an effect is
 * not seen (a spec opens tabs through the URL, which the screens read); the viewer is given, not
 * fetched.
 *
 * Loading the components in Node: their `.css` imports are answered with an empty module (a module
 * hook registered here), and `React` is made a global, because tsx compiles files outside the root
 * tsconfig's `include` (all of web/) with the classic JSX transform, `React.createElement` without an
 * import. The renderer and the screens are imported only after that, through import(): the specs
 * themselves run as CommonJS, whose copies of react-query, react-redux and the router are not the
 * ESM copies the screens get, so nothing of them may be imported statically here.
 */
import { register } from 'node:module';
import type { ComponentType } from 'react';
import type { Me } from '@papertrade/domain/auth/contracts';

let prepared: Promise<void> | null = null;

function prepareNodeForComponents(): Promise<void> {
  prepared ??= (async () => {
    const hooks = `export async function resolve(specifier, context, next) {
      if (specifier.endsWith('.css')) return { url: 'data:text/javascript,', shortCircuit: true };
      return next(specifier, context);
    }`;
    register(`data:text/javascript,${encodeURIComponent(hooks)}`);
    const React = await import('react');
    (globalThis as { React?: unknown }).React ??= React;
  })();
  return prepared;
}

export interface ScreenUnderTest {
  /** The address the screen is opened at (its search parameters reach the screen). */
  path: string;
  /** The route's module: `() => import('./dashboard')` (import(), so it loads after the hook). */
  load: () => Promise<{ default: ComponentType }>;
  /** Who looks at it: null for a visitor. */
  viewer: Me | null;
  /** False for the screens the route table mounts without the shell (/landing, /login, /signup). */
  inShell?: boolean;
}

/** One query as the components mounted it. */
export interface MountedQuery {
  queryHash: string;
  queryKey: readonly unknown[];
  queryFn: unknown;
  enabled: unknown;
  refetchInterval: unknown;
}

const isEnabled = (enabled: unknown) => enabled !== false;
const intervalOf = (refetchInterval: unknown): number | null => (typeof refetchInterval === 'number' && refetchInterval > 0 ? refetchInterval : null);
const seconds = (ms: number) => `${ms / 1000} s`;

/** The first request a query function makes, as `GET /api/...` (the function is stopped there). */
async function firstCall(query: MountedQuery): Promise<string> {
  if (typeof query.queryFn !== 'function') throw new Error(`query ${JSON.stringify(query.queryKey)} has no function of its own`);
  const realFetch = globalThis.fetch;
  let call: string | null = null;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://app.test');
    call ??= `${init?.method ?? 'GET'} ${url.pathname}${url.search}`;
    throw new Error('recorded, not sent');
  }) as typeof fetch;
  try {
    await Promise.resolve((query.queryFn as (context: object) => unknown)({ queryKey: query.queryKey, signal: new AbortController().signal, meta: undefined })).catch(() => undefined);
  } finally {
    globalThis.fetch = realFetch;
  }
  if (call === null) throw new Error(`query ${JSON.stringify(query.queryKey)} made no request`);
  return call;
}

/**
 * The screen's HTML in the shell's frame, with these answers in the query cache beforehand (by the
 * keys the features' query options give), as a first render shows them.
 */
export async function screenHtml({ path, load, viewer, inShell = true }: ScreenUnderTest, cached: ReadonlyArray<readonly [readonly unknown[], unknown]> = []): Promise<string> {
  await prepareNodeForComponents();
  const [{ renderScreen }, { default: Screen }] = await Promise.all([import('./screen-render'), load()]);
  return renderScreen(Screen, { path, viewer, inShell }, cached).html;
}

/**
 * Every call the screen (in the shell's frame, unless it is mounted without) makes through react-query and how often:
 * `'every 10 s'`, `'once'` (loaded, not polled), or `'not until enabled (then every 30 s)'` for a
 * query whose components are all disabled for now (the coin list while its dialog is closed).
 */
export async function screenPolls({ path, load, viewer, inShell = true }: ScreenUnderTest): Promise<Record<string, string>> {
  await prepareNodeForComponents();
  const [{ renderScreen }, { default: Screen }] = await Promise.all([import('./screen-render'), load()]);
  const { mounted } = renderScreen(Screen, { path, viewer, inShell });

  const byQuery = new Map<string, MountedQuery[]>();
  for (const query of mounted) byQuery.set(query.queryHash, [...(byQuery.get(query.queryHash) ?? []), query]);
  const polls: Record<string, string> = {};
  for (const observers of byQuery.values()) {
    const call = await firstCall(observers[0]!);
    const enabled = observers.filter((o) => isEnabled(o.enabled));
    const shortest = (of: MountedQuery[]) => Math.min(...of.map((o) => intervalOf(o.refetchInterval) ?? Infinity));
    let text: string;
    if (enabled.length > 0) text = Number.isFinite(shortest(enabled)) ? `every ${seconds(shortest(enabled))}` : 'once';
    else text = Number.isFinite(shortest(observers)) ? `not until enabled (then every ${seconds(shortest(observers))})` : 'not until enabled';
    if (polls[call] !== undefined && polls[call] !== text) throw new Error(`${call} is two queries polled differently: ${polls[call]} and ${text}`);
    polls[call] = text;
  }
  return polls;
}

/** A signed-in user as `GET /api/auth/me` answers, premium or free. */
export function viewer(tier: 'FREE' | 'PREMIUM', extra: Partial<Me> = {}): Me {
  return {
    id: `user-${tier.toLowerCase()}`,
    email: `${tier.toLowerCase()}@example.com`,
    username: tier.toLowerCase(),
    firstName: null,
    lastName: null,
    subscriptionTier: tier,
    subscriptionStatus: 'ACTIVE',
    isAdmin: false,
    isAuditor: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}
