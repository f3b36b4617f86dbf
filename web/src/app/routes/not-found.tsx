import { Link, useLocation } from 'react-router-dom';
import './screens.css';

/** Any path the route table does not know (spec section 2), e.g. /forgot-password. */
export default function NotFoundRoute() {
  const { pathname } = useLocation();
  return (
    <>
      <title>Page Not Found · AI Trading Assistant</title>
      <section className="not-found" data-testid="not-found">
        <span className="not-found__code num">404</span>
        <h1>Page Not Found</h1>
        <p className="not-found__hint">
          No route matches <code>{pathname}</code>. Did you forget to add the page to the router in <code>web/src/app/router.tsx</code>?
        </p>
        <Link to="/" className="btn btn--primary">
          Back to Dashboard
        </Link>
      </section>
    </>
  );
}
