/** Every projection this service runs. */
import type { Document } from '@papertrade/platform/document-store/document-store';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { usersProjection } from './users/users.projection';
import { publicStatsProjection } from './public-stats/public-stats.projection';

export const projections = [usersProjection, publicStatsProjection] as unknown as ProjectionDefinition<Document>[];
