/** How a trade's fields read on screen and in the export. */
import type { Trade } from '@papertrade/domain/trading/read-contracts';

/** The spec: a blank signal reads Manual. */
export function signalSource(trade: Pick<Trade, 'source'>): string {
  return trade.source.trim() === '' ? 'Manual' : trade.source;
}
