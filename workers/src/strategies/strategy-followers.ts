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
import { ACTIVE_EVALUATIONS_ID, MODEL_KEY_SEPARATOR, STRATEGIES_PROJECTION, STRATEGY_EVALUATIONS_PROJECTION, strategyKeyOf, type ActiveEvaluationsView, type StrategyView } from '@papertrade/domain/strategies/strategy-view';
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

/** Every distinct evaluation of the active strategies, with how many strategies it serves: one document read (the counts per configuration), plus, only when neural strategies are active, their users' models. */
export async function distinctEvaluations(readModels: ReadModels): Promise<Array<{ evaluation: Evaluation; users: number }>> {
  const doc = await (await readModels.collection<ActiveEvaluationsView>(STRATEGY_EVALUATIONS_PROJECTION)).get(ACTIVE_EVALUATIONS_ID);
  const out = new Map<string, { evaluation: Evaluation; users: number }>();
  let neural = false;
  for (const c of Object.values(doc?.configs ?? {})) {
    if (c.strategyType === 'neural') {
      neural = true;
      continue;
    }
    const evaluation = evaluationOf({ strategyType: c.strategyType, configuration: c.configuration }, null)!;
    out.set(evaluation.key, { evaluation, users: c.users });
  }
  if (neural) {
    const views = await (await readModels.collection<StrategyView>(STRATEGIES_PROJECTION)).find({ where: { active: true, strategyType: 'neural' } });
    const models = await modelsOf(readModels, views.map((v) => v.userId));
    for (const v of views) {
      const evaluation = evaluationOf(v, models.get(v.userId) ?? null);
      if (!evaluation) continue;
      const entry = out.get(evaluation.key);
      if (entry) entry.users += 1;
      else out.set(evaluation.key, { evaluation, users: 1 });
    }
  }
  return [...out.values()];
}

/** The users whose active strategy follows the signals of evaluation `key` (a signal's configKey). */
export async function followersOf(readModels: ReadModels, key: string): Promise<string[]> {
  const views = await (await readModels.collection<StrategyView>(STRATEGIES_PROJECTION)).find({ where: { active: true, configKey: strategyKeyOf(key) } });
  if (!key.includes(MODEL_KEY_SEPARATOR)) return views.map((v) => v.userId);
  const models = await modelsOf(readModels, views.map((v) => v.userId));
  return views.filter((v) => evaluationOf(v, models.get(v.userId) ?? null)?.key === key).map((v) => v.userId);
}
