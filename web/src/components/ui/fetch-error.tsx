import { describeError } from '../../lib/api-client';

/**
 * A failed read (spec section 8): the catalogue's text ('Failed to fetch price', ...) and, smaller,
 * what the server or the network said, so the visitor sees that the data is missing and why.
 */
export function FetchError({ text, error }: { text: string; error: unknown }) {
  return (
    <div className="fetch-error" role="alert" data-testid="fetch-error">
      <span className="fetch-error__text">{text}</span>
      <span className="fetch-error__detail">{describeError(error, '')}</span>
    </div>
  );
}
