/**
 * Dollars as a person reads them in a message the API answers or an alert keeps (`$3,455,969.86`),
 * the same way the web app writes money: a refusal's detail is shown as it is, in a toast or beside
 * the form, so "$3455969.86" would be the one figure on the screen without separators.
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function usdText(dollars: number): string {
  return usd.format(dollars);
}
