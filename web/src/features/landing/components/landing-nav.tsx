import { Link } from 'react-router-dom';
import { BrandMark } from '../../../components/ui/brand-mark';

export function LandingNav() {
  return (
    <nav className="landing-nav" aria-label="Main">
      <div className="landing-container landing-nav__inner">
        <Link to="/landing" className="landing-nav__brand">
          <BrandMark size={30} />
          <span>AI Trading Assistant</span>
        </Link>
        <div className="landing-nav__links">
          <a href="#features">Features</a>
          <a href="#pricing">Pricing</a>
          <a href="#testimonials">Testimonials</a>
        </div>
        <div className="landing-nav__actions">
          <Link to="/login" className="btn btn--ghost" data-testid="landing-login">
            Login
          </Link>
          <Link to="/signup" className="btn btn--primary" data-testid="landing-get-started">
            Get Started
          </Link>
        </div>
      </div>
    </nav>
  );
}
