/**
 * The route table of spec section 2. Every screen is code-split (React.lazy): /landing, /login and
 * /signup load only their own chunk (no sidebar); everything else renders inside the shell.
 * Screens of the premium spec that are not built yet show a placeholder with their title.
 */
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { lazyRoute } from './lazy-route';
import { RootLayout } from './root-layout';

const landing = lazyRoute(() => import('./routes/landing'));
const login = lazyRoute(() => import('./routes/login'));
const signup = lazyRoute(() => import('./routes/signup'));
const shell = lazyRoute(() => import('./shell/app-shell'));
const dashboard = lazyRoute(() => import('./routes/dashboard'));
const subscription = lazyRoute(() => import('./routes/subscription'));
const paymentSuccess = lazyRoute(() => import('./routes/payment-success'));
const placeholder = lazyRoute(() => import('./routes/placeholder'));
const tradeHistory = lazyRoute(() => import('./routes/trade-history'));
const riskManagement = lazyRoute(() => import('./routes/risk-management'));
const admin = lazyRoute(() => import('./routes/admin'));
const apiDocs = lazyRoute(() => import('./routes/api-docs'));
const settings = lazyRoute(() => import('./routes/settings'));
const apiIntegration = lazyRoute(() => import('./routes/api-integration'));
const backtesting = lazyRoute(() => import('./routes/backtesting'));
const notFound = lazyRoute(() => import('./routes/not-found'));
const aiSignals = lazyRoute(() => import('./routes/ai-signals'));

/** Titles as the premium spec names the screens (premium-and-account.md section 2). */
export const plannedScreens: ReadonlyArray<{ path: string; title: string }> = [];

interface RouteHandle {
  preload?: () => Promise<unknown>;
}

const screen = (lazy: { preload: () => Promise<unknown> }): { handle: RouteHandle } => ({ handle: { preload: lazy.preload } });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/landing', element: <landing.Component />, ...screen(landing) },
      { path: '/login', element: <login.Component />, ...screen(login) },
      { path: '/signup', element: <signup.Component />, ...screen(signup) },
      {
        element: <shell.Component />,
        ...screen(shell),
        children: [
          { index: true, element: <dashboard.Component />, ...screen(dashboard) },
          { path: '/dashboard', element: <dashboard.Component />, ...screen(dashboard) },
          { path: '/trade-history', element: <tradeHistory.Component />, ...screen(tradeHistory) },
          { path: '/risk-management', element: <riskManagement.Component />, ...screen(riskManagement) },
          { path: '/admin', element: <admin.Component />, ...screen(admin) },
          { path: '/subscription', element: <subscription.Component />, ...screen(subscription) },
          { path: '/payment-success', element: <paymentSuccess.Component />, ...screen(paymentSuccess) },
          { path: '/api-docs', element: <apiDocs.Component />, ...screen(apiDocs) },
          { path: '/settings', element: <settings.Component />, ...screen(settings) },
          { path: '/api-integration', element: <apiIntegration.Component />, ...screen(apiIntegration) },
          { path: '/backtesting', element: <backtesting.Component />, ...screen(backtesting) },
          { path: '/ai-signals', element: <aiSignals.Component />, ...screen(aiSignals) },
          ...plannedScreens.map(({ path, title }) => ({ path, element: <placeholder.Component title={title} />, ...screen(placeholder) })),
          { path: '*', element: <notFound.Component />, ...screen(notFound) },
        ],
      },
    ],
  },
];

/** Loads the code of every screen that `pathname` renders (the shell and its screen, say). */
export function preloadScreensFor(pathname: string): Promise<unknown> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map((match) => (match.route.handle as RouteHandle | undefined)?.preload?.()));
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
