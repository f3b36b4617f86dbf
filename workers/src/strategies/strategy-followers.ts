/**
 * Who follows which evaluation (issue 19): the active strategies of every user (the `strategies` read
 * model), each reduced to its evaluation key: the configuration's key, and for the neural strategy the
 * model it reads too (the user's own model when they have trained one, else the house model: the
 * `ml-status` read model's current digest). Users with equal keys share one evaluation per candle
 * (strategy-engine.ts) and follow the same signals (the trading bot).
 */
import { HOUSE_MODEL_USER_ID } from '@papertrade/domain/ml/model';
import { ML_STATUS_PROJECTION, type MlStatusView } from '@papertrade/domain/ml/ml-status-view';
import { configIdOf, configKey, defaultConfiguration, type StrategyConfiguration, type StrategyType } from '@papertrade/domain/strategies/strategy-catalogue';
import { MODEL_KEY_SEPARATOR, STRATEGIES_PROJECTION, type StrategyView } from '@papertrade/domain/strategies/strategy-view';
import type { ReadModels } from '@papertrade/platform/projections/read-models';

export interface Evaluation {
  /** The signal stream's key: the configuration's, plus the model for neural. */
  key: string;
  configId: string;
  strategyType: StrategyType;
  configuration: StrategyConfiguration;
  /** Neural: the model's digest and whose it is. */
  model: { digest: string; owner: 'own' | 'house' } | null;
}

export interface Follower {
  userId: string;
  strategyId: string;
  evaluation: Evaluation;
}

export async function activeStrategies(readModels: ReadModels): Promise<StrategyView[]> {
  return (await readModels.collection<StrategyView>(STRATEGIES_PROJECTION)).find({ where: { active: true } });
}

/** The model each user's neural strategy reads: their own current model, else the house model's (null: none trained yet). */
export async function modelsOf(readModels: ReadModels, userIds: readonly string[]): Promise<Map<string, Evaluation['model']>> {
  const out = new Map<string, Evaluation['model']>();
  if (userIds.length === 0) return out;
  const statuses = await readModels.collection<MlStatusView>(ML_STATUS_PROJECTION);
  const found = await statuses.getManyWithPosition([...new Set([...userIds, HOUSE_MODEL_USER_ID])]);
  const byUser = new Map(found.map((d) => [d.id, d.doc]));
  const house = byUser.get(HOUSE_MODEL_USER_ID)?.current?.digest ?? null;
  for (const userId of userIds) {
    const own = byUser.get(userId)?.current?.digest ?? null;
    out.set(userId, own ? { digest: own, owner: 'own' } : house ? { digest: house, owner: 'house' } : null);
  }
  return out;
}

export function evaluationOf(view: Pick<StrategyView, 'strategyType' | 'configuration'>, model: Evaluation['model']): Evaluation | null {
  const configuration = view.configuration ?? defaultConfiguration(view.strategyType);
  let key = configKey(view.strategyType, configuration);
  if (view.strategyType === 'neural') {
    if (!model) return null; // no model trained yet: nothing to evaluate
    key = `${key}${MODEL_KEY_SEPARATOR}${model.digest}`;
  }
  return { key, configId: configIdOf(key), strategyType: view.strategyType, configuration, model: view.strategyType === 'neural' ? model : null };
}

/** Every active strategy with its evaluation (neural ones without any model left out). */
export async function followers(readModels: ReadModels): Promise<Follower[]> {
  const views = await activeStrategies(readModels);
  const models = await modelsOf(readModels, views.filter((v) => v.strategyType === 'neural').map((v) => v.userId));
  return views.flatMap((v) => {
    const evaluation = evaluationOf(v, models.get(v.userId) ?? null);
    return evaluation ? [{ userId: v.userId, strategyId: v.strategyId, evaluation }] : [];
  });
}
