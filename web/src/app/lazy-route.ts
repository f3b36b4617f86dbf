/**
 * A code-split screen: `React.lazy` plus a `preload()` that main.tsx calls for the first screen
 * before React renders.
 *
 * Why: React 19 throttles the reveal of content that suspended behind a fallback (up to 300 ms).
 * Once the module is loaded, the lazy factory hands it over as a thenable that resolves
 * synchronously (React.lazy accepts any thenable), so React renders the screen at once instead of
 * suspending. Later screens load during navigations, which the router runs as transitions: the
 * current screen stays up until the next one is ready.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Module<P> = { default: ComponentType<P> };

export interface LazyRoute<P> {
  Component: LazyExoticComponent<ComponentType<P>>;
  preload: () => Promise<unknown>;
}

export function lazyRoute<P extends object>(load: () => Promise<Module<P>>): LazyRoute<P> {
  let loaded: Module<P> | undefined;
  let loading: Promise<Module<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined; // a failed chunk load may be retried
        throw error;
      },
    ));
  const Component = lazy<ComponentType<P>>(() => {
    if (loaded) {
      const module = loaded;
      return { then: (resolve: (value: Module<P>) => void) => resolve(module) } as unknown as Promise<Module<P>>;
    }
    return preload();
  });
  return { Component, preload };
}
