import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icon';

export function FinalCta() {
  return (
    <section className="landing-section">
      <div className="landing-container">
        <div className="final-cta">
          <h2>Ready to test your strategy without risking a cent?</h2>
          <p>Create a free account and start paper trading today.</p>
          <Link to="/signup" className="btn btn--primary btn--lg" data-testid="final-cta">
            Create Free Account
            <Icon name="arrowRight" size={16} />
          </Link>
        </div>
      </div>
    </section>
  );
}
