/**
 * What the AI Confidence and Active Signals cards say about one `/api/signals?symbol=` answer. The
 * counts are the server's (every signal generated for the coin, counted case-insensitively by its
 * projector), not a count of the listed page, which holds only the latest ones.
 */
import type { Signal, SignalsResponse } from '@papertrade/domain/signals/contracts';

/** The newest signal (the list is newest first), or null when the coin has none yet. */
export function latestSignal(response: SignalsResponse): Signal | null {
  return response.signals[0] ?? null;
}

export type ConfidenceLevel = 'High' | 'Medium' | 'Low';

/** Section 9's confidence words (above 80 High, above 60 Medium, else Low), applied to a signal's confidence. */
export function confidenceLevel(confidence: number): ConfidenceLevel {
  if (confidence > 80) return 'High';
  if (confidence > 60) return 'Medium';
  return 'Low';
}

/** The AI Confidence card's note: the level (and "mixed evidence" when the reasons conflict), and which signal it is. */
export function confidenceNote(latest: Signal, symbol: string): string {
  return `${confidenceLevel(latest.confidence)}${latest.mixed ? ' (mixed evidence)' : ''}, from the latest ${symbol} signal (${latest.type})`;
}
