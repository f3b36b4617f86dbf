import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { FullScreenSpinner } from '../components/ui/spinner';
import { useAuth } from '../lib/auth/auth-context';

/**
 * The top of the route tree. While the authentication state loads, a full-screen spinner replaces
 * every route (spec section 2). No route redirects for lack of login: screens show their own prompts.
 * One Suspense boundary for all top-level screens: navigations run as transitions, so the current
 * screen stays up while the next one's code loads.
 */
export function RootLayout() {
  const { isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  return (
    <>
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
