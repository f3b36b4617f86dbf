/**
 * jobs: one document per long job (domain/src/jobs/job-queue-view.ts), what the job runners of every
 * workers process look at to find work; its change notice (`projection.jobs.changed`) wakes them.
 */
import { JOBS_PROJECTION, evolveJobView, jobDocumentId, type JobView } from '@papertrade/domain/jobs/job-queue-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const jobsProjection: ProjectionDefinition<JobView> = {
  name: JOBS_PROJECTION,
  documentIds: (event) => {
    const id = jobDocumentId(event);
    return id === null ? [] : [id];
  },
  evolve: (doc, event) => evolveJobView(doc, event),
};
