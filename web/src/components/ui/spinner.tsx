export function Spinner({ size = 32, label = 'Loading' }: { size?: number; label?: string }) {
  return (
    <span className="spinner" role="status" aria-label={label} style={{ width: size, height: size }}>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** Replaces every route while the authentication state loads (spec section 2). */
export function FullScreenSpinner() {
  return (
    <div className="full-screen-spinner" data-testid="full-screen-spinner">
      <Spinner size={44} />
    </div>
  );
}

/** Fills a content area while a code-split screen loads. */
export function ContentSpinner() {
  return (
    <div className="content-spinner" data-testid="content-spinner">
      <Spinner size={28} />
    </div>
  );
}
