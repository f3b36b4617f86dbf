import { Link } from 'react-router-dom';
import { BrandMark } from '../../../components/ui/brand-mark';

export function LandingFooter() {
  return (
    <footer className="landing-footer">
      <div className="landing-container landing-footer__inner">
        <div className="landing-footer__brand">
          <BrandMark size={24} />
          <span>AI Trading Assistant</span>
        </div>
        <nav className="landing-footer__links" aria-label="Footer">
          <Link to="/">Live dashboard</Link>
          <a href="#pricing">Pricing</a>
          <Link to="/login">Login</Link>
          <Link to="/signup">Sign up</Link>
          <Link to="/api-docs">API</Link>
        </nav>
        <p className="landing-footer__legal">
          Paper trading simulation for education. Not financial advice. © {new Date().getFullYear()} AI Trading Assistant.
        </p>
      </div>
    </footer>
  );
}
