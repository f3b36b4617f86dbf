import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadScreensFor } from './app/router';
import { meQueryOptions } from './lib/auth/get-me';
import { createQueryClient } from './lib/query-client';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
// Who is signed in and the first screen's code load side by side, before the first render.
void queryClient.prefetchQuery(meQueryOptions());
preloadScreensFor(window.location.pathname)
  .catch(() => undefined) // React.lazy tries again and reports a failure where it renders
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    );
  });
