/**
 * One risk profile per user (issue 17, DESIGN.md section 9): the Bot Settings and the Risk Parameters
 * are two views of the same fields, so a change on either screen shows on every screen and reaches
 * the bot and the risk monitor at once. The mapping, one field per quantity:
 *
 * | Bot Settings (spec name)          | profile field                                            |
 * |-----------------------------------|----------------------------------------------------------|
 * | maxPositionSize                   | maxPositionSize                                          |
 * | stopLoss (stopLossPercent)        | stopLossValue (the stop-loss type stays as set)          |
 * | takeProfit (takeProfitPercent)    | takeProfitRatio = takeProfit / stopLossValue; read back  |
 * |                                   | as stopLossValue x takeProfitRatio (2 decimals)          |
 * | dailyLossLimit                    | maxDailyLoss                                             |
 * | enableNotifications, autoRetrain  | the same (only the bot settings name them)               |
 *
 * stopLossValue is a percent for fixed and trailing stops and the multiple k for atr and volatility
 * stops (contracts.ts, stopLossUnits), so the bot's stopLoss and takeProfit are in that unit too. The
 * target is set from the stop's distance (takeProfitRatio), so a stopLoss change alone moves the
 * target with it (a 3 % stop at ratio 2.5 aims 7.5 % up); a takeProfit sent sets the ratio, which
 * must stay within its bounds (1 to 10 times the stop). The ratio is kept exactly as the division
 * gives it (5 / 3 = 1.666...), so the target is the takeProfit sent (to the last bit of a double) and
 * reads back as it was sent (rounded to 2 decimals); screens show the ratio rounded.
 *
 * Stored events outlive this code. Before issue 17 (risk decider schema version 1) the two sets were
 * separate: the bot traded by its settings (stop and target in percent of the entry, its own position
 * size and daily limit) and the risk parameters' shared fields did nothing. `upcastRiskEvent` brings
 * those events to the current shape, which records the profile fields each event changed
 * (`changes`), so folding them in order gives the profile the user set last, field by field:
 * - BotSettingsChanged v1 changed maxPositionSize, dailyLossLimit (maxDailyLoss), and the stop and
 *   target the bot used: stopLossValue = its stop percent and takeProfitRatio = its target percent /
 *   its stop percent (the old bot's two levels, exactly), limited to the ratio's bounds 1 to 10 (a
 *   target nearer than the stop, or more than ten stops away, moves to the nearest bound).
 * - BotSettingsReset v1 changed those to the defaults of the time (5 %, 2 %, 5 % = ratio 2.5, $500).
 * - RiskParametersChanged v1 changed the fields whose value differs from its `previous` set: the
 *   Risk Management screen sent the whole set, and a field it showed unchanged is not a decision
 *   about that quantity (the bot may have been trading by another value of it, set in Bot Settings).
 * The stop-loss type of a v1 profile now takes effect: a v1 "atr" type with a bot stop of 2 reads 2
 * as k (2 x ATR14), which is what the type says; before, nothing obeyed the type.
 */
import { ValidationError } from '../shared/errors';
import { DEFAULT_RISK_PROFILE, riskParameterBounds, type BotSettings, type RiskParameters, type RiskProfile } from './contracts';

export const riskProfileFields = Object.keys(DEFAULT_RISK_PROFILE) as Array<keyof RiskProfile>;
export const riskParameterFields = riskProfileFields.filter((k) => k !== 'enableNotifications' && k !== 'autoRetrain') as Array<keyof RiskParameters>;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The take-profit ratio a target of `takeProfit` gives for a stop of `stopLoss` (same unit). */
export const ratioFor = (takeProfit: number, stopLoss: number) => takeProfit / stopLoss;

/** The bot settings view of a profile. */
export function botSettingsOf(profile: RiskProfile): BotSettings {
  return {
    maxPositionSize: profile.maxPositionSize,
    stopLossPercent: profile.stopLossValue,
    takeProfitPercent: round(profile.stopLossValue * profile.takeProfitRatio, 2),
    dailyLossLimit: profile.maxDailyLoss,
    enableNotifications: profile.enableNotifications,
    autoRetrain: profile.autoRetrain,
  };
}

/** The risk parameter set of a profile (PUT/GET /api/risk/parameters). */
export function parametersOf(profile: RiskProfile): RiskParameters {
  const parameters = {} as Record<string, unknown>;
  for (const k of riskParameterFields) parameters[k] = profile[k];
  return parameters as unknown as RiskParameters;
}

/**
 * The profile fields a bot settings change sets (bounds already checked): the mapping above. A
 * takeProfit is a ratio of the stop (the new stop when the same change sets one); a ratio outside
 * its bounds is a ValidationError naming `takeProfit`.
 */
export function profileChangesFromBotSettings(changes: Partial<BotSettings>, profile: RiskProfile): Partial<RiskProfile> {
  const out: Partial<RiskProfile> = {};
  if (changes.maxPositionSize !== undefined) out.maxPositionSize = changes.maxPositionSize;
  if (changes.dailyLossLimit !== undefined) out.maxDailyLoss = changes.dailyLossLimit;
  if (changes.enableNotifications !== undefined) out.enableNotifications = changes.enableNotifications;
  if (changes.autoRetrain !== undefined) out.autoRetrain = changes.autoRetrain;
  if (changes.stopLossPercent !== undefined) out.stopLossValue = changes.stopLossPercent;
  if (changes.takeProfitPercent !== undefined) {
    const stop = out.stopLossValue ?? profile.stopLossValue;
    const ratio = ratioFor(changes.takeProfitPercent, stop);
    const { min, max } = riskParameterBounds.takeProfitRatio;
    // Compared at 9 decimals, so a takeProfit of exactly 10 stops is not refused for a rounding.
    if (!(round(ratio, 9) >= min && round(ratio, 9) <= max)) {
      throw new ValidationError(
        `takeProfit must be from ${min} to ${max} times the stop loss of ${stop}: from ${round(stop * min, 2)} to ${round(stop * max, 2)}, got ${changes.takeProfitPercent}`,
        { field: 'takeProfit' },
      );
    }
    out.takeProfitRatio = Math.min(max, Math.max(min, ratio));
  }
  return out;
}

/** The fields of `next` that differ from `previous`. */
export function changedFields<T extends object>(next: T, previous: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(next) as Array<keyof T>) if (next[k] !== previous[k]) out[k] = next[k];
  return out;
}

/** Applies changes to a profile (only the profile's own fields: a stored event cannot add others). */
export function applyProfileChanges(profile: RiskProfile, changes: Partial<RiskProfile>): RiskProfile {
  const next = { ...profile };
  for (const k of riskProfileFields) if (changes[k] !== undefined) Object.assign(next, { [k]: changes[k] });
  return next;
}

/** A pre-issue-17 bot settings record (BotSettingsChanged v1's `changes` and `settings`). */
type BotSettingsV1 = Partial<BotSettings>;

/** The profile fields a v1 bot settings change (or reset, with every field as `changes`) set; see the module comment. */
export function profileChangesFromV1BotSettings(changes: BotSettingsV1, settings: BotSettings): Partial<RiskProfile> {
  const out: Partial<RiskProfile> = {};
  if (changes.maxPositionSize !== undefined) out.maxPositionSize = changes.maxPositionSize;
  if (changes.dailyLossLimit !== undefined) out.maxDailyLoss = changes.dailyLossLimit;
  if (changes.enableNotifications !== undefined) out.enableNotifications = changes.enableNotifications;
  if (changes.autoRetrain !== undefined) out.autoRetrain = changes.autoRetrain;
  if (changes.stopLossPercent !== undefined || changes.takeProfitPercent !== undefined) {
    const { min, max } = riskParameterBounds.takeProfitRatio;
    out.stopLossValue = settings.stopLossPercent;
    out.takeProfitRatio = Math.min(max, Math.max(min, ratioFor(settings.takeProfitPercent, settings.stopLossPercent)));
  }
  return out;
}

/**
 * The profile of a read-model document written before the profile existed (it kept `settings` and
 * `parameters` apart). Its history cannot be replayed here, so the document's two sets are joined:
 * the risk parameters, with the four quantities the bot obeyed taken from its settings (that is what
 * the bot traded by). A rebuild of the projection (`npm run rebuild -- risk`) folds the events in
 * order instead, as the command side does.
 */
export function profileFromLegacyDocument(doc: { settings?: BotSettings; parameters?: RiskParameters }): RiskProfile {
  const profile: RiskProfile = { ...DEFAULT_RISK_PROFILE, ...(doc.parameters ?? {}) };
  if (!doc.settings) return profile;
  return applyProfileChanges(profile, profileChangesFromV1BotSettings(doc.settings, doc.settings));
}
