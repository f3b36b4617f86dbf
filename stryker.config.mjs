// Mutation testing (`npm run test:mutation`, not part of `npm test`): the domain rules and the
// platform's write path, event store, projector runtime and auth, measured against the unit and
// integration specs that exercise them. Browser and multi-process suites are left out. The HTML report
// is written to reports/mutation/; the results are kept in test/mutation/ (see incrementalFile).

import './test/mutation/mocha-12-cli-shim.cjs';
import { orderedSpecFiles } from './test/mutation/spec-order.mjs';

// The portfolio property test runs 300 random sequences in `npm test`; here it reruns for each of
// hundreds of trading mutants, so 40 sequences each (still every rule, on fewer random histories).
process.env.PROPERTY_RUNS ??= '40';
// The initial run counts coverage at every statement: specs that wait for the market (test/wait.ts)
// get ten times their deadlines. A mutant is still bounded by Stryker's own timeout (timeoutMS below).
process.env.WAIT_TIMEOUT_SCALE ??= '10';
// Where the test runner processes (whose working directory is Stryker's sandbox copy) find the
// reports this run writes (stryker-hooks.cjs reads the initial run's test times there).
process.env.STRYKER_PROJECT_ROOT ??= process.cwd();

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  // tsx as .mocharc.cjs's node-option, which the mocha runner (mocha loaded as a library) does not
  // read; the shim in the test runner processes too.
  // sandbox-packages.mjs: `@papertrade/*` imports load the sandbox's (mutated) sources, not the
  // repository's (see the file); it also gives the instrumented files a cheaper coverage counter
  // (fast-coverage.mjs: the same counts, none while a mutant is active).
  testRunnerNodeArgs: ['--import=tsx', '--import=./test/mutation/sandbox-packages.mjs', '--require=./test/mutation/mocha-12-cli-shim.cjs'],
  // The checker process loads every plugin too (it only warns without the shim).
  checkerNodeArgs: ['--require=./test/mutation/mocha-12-cli-shim.cjs'],
  mochaOptions: {
    config: '.mocharc.cjs',
    // What each suite's `before` hooks run counted as covered by the suite's tests, mocha's timeouts
    // off, module-level memos forgotten before each test (see the file).
    require: ['./test/mutation/stryker-hooks.cjs'],
    // Every spec file under these folders, cheapest test first (spec-order.mjs: a mutant's run stops at
    // its first failing test, so the order decides what a killed mutant costs, never whether it dies).
    spec: orderedSpecFiles([
      'domain/src',
      'platform/src/auth',
      'platform/src/commands',
      'platform/src/event-store',
      'platform/src/projections',
      'projectors/src',
      // Issue 16: the read side and the workers exercise the domain's views, the engine and the
      // command helper through real stores (embedded PGlite), so their specs count too.
      'query-api/src',
      'workers/src',
    ]),
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
  // A mutant's limit is timeoutFactor x its covering tests' time in the initial run (+ timeoutMS + the
  // run's overhead), Stryker's default factor. Few mutants wait for it: each test has its own limit
  // while a mutant is active (test/mutation/stryker-hooks.cjs: 5 s plus 3 times its initial-run time),
  // which mocha's timer enforces for a test left waiting and the mutant switch for a synchronous loop in
  // instrumented code (test/mutation/fast-coverage.mjs). The initial run's time is inflated by counting
  // coverage in the instrumented files (4 to 5 times a mutant run's when every file is instrumented,
  // about the same when only a few are: `--mutate` one file), so this limit stays above a mutant run's
  // time however few files a run mutates.
  timeoutFactor: 1.5,
  dryRunTimeoutMinutes: 15,
  // A full run is about 12,000 mutants and more than a working session on two cores, so the results are
  // kept in the repository and each run retests only what changed since: Stryker reuses a result when
  // the mutant's code is unchanged and (killed) its killing test is unchanged or (survived) no new test
  // covers it. `npm run test:mutation -- --force` retests every mutant.
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  // checkpoint: each result written as it comes, so a run stopped part way keeps them (see the file).
  plugins: ['@stryker-mutator/*', './test/mutation/checkpoint-reporter.mjs'],
  reporters: ['clear-text', 'progress', 'html', 'json', 'checkpoint'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  // Not needed by the specs above; keeps the sandbox copy small. bench/support stays: the assistant's
  // specs seed their data with it (test/assistant-data.ts), and without it the initial run fails.
  ignorePatterns: ['web', 'bench/*', '!bench/support', 'deploy', 'data', 'artifacts', 'reports', '.tmp', 'test/mutation/stryker-incremental.json'],
};
