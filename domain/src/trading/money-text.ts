/**
 * Dollars as a person reads them in a message the API answers or an alert keeps (`$3,455,969.86`),
 * the same way the web app writes money: a refusal's detail is shown as it is, in a toast or beside
 * the form, so "$3455969.86" would be the one figure on the screen without separators. Amounts under
 * a dollar (a stop level of a coin under $1, a tiny trade) keep 4 decimals, so they do not all read
 * $0.36.
 */
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });

export function usdText(value: number): string {
  return (Math.abs(value) < 1 && value !== 0 ? cents : dollars).format(value);
}
