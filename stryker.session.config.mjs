import base from './stryker.config.mjs';
export default {
  ...base,
  mochaOptions: { ...base.mochaOptions, spec: ['domain/src/**/*.spec.ts'] },
  mutate: ['domain/src/trading/portfolio.ts:346-452', 'domain/src/shared/time-memo.ts:1-122', 'domain/src/backtest/market.ts:51-290', 'domain/src/trading/market-figures.ts:76-115'],
  incrementalFile: '/tmp/stryker-session-incremental.json',
  htmlReporter: { fileName: '/tmp/stryker-session.html' },
  jsonReporter: { fileName: '/tmp/stryker-session.json' },
  reporters: ['clear-text', 'json'],
};
