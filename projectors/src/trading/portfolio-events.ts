/**
 * A recorded event as the trading projections read it: a portfolio event in its current shape (one
 * of an older schema version through the portfolio's upcaster, as the command helper reads it, so a
 * sale stored before FIFO reads `lotRule: AVERAGE_COST`), any other event as it is.
 */
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import { upcastPortfolioEvent } from '@papertrade/domain/trading/portfolio';
import { isPortfolioEvent } from '@papertrade/domain/trading/trading-view';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';

export function currentShape(recorded: RecordedEvent): DomainEvent {
  const event: DomainEvent = { type: recorded.type, data: recorded.data };
  if (!isPortfolioEvent(event)) return event;
  return upcastPortfolioEvent({ ...event, schemaVersion: Number(recorded.metadata?.schemaVersion ?? 1) });
}
