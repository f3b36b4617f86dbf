/**
 * open-positions: one document per user who traded, with the portfolio, bot settings, risk
 * parameters and standing alert keys the risk monitor reads on every tick
 * (domain/src/trading/open-positions-view.ts); `holds_{SYMBOL}` finds the holders of a coin.
 */
import { OPEN_POSITIONS_PROJECTION, evolveOpenPositionsView, openPositionsDocumentId, type OpenPositionsView } from '@papertrade/domain/trading/open-positions-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { currentShape } from '../trading/portfolio-events';

export const openPositionsProjection: ProjectionDefinition<OpenPositionsView> = {
  name: OPEN_POSITIONS_PROJECTION,
  documentIds: (event) => {
    const id = openPositionsDocumentId(event);
    return id === null ? [] : [id];
  },
  // Portfolio events of older schema versions upcast first (trading/portfolio-events.ts).
  evolve: (doc, _event, recorded) => evolveOpenPositionsView(doc, currentShape(recorded)),
};
