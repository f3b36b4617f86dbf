/**
 * What-ifs (issue 20): "what if my stop loss were 3% over the last 30 days?". The question names a
 * setting of the risk profile and a value, and optionally a period; the assistant runs the backtester
 * twice over the same period, on the same engine the paper bot trades with (domain/src/backtest), once
 * with the user's profile as it is and once with the change, and answers with both runs' figures.
 *
 * What is replayed: the house signals (the strategy the paper bot follows) on one coin (the one the
 * question names, else ETH), from a portfolio of the house's starting cash, over the last N days (30
 * unless the question says otherwise, at most 90): the bot trades every coin, so this is the coin's
 * share of it, and the answer says so.
 *
 * The settings a what-if changes, each mapped onto the one risk profile as Risk Management does:
 * - stop loss P%: a fixed stop P% below the entry (stopLossType fixed, stopLossValue P);
 * - take profit P%: the target P% above the entry, as a take-profit ratio of the stop's distance
 *   (takeProfitRatio = P / the stop's percent). An atr or volatility stop has no percent distance: the
 *   changed run then uses a fixed stop of the profile's stopLossValue percent, and the answer names the
 *   stop each run used. The riskRewardRatio rule still applies: a target too close for it refuses
 *   entries, which the figures then show;
 * - position size P%: maxPositionSize P.
 */
import { riskParameterBounds, type RiskProfile } from '../trading/contracts';

export const WHAT_IF_DEFAULT_DAYS = 30;
export const WHAT_IF_MAX_DAYS = 90;
export const WHAT_IF_STRATEGY = 'house-signals';

export type WhatIfSetting = 'stopLoss' | 'takeProfit' | 'maxPositionSize';

/** What a what-if question asks: the setting changed (if it names one) and the period in days (if it says). */
export interface WhatIfAsk {
  setting: WhatIfSetting | null;
  value: number | null;
  days: number | null;
}

const NUMBER = String.raw`(\d{1,3}(?:\.\d{1,2})?)\s*(?:%|percent|per cent)`;
const SETTINGS: ReadonlyArray<readonly [WhatIfSetting, RegExp]> = [
  ['stopLoss', new RegExp(String.raw`\bstop[- ]?loss(?:es)?\b[^\d%]{0,24}?${NUMBER}`)],
  ['takeProfit', new RegExp(String.raw`\b(?:take[- ]?profits?|targets?)\b[^\d%]{0,24}?${NUMBER}`)],
  ['maxPositionSize', new RegExp(String.raw`\b(?:(?:max(?:imum)? )?position(?: size)?s?|positions? sizes?|sizes?)\b[^\d%]{0,24}?${NUMBER}`)],
];
const WORD_DAYS: Readonly<Record<string, number>> = { day: 1, week: 7, fortnight: 14, month: 30, quarter: 90 };

/** The setting, value and period a (normalised, lower-case) what-if question names. */
export function parseWhatIf(text: string): WhatIfAsk {
  let setting: WhatIfSetting | null = null;
  let value: number | null = null;
  for (const [name, pattern] of SETTINGS) {
    const m = pattern.exec(text);
    if (m) {
      setting = name;
      value = Number(m[1]);
      break;
    }
  }
  let days: number | null = null;
  const n = /\b(?:last|past|previous)\s+(\d{1,4})\s+days?\b/.exec(text);
  if (n) days = Number(n[1]);
  else {
    const w = /\b(?:last|past|previous)\s+(day|week|fortnight|month|quarter)\b/.exec(text);
    if (w) days = WORD_DAYS[w[1]!]!;
  }
  return { setting, value, days };
}

/** Why a what-if cannot be run as asked (the answer says it), or null. */
export function whatIfProblem(ask: WhatIfAsk): 'no setting' | 'out of bounds' | 'period too short' | 'period too long' | null {
  if (ask.setting === null || ask.value === null) return 'no setting';
  const { min, max } = whatIfBounds[ask.setting];
  if (!(ask.value >= min && ask.value <= max)) return 'out of bounds';
  if (ask.days !== null && ask.days < 1) return 'period too short';
  if (ask.days !== null && ask.days > WHAT_IF_MAX_DAYS) return 'period too long';
  return null;
}

/** The values a what-if may set: Risk Management's own bounds (percent). */
export const whatIfBounds: Readonly<Record<WhatIfSetting, { min: number; max: number }>> = {
  stopLoss: { min: riskParameterBounds.stopLossValue.min, max: riskParameterBounds.stopLossValue.max },
  takeProfit: { min: 0.5, max: 100 },
  maxPositionSize: { min: riskParameterBounds.maxPositionSize.min, max: riskParameterBounds.maxPositionSize.max },
};

/** The stop's distance in percent when the profile's stop is one (fixed or trailing), else null. */
export const stopPercentOf = (profile: Pick<RiskProfile, 'stopLossType' | 'stopLossValue'>): number | null =>
  profile.stopLossType === 'fixed' || profile.stopLossType === 'trailing' ? profile.stopLossValue : null;

/** The profile with the what-if's change (see the module comment for each setting's mapping). */
export function changedProfile(profile: RiskProfile, setting: WhatIfSetting, value: number): RiskProfile {
  switch (setting) {
    case 'stopLoss':
      return { ...profile, stopLossType: 'fixed', stopLossValue: value };
    case 'takeProfit': {
      const stop = stopPercentOf(profile);
      const base = stop === null ? { ...profile, stopLossType: 'fixed' as const } : profile;
      return { ...base, takeProfitRatio: value / base.stopLossValue };
    }
    case 'maxPositionSize':
      return { ...profile, maxPositionSize: value };
  }
}
