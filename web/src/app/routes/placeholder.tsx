import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/layouts/page-header';
import { Icon } from '../../components/ui/icon';
import './screens.css';

/** A screen of the premium spec that is not built yet: its title, and a way back. */
export default function PlaceholderRoute({ title }: { title: string }) {
  return (
    <>
      <title>{`${title} · AI Trading Assistant`}</title>
      <PageHeader title={title} />
      <section className="screen-empty card" data-testid="placeholder-screen">
        <span className="screen-empty__icon">
          <Icon name="compass" size={26} />
        </span>
        <h2>Coming soon</h2>
        <p>This screen is not available yet. The live dashboard already is.</p>
        <Link to="/" className="btn">
          Back to Dashboard
        </Link>
      </section>
    </>
  );
}
