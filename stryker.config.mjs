// Mutation testing (`npm run test:mutation`, not part of `npm test`): the domain rules and the
// platform's write path, event store, projector runtime and auth, measured against the unit and
// integration specs that exercise them. Browser and multi-process suites are left out so a run takes
// minutes. The HTML report is written to reports/mutation/.

import './test/mutation/mocha-12-cli-shim.cjs';

// The test runner processes run in Stryker's sandbox; this tsconfig maps the @papertrade/*
// workspace packages to the sandbox's sources (see its comment). Inherited by the child processes.
process.env.TSX_TSCONFIG_PATH = 'tsconfig.stryker.json';
// The portfolio property test runs 300 random sequences in `npm test`; here it reruns for each of
// hundreds of trading mutants, so 40 sequences each (still every rule, on fewer random histories).
process.env.PROPERTY_RUNS ??= '40';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  // tsx as .mocharc.cjs's node-option, which the mocha runner (mocha loaded as a library) does not
  // read; the shim in the test runner processes too.
  testRunnerNodeArgs: ['--import=tsx', '--require=./test/mutation/mocha-12-cli-shim.cjs'],
  // The checker process loads every plugin too (it only warns without the shim).
  checkerNodeArgs: ['--require=./test/mutation/mocha-12-cli-shim.cjs'],
  mochaOptions: {
    config: '.mocharc.cjs',
    spec: [
      'domain/src/**/*.spec.ts',
      'platform/src/{auth,commands,event-store,projections}/**/*.spec.ts',
      'projectors/src/**/*.spec.ts',
      // Issue 16: the read side and the workers exercise the domain's views, the engine and the
      // command helper through real stores (embedded PGlite), so their specs count too.
      'query-api/src/**/*.spec.ts',
      'workers/src/**/*.spec.ts',
    ],
  },
  mutate: [
    'domain/src/**/*.ts',
    '!domain/src/**/*.spec.ts',
    // Test support (given/when/then), not production code.
    '!domain/src/shared/decider-specification.ts',
    '!domain/src/**/*.fixtures.ts',
    'platform/src/commands/command-handler.ts',
    'platform/src/event-store/sql-event-store.ts',
    'platform/src/event-store/position.ts',
    'platform/src/projections/projector.ts',
    'platform/src/projections/read-models.ts',
    'platform/src/projections/lease.ts',
    'platform/src/auth/*.ts',
    '!platform/src/auth/*.spec.ts',
  ],
  coverageAnalysis: 'perTest',
  // The machine is shared: two workers at most (the script also runs Stryker under `nice`).
  concurrency: 2,
  // Static mutants (module-level constants: zod schemas, the plan catalogue, coin lists) would rerun
  // every spec for each one, which made a domain run take most of a day on two cores; they are left
  // out of the score (reported as Ignored).
  ignoreStatic: true,
  // Integration specs wait on PGlite and PostgreSQL; a busy machine needs slack before a mutant counts as a timeout.
  timeoutMS: 10000,
  dryRunTimeoutMinutes: 15,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  // Not needed by the specs above; keeps the sandbox copy small. bench/support stays: the assistant's
  // specs seed their data with it (test/assistant-data.ts), and without it the initial run fails.
  ignorePatterns: ['web', 'bench/*', '!bench/support', 'deploy', 'data', 'artifacts', 'reports', '.tmp'],
};
