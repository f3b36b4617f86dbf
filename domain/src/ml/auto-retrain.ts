/**
 * The daily auto-retrain (Settings, Bot Settings' autoRetrain, issue 21): a user who trained a model
 * of their own and keeps autoRetrain on (the default) has it trained again, with the same settings,
 * once it is a day old. The workers' AutoRetrainer (workers/src/ml/auto-retrain.ts) asks the read
 * models for the models trained more than AUTO_RETRAIN_AFTER_MS ago and requests a training for each
 * one this rule lets through, as a 'scheduled' request: a long job like the user's own retrain, which
 * the user's daily limit does not count (model.ts).
 *
 * Who is not retrained: a user without a model of their own (they see the house model, which is not
 * theirs to retrain), one with autoRetrain off, one whose model is training, and one whose last
 * training failed less than a day ago (a failing retrain is tried again a day later, not every round).
 */
import { HOUSE_MODEL_USER_ID } from './model';
import type { MlStatusView } from './ml-status-view';

/** A model this old is trained again. */
export const AUTO_RETRAIN_AFTER_MS = 24 * 60 * 60 * 1000;

export type AutoRetrainCheck =
  | { due: true }
  | { due: false; reason: 'no own model' | 'auto-retrain off' | 'training' | 'trained within a day' | 'failed within a day' };

/** Whether `view`'s model is due for its daily retrain at `nowMs`, given the user's autoRetrain setting. */
export function autoRetrainCheck(view: MlStatusView | null, autoRetrain: boolean, nowMs: number): AutoRetrainCheck {
  if (!view?.current || view.userId === HOUSE_MODEL_USER_ID) return { due: false, reason: 'no own model' };
  if (!autoRetrain) return { due: false, reason: 'auto-retrain off' };
  if (view.training) return { due: false, reason: 'training' };
  if (nowMs - Date.parse(view.current.trainedAt) < AUTO_RETRAIN_AFTER_MS) return { due: false, reason: 'trained within a day' };
  if (view.lastFailure && nowMs - Date.parse(view.lastFailure.at) < AUTO_RETRAIN_AFTER_MS) return { due: false, reason: 'failed within a day' };
  return { due: true };
}

/** The scheduled request's key: one a user and UTC day, so two workers processes ask for the same job. */
export const autoRetrainKey = (userId: string, nowIso: string) => `auto-retrain:${userId}@${nowIso.slice(0, 10)}`;
