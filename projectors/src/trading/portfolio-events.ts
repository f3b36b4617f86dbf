/**
 * A recorded event as the trading projections read it: a portfolio or risk event in its current shape
 * (one of an older schema version through its stream's upcaster, as the command helper reads it, so a
 * sale stored before FIFO reads `lotRule: AVERAGE_COST` and a bot settings change stored before the one
 * risk profile reads as the profile fields it changed), any other event as it is.
 */
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import { upcastPortfolioEvent } from '@papertrade/domain/trading/portfolio';
import { RISK_EVENT_TYPES, upcastRiskEvent } from '@papertrade/domain/trading/risk';
import { isPortfolioEvent } from '@papertrade/domain/trading/trading-view';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';

export function currentShape(recorded: RecordedEvent): DomainEvent {
  const event: DomainEvent = { type: recorded.type, data: recorded.data };
  const schemaVersion = Number(recorded.metadata?.schemaVersion ?? 1);
  if (isPortfolioEvent(event)) return upcastPortfolioEvent({ ...event, schemaVersion });
  if (RISK_EVENT_TYPES.has(event.type)) return upcastRiskEvent({ ...event, schemaVersion });
  return event;
}
