/**
 * The Exchanges tab's words, as pure functions (unit-tested): the status badge, what the testnet
 * means for each exchange, when Test Connection may be pressed, and the failure toasts of spec
 * section 8.
 */
import type { ExchangeConnection } from '@papertrade/domain/exchanges/contracts';

export const CONNECTION_FAILED_TOAST = { title: 'Connection Failed', description: 'Failed to connect to exchange API', variant: 'destructive' as const };
export const SAVE_CONFIGURATION_FAILED = 'Failed to save configuration';

export function statusLabel(status: ExchangeConnection['status']): string {
  return status === 'connected' ? 'Connected' : status === 'error' ? 'Error' : 'Disconnected';
}

export function statusBadgeClass(status: ExchangeConnection['status']): string {
  return status === 'connected' ? 'badge badge--up' : status === 'error' ? 'badge badge--down' : 'badge';
}

/** What the connection is: a testnet, a live account read-only, or an exchange without a testnet. */
export function testnetNote(exchange: Pick<ExchangeConnection, 'name' | 'testnetAvailable' | 'testnet'>): string {
  if (!exchange.testnetAvailable) return `${exchange.name} has no testnet: the connection is read-only (balance) and real trading stays off.`;
  if (exchange.testnet) return `Testnet: orders go to ${exchange.name}'s sandbox, never to a real account.`;
  return `Live account: read-only here (balance); this version places no real-money order.`;
}

export interface CredentialDraft {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

/** Whether the typed keys are complete (both keys, and the passphrase where the exchange needs one). */
export function draftComplete(exchange: Pick<ExchangeConnection, 'needsPassphrase'>, draft: CredentialDraft): boolean {
  return draft.apiKey.trim() !== '' && draft.secretKey.trim() !== '' && (!exchange.needsPassphrase || draft.passphrase.trim() !== '');
}

/**
 * Test Connection is disabled unless both keys are filled (spec section 5): typed in the form (they
 * are saved first, then tested), or saved before (the server keeps them encrypted and never sends
 * them back, so a saved key shows as its last four characters, not in the field).
 */
export function canTestConnection(exchange: Pick<ExchangeConnection, 'needsPassphrase' | 'configured'>, draft: CredentialDraft): boolean {
  const typedAny = draft.apiKey.trim() !== '' || draft.secretKey.trim() !== '' || draft.passphrase.trim() !== '';
  return typedAny ? draftComplete(exchange, draft) : exchange.configured;
}

export function connectionSuccessText(exchange: Pick<ExchangeConnection, 'name'>, totalUsd: number | null, format: (n: number) => string): string {
  return totalUsd === null ? `${exchange.name} connected` : `${exchange.name} connected: balance ${format(totalUsd)}`;
}
