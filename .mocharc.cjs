// One test runner for the whole repo: unit, integration (real PostgreSQL, PGlite, NATS) and
// browser (real Chromium) specs, TypeScript through tsx.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  ignore: ['**/node_modules/**'],
  reporter: './test/summary-reporter.cjs',
  timeout: 30000,
  exit: true,
};
