import type { Logger } from '@papertrade/platform/config/logger';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import type { TokenService } from '@papertrade/platform/auth/tokens';

export interface QueryApiDeps {
  readModels: ReadModels;
  tokens: TokenService;
  logger: Logger;
  clock: () => Date;
  trustProxy: boolean;
}
