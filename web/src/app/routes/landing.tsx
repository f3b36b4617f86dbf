import { PlanCards } from '../../features/plans/components/plan-cards';
import { StatsStrip } from '../../features/public-stats/components/stats-strip';
import { FeatureCards } from '../../features/landing/components/feature-cards';
import { FinalCta } from '../../features/landing/components/final-cta';
import { HeroSection } from '../../features/landing/components/hero-section';
import { LandingFooter } from '../../features/landing/components/landing-footer';
import { LandingNav } from '../../features/landing/components/landing-nav';
import { Testimonials } from '../../features/landing/components/testimonials';
import '../../features/landing/components/landing.css';

/** The marketing page: composed from the landing, public-stats and plans features. */
export default function LandingRoute() {
  return (
    <div className="landing">
      <title>AI Trading Assistant · Paper-trade crypto with AI signals</title>
      <LandingNav />
      <HeroSection />
      <section className="landing-stats" aria-label="Live figures">
        <div className="landing-container">
          <p className="landing-stats__caption">Measured on this platform</p>
          <StatsStrip />
        </div>
      </section>
      <FeatureCards />
      <section className="landing-section" id="pricing" aria-labelledby="pricing-title">
        <div className="landing-container">
          <header className="landing-section__header">
            <span className="landing-section__eyebrow">Pricing</span>
            <h2 id="pricing-title">Simple, transparent pricing</h2>
            <p>Start free with paper trading. Upgrade when you want the bot and the advanced tools.</p>
          </header>
          <PlanCards actionTo="/signup" actionLabel={(plan) => (plan.priceUsdPerMonth === 0 ? 'Start for Free' : `Get ${plan.name}`)} />
        </div>
      </section>
      <Testimonials />
      <FinalCta />
      <LandingFooter />
    </div>
  );
}
