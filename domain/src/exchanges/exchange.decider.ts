/**
 * Commands on `exchange-{userId}-{exchangeId}` (exchange.ts). Premium is checked by the routes'
 * guard (the Exchange API Integration screen is premium, DESIGN.md section 1); the rules here are the
 * connection's own.
 *
 * - SaveExchangeCredentials: testnet only where the exchange has one (exchanges.ts); the ciphertext
 *   was written by the route before, under `secretRef`.
 * - RecordConnectionTest: the result of fetching the balance with the credentials `secretRef` names;
 *   a result for credentials replaced meanwhile is dropped (it says nothing of the new keys).
 * - ChangeExchangeMirror: on needs a testnet connection that passed its test (409 otherwise); off
 *   always.
 * - RequestMirrorOrder: appends the intent only when the mirror is on and the testnet connected, for
 *   a trade placed since the mirror was switched on; otherwise nothing (the worker then sends nothing).
 * - RecordMirrorOutcome: the testnet's fill or the failure, once per trade (the worker's idempotency key).
 */
import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { exchangeInfo, type ExchangeId } from './exchanges';
import {
  evolveExchange,
  initialExchangeState,
  type AssetBalance,
  type ConnectionFailure,
  type ExchangeEvent,
  type ExchangeState,
  type MirrorOrderIntent,
} from './exchange';

type Meta = { metadata: { now: string } };

export type SaveExchangeCredentials = { type: 'SaveExchangeCredentials'; data: { userId: string; exchangeId: ExchangeId; secretRef: string; keyLast4: string; testnet: boolean } } & Meta;
export type RecordConnectionTest = {
  type: 'RecordConnectionTest';
  data: { userId: string; exchangeId: ExchangeId; secretRef: string; result: { ok: true; balances: AssetBalance[] } | { ok: false; error: ConnectionFailure } };
} & Meta;
export type ChangeExchangeMirror = { type: 'ChangeExchangeMirror'; data: { userId: string; exchangeId: ExchangeId; mirrorToTestnet: boolean } } & Meta;
export type RequestMirrorOrder = { type: 'RequestMirrorOrder'; data: { userId: string; exchangeId: ExchangeId } & MirrorOrderIntent } & Meta;
export type RecordMirrorOutcome = {
  type: 'RecordMirrorOutcome';
  data: {
    userId: string;
    exchangeId: ExchangeId;
    tradeId: string;
    outcome: { ok: true; orderId: string; price: number; amount: number; cost: number; fee: { cost: number; currency: string } | null } | { ok: false; error: ConnectionFailure };
  };
} & Meta;

export type ExchangeCommand = SaveExchangeCredentials | RecordConnectionTest | ChangeExchangeMirror | RequestMirrorOrder | RecordMirrorOutcome;

export function noTestnetMessage(exchangeId: ExchangeId): string {
  return `${exchangeInfo(exchangeId).name} has no testnet: its connection is read-only (balance) and real trading stays off`;
}

export function saveExchangeCredentials(command: SaveExchangeCredentials): ExchangeEvent[] {
  const { userId, exchangeId, secretRef, keyLast4, testnet } = command.data;
  if (testnet && !exchangeInfo(exchangeId).testnet) throw new ValidationError(`testnet: ${noTestnetMessage(exchangeId)}`, { fields: ['testnet'] });
  return [{ type: 'ExchangeCredentialsSaved', data: { userId, exchangeId, secretRef, keyLast4, testnet, savedAt: command.metadata.now } }];
}

export function recordConnectionTest(command: RecordConnectionTest, state: ExchangeState): ExchangeEvent[] {
  const { userId, exchangeId, secretRef, result } = command.data;
  if (state.credentials?.secretRef !== secretRef) return [];
  return [
    {
      type: 'ExchangeConnectionTested',
      data: {
        userId,
        exchangeId,
        secretRef,
        testnet: state.credentials.testnet,
        status: result.ok ? 'connected' : 'error',
        balances: result.ok ? result.balances : [],
        error: result.ok ? null : result.error,
        testedAt: command.metadata.now,
      },
    },
  ];
}

export function changeExchangeMirror(command: ChangeExchangeMirror, state: ExchangeState): ExchangeEvent[] {
  const { userId, exchangeId, mirrorToTestnet } = command.data;
  if (state.mirrorToTestnet === mirrorToTestnet) return [];
  if (mirrorToTestnet) {
    if (!exchangeInfo(exchangeId).testnet) throw new IllegalStateError(`Mirror to testnet: ${noTestnetMessage(exchangeId)}`);
    if (!state.credentials?.testnet) throw new IllegalStateError(`Mirror to testnet needs ${exchangeInfo(exchangeId).name} testnet API keys`);
    if (state.status !== 'connected') throw new IllegalStateError(`Mirror to testnet needs a connected testnet account: test the ${exchangeInfo(exchangeId).name} connection first`);
  }
  return [{ type: 'ExchangeMirrorChanged', data: { userId, exchangeId, mirrorToTestnet, changedAt: command.metadata.now } }];
}

/** Whether a bot trade is to be mirrored to this connection now. */
export function mirrorsNow(state: ExchangeState): boolean {
  return state.mirrorToTestnet && state.credentials?.testnet === true && state.status === 'connected';
}

export function requestMirrorOrder(command: RequestMirrorOrder, state: ExchangeState): ExchangeEvent[] {
  if (!mirrorsNow(state)) return [];
  // A trade from before the mirror was switched on is not mirrored (ISO times of one clock compare as text).
  // Stryker disable next-line ConditionalExpression: equivalent as `true`, with no start (null) a time compared with null is false (the text reads as NaN), so nothing is skipped either way; `false` (never skipped) and the time test as `true` (all skipped) are also the `===` and `>=` mutants' cases, which stay.
  if (state.mirrorSince !== null && command.data.paperPlacedAt < state.mirrorSince) return [];
  return [{ type: 'MirrorOrderRequested', data: { ...command.data, requestedAt: command.metadata.now } }];
}

export function recordMirrorOutcome(command: RecordMirrorOutcome): ExchangeEvent[] {
  const { userId, exchangeId, tradeId, outcome } = command.data;
  const at = command.metadata.now;
  if (outcome.ok) {
    const { orderId, price, amount, cost, fee } = outcome;
    return [{ type: 'MirrorOrderFilled', data: { userId, exchangeId, tradeId, orderId, price, amount, cost, fee, filledAt: at } }];
  }
  return [{ type: 'MirrorOrderFailed', data: { userId, exchangeId, tradeId, error: outcome.error, failedAt: at } }];
}

export const exchangeDecider: Decider<ExchangeState, ExchangeCommand, ExchangeEvent> = {
  name: 'exchange',
  schemaVersion: 1,
  initialState: initialExchangeState,
  evolve: evolveExchange,
  decide(command, state) {
    switch (command.type) {
      case 'SaveExchangeCredentials':
        return saveExchangeCredentials(command);
      case 'RecordConnectionTest':
        return recordConnectionTest(command, state);
      case 'ChangeExchangeMirror':
        return changeExchangeMirror(command, state);
      case 'RequestMirrorOrder':
        return requestMirrorOrder(command, state);
      case 'RecordMirrorOutcome':
        return recordMirrorOutcome(command);
      default:
        return assertNever(command);
    }
  },
};
