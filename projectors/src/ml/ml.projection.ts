/**
 * ml-status (one document per user's model, the house's too) and ml-model-types (the last training's
 * figures per model type): domain/src/ml/ml-status-view.ts. After a batch with model events is
 * written, ML_UPDATE `{jobId, status, modelType, accuracy}` goes to the user's sockets, and for the
 * house model to every socket (everyone without a model of their own sees it): after the write, so a
 * client that refreshes ml-status on ML_UPDATE finds the change.
 */
import { HOUSE_MODEL_USER_ID } from '@papertrade/domain/ml/model';
import {
  ML_MODEL_TYPES_PROJECTION,
  ML_STATUS_PROJECTION,
  evolveMlStatusView,
  evolveModelTypeStats,
  mlStatusDocumentId,
  modelTypeStatsDocumentId,
  type MlStatusView,
  type ModelTypeStatsView,
} from '@papertrade/domain/ml/ml-status-view';
import { mlUpdateSchema, type MlUpdate } from '@papertrade/domain/realtime/contracts';
import { publicRealtimeSubject, userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const mlStatusProjection: ProjectionDefinition<MlStatusView> = {
  name: ML_STATUS_PROJECTION,
  documentIds: (event) => {
    const id = mlStatusDocumentId(event);
    return id === null ? [] : [id];
  },
  evolve: (doc, event) => evolveMlStatusView(doc, event),
  async afterWrite(written, { bus }) {
    for (const { doc } of written) {
      if (!doc) continue;
      const update: MlUpdate = mlUpdateSchema.parse({
        jobId: doc.lastChange === 'QUEUED' ? (doc.training?.jobId ?? null) : doc.lastJobId,
        status: doc.lastChange,
        modelType: doc.lastChange === 'QUEUED' ? (doc.training?.modelType ?? null) : (doc.current?.modelType ?? null),
        accuracy: doc.lastChange === 'TRAINED' ? (doc.current?.accuracy ?? null) : null,
      });
      if (doc.userId === HOUSE_MODEL_USER_ID) await bus.publish(publicRealtimeSubject('ML_UPDATE'), update);
      else if (UUID.test(doc.userId)) await bus.publish(userRealtimeSubject(doc.userId, 'ML_UPDATE'), update);
    }
  },
};

export const mlModelTypesProjection: ProjectionDefinition<ModelTypeStatsView> = {
  name: ML_MODEL_TYPES_PROJECTION,
  documentIds: (event) => {
    const id = modelTypeStatsDocumentId(event);
    return id === null ? [] : [id];
  },
  evolve: (doc, event) => evolveModelTypeStats(doc, event),
};
