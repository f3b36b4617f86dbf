/**
 * The sign-in and sign-up forms' own checks (spec section 5) are pure functions, so their order is
 * testable without a browser. Each returns the toast to show ('A - B' is title A, description B)
 * or null when the form may be sent. The server validates again with the domain contracts.
 */
export interface FormProblem {
  title: string;
  description: string;
}

export const filled = (value: string) => value.trim().length > 0;
