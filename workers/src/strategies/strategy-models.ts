/**
 * The stored models as the neural strategy's backtest reads them (domain/src/strategies/
 * strategy-backtest.ts StrategyModelPort): every model the user trained and every house model, from
 * their `model-{userId}` streams' ModelTrained events (when each was trained, on data to when), and a
 * scorer that loads a model by its digest from the `ml-models` documents (once per process, as the live
 * strategy engine does) and scores raw feature rows standardised as the model was trained.
 */
import { FEATURE_COUNT } from '@papertrade/domain/ml/features';
import { HOUSE_MODEL_USER_ID, modelStreamId, type ModelTrained } from '@papertrade/domain/ml/model';
import type { StrategyModel, StrategyModelPort } from '@papertrade/domain/strategies/strategy-backtest';
import type { DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import { storedModelLoader } from './strategy-engine';

export function storedStrategyModels(events: Pick<EventStore, 'readStream'>, documents: DocumentStore): StrategyModelPort {
  const load = storedModelLoader(documents);
  const trained = async (userId: string, owner: StrategyModel['owner']): Promise<StrategyModel[]> =>
    (await events.readStream(modelStreamId(userId)))
      .filter((e) => e.type === 'ModelTrained')
      .map((e) => {
        const d = e.data as ModelTrained['data'];
        return { digest: d.digest, owner, modelType: d.modelType, trainedAt: d.trainedAt, asOf: d.asOf };
      });
  return {
    async models(userId) {
      const [own, house] = await Promise.all([userId === HOUSE_MODEL_USER_ID ? Promise.resolve([]) : trained(userId, 'own'), trained(HOUSE_MODEL_USER_ID, 'house')]);
      return [...own, ...house];
    },
    async score(digest, features, rows) {
      const { stored, predict } = await load(digest);
      const { mean, std } = stored.standardisation;
      const x = new Float32Array(rows * FEATURE_COUNT);
      for (let r = 0; r < rows; r++) {
        for (let f = 0; f < FEATURE_COUNT; f++) x[r * FEATURE_COUNT + f] = (features[r * FEATURE_COUNT + f]! - mean[f]!) / std[f]!;
      }
      return predict(x, rows);
    },
  };
}
