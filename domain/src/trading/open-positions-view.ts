/**
 * The `open-positions` read model, as a pure evolve: one document per user who ever traded, with
 * what the risk monitor needs on every tick without reading the write side: the portfolio (cash,
 * positions with their exit plans, today's realised P&L, the recorded peak, folded by the portfolio's
 * own evolve), the user's risk profile, and the condition keys of the alerts not yet cleared or
 * resolved (so a condition that holds for a thousand ticks is not re-issued a thousand times, and one
 * a reset resolved may fire again).
 *
 * `holds_{SYMBOL}: true` is set for each coin with an open position, so the monitor finds the
 * holders of a ticked coin with one equality query on the document store's index.
 *
 * The portfolio's trade-id memory is not kept (the monitor does not need it; the decider keeps it).
 */
import { coins, type CoinSymbol } from '../market/coins';
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_RISK_PROFILE, type BotSettings, type RiskParameters, type RiskProfile } from './contracts';
import { evolvePortfolio, initialPortfolioState, type PortfolioEvent, type PortfolioState } from './portfolio';
import { evolveRisk, type RiskEvent } from './risk';
import { profileFromLegacyDocument } from './risk-profile';

export const OPEN_POSITIONS_PROJECTION = 'open-positions';

const PORTFOLIO_EVENT_TYPES: ReadonlySet<string> = new Set(['PortfolioOpened', 'SimulatedTradePlaced', 'PositionClosed', 'PortfolioReset', 'PortfolioPeakRecorded']);
// BotSignalRefused is not here: the monitor does not need the bot's refusals.
const RISK_EVENT_TYPES: ReadonlySet<string> = new Set([
  'BotSettingsChanged',
  'BotSettingsReset',
  'RiskParametersChanged',
  'RiskAlertRaised',
  'RiskAlertAcknowledged',
  'AcknowledgedRiskAlertsCleared',
  'RiskAlertsResolved',
]);

/** The field naming the holders of a coin (an equality query finds them). */
export const holdsField = (symbol: CoinSymbol | string) => `holds_${symbol.toUpperCase()}`;

export type OpenPositionsView = {
  userId: string;
  portfolio: PortfolioState;
  /** The user's one risk profile. Absent in documents written before it (profileOfView). */
  profile?: RiskProfile;
  /** Documents written before the one profile kept the two sets apart. */
  settings?: BotSettings;
  parameters?: RiskParameters;
  /** Condition key -> alert id of the alerts raised and not cleared. */
  alertKeys: Record<string, string>;
  updatedAt: string;
} & { [holds: `holds_${string}`]: true | undefined };

export function openPositionsDocumentId(event: { type: string; data: unknown }): string | null {
  if (!PORTFOLIO_EVENT_TYPES.has(event.type) && !RISK_EVENT_TYPES.has(event.type)) return null;
  const userId = (event.data as { userId?: unknown }).userId;
  return typeof userId === 'string' ? userId : null;
}

/** The profile the monitor applies: the document's, or (written before the one profile) its two sets joined. */
export const profileOfView = (view: Pick<OpenPositionsView, 'profile' | 'settings' | 'parameters'>): RiskProfile => view.profile ?? profileFromLegacyDocument(view);

function eventTime(event: PortfolioEvent | RiskEvent): string {
  const d = event.data as Record<string, unknown>;
  for (const key of ['placedAt', 'closedAt', 'resetAt', 'openedAt', 'recordedAt', 'changedAt', 'raisedAt', 'acknowledgedAt', 'clearedAt', 'resolvedAt']) {
    if (typeof d[key] === 'string') return d[key];
  }
  return '';
}

export function evolveOpenPositionsView(doc: OpenPositionsView | null, event: DomainEvent): OpenPositionsView | null {
  const isPortfolio = PORTFOLIO_EVENT_TYPES.has(event.type);
  if (!isPortfolio && !RISK_EVENT_TYPES.has(event.type)) return doc;
  const e = event as PortfolioEvent | RiskEvent;
  const current: OpenPositionsView = doc ?? {
    userId: e.data.userId,
    portfolio: initialPortfolioState(),
    profile: { ...DEFAULT_RISK_PROFILE },
    alertKeys: {},
    updatedAt: '',
  };
  const next: OpenPositionsView = { ...current, updatedAt: eventTime(e) || current.updatedAt };
  if (isPortfolio) {
    const portfolio = evolvePortfolio(current.portfolio, e as PortfolioEvent);
    next.portfolio = portfolio.status === 'open' ? { ...portfolio, recentTradeIds: [], newTradeIds: [] } : portfolio;
    for (const coin of coins) {
      if (portfolio.status === 'open' && portfolio.positions[coin.symbol]) next[holdsField(coin.symbol) as `holds_${string}`] = true;
      else delete next[holdsField(coin.symbol) as `holds_${string}`];
    }
    return next;
  }
  const risk = evolveRisk({ profile: profileOfView(current), alerts: [] }, e as RiskEvent);
  next.profile = risk.profile;
  delete next.settings;
  delete next.parameters;
  const r = e as RiskEvent;
  if (r.type === 'RiskAlertRaised') next.alertKeys = { ...current.alertKeys, [r.data.conditionKey]: r.data.alertId };
  if (r.type === 'AcknowledgedRiskAlertsCleared' || r.type === 'RiskAlertsResolved') {
    const cleared = new Set(r.data.alertIds);
    next.alertKeys = Object.fromEntries(Object.entries(current.alertKeys).filter(([, id]) => !cleared.has(id)));
  }
  return next;
}
