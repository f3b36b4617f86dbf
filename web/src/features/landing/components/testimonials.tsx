/** Static sample content, marked as such on screen: there are no real reviews (DESIGN.md section 6). */
const samples = [
  {
    quote: 'Running the paper bot for a few weeks taught me more about stop-losses than any course I paid for.',
    name: 'Sample trader',
    role: 'Hobby investor',
    initials: 'ST',
  },
  {
    quote: 'I like that every signal tells me which indicators triggered it. I can check the reasoning instead of trusting a black box.',
    name: 'Sample analyst',
    role: 'Data scientist',
    initials: 'SA',
  },
  {
    quote: 'Backtesting a strategy before turning on the bot keeps me honest about what actually works.',
    name: 'Sample user',
    role: 'Part-time trader',
    initials: 'SU',
  },
];

export function Testimonials() {
  return (
    <section className="landing-section" id="testimonials" aria-labelledby="testimonials-title">
      <div className="landing-container">
        <header className="landing-section__header">
          <span className="landing-section__eyebrow">Testimonials</span>
          <h2 id="testimonials-title">What traders could say</h2>
          <p>These are illustrative samples, not reviews from real customers.</p>
        </header>
        <div className="testimonials">
          {samples.map((sample) => (
            <figure key={sample.initials} className="testimonial card" data-testid="testimonial">
              <span className="badge testimonial__sample">Sample testimonial</span>
              <blockquote>“{sample.quote}”</blockquote>
              <figcaption>
                <span className="testimonial__avatar" aria-hidden="true">
                  {sample.initials}
                </span>
                <span>
                  <strong>{sample.name}</strong>
                  <span className="testimonial__role">{sample.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}
