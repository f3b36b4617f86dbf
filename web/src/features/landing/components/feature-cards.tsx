import { useDispatch, useSelector } from 'react-redux';
import { Icon } from '../../../components/ui/icon';
import { landingFeatures } from '../landing-features';
import { featureSelected, selectSelectedFeature, type StateWithLanding } from '../stores/landing-slice';

export function FeatureCards() {
  const dispatch = useDispatch();
  const selectedId = useSelector((state: StateWithLanding) => selectSelectedFeature(state));
  const selected = landingFeatures.find((f) => f.id === selectedId) ?? landingFeatures[0];

  return (
    <section className="landing-section" id="features" aria-labelledby="features-title">
      <div className="landing-container">
        <header className="landing-section__header">
          <span className="landing-section__eyebrow">Features</span>
          <h2 id="features-title">Everything you need to practise trading</h2>
          <p>Pick a feature to see what it does.</p>
        </header>
        <div className="feature-cards" role="group" aria-label="Features">
          {landingFeatures.map((feature) => {
            const isSelected = feature.id === selected.id;
            return (
              <button
                key={feature.id}
                type="button"
                className={`feature-card${isSelected ? ' feature-card--selected' : ''}`}
                aria-pressed={isSelected}
                data-testid={`feature-card-${feature.id}`}
                onClick={() => dispatch(featureSelected(feature.id))}
              >
                <span className="feature-card__icon">
                  <Icon name={feature.icon} size={20} />
                </span>
                <span className="feature-card__title">{feature.title}</span>
                <span className="feature-card__summary">{feature.summary}</span>
              </button>
            );
          })}
        </div>
        <div className="feature-detail card" aria-live="polite" data-testid="feature-detail">
          <h3>{selected.title}</h3>
          <ul>
            {selected.points.map((point) => (
              <li key={point}>
                <Icon name="check" size={16} />
                {point}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
