/**
 * Root hooks for `npm run test:mutation` only (stryker.config.mjs, mochaOptions.require); `npm test`
 * does not load them.
 *
 * Stryker loads the spec files once per test-runner process, then runs the tests again and again,
 * each time with another mutant active. Three things then differ from a plain mocha run:
 *
 * - Which tests cover the code a `before` hook runs. Stryker's "perTest" coverage names the test
 *   whose (root) `beforeEach` ran last, so what a suite's `before` hook runs (a backtest, a harness, a
 *   day of the engine that the suite's tests then check) was counted as covered by the previous
 *   suite's last test, in another file, or by none. For a mutant there Stryker then ran that
 *   unrelated test, and the mutant survived specs that kill it. Here each `before` hook runs under a
 *   name of its own, and at the end of the run what it covered is given to every test of its suite:
 *   those are the tests that read what it made, and mocha runs the hook again whenever one of them
 *   is run.
 * - Mocha's own timeouts measure instrumented code. In the initial (coverage) run every statement
 *   also records who reached it, and a spec that takes 2 s under `npm test` took more than its 120 s
 *   in the market's hot loops. Stryker times every run itself (dryRunTimeoutMinutes, then timeoutMS
 *   plus the covering tests' measured time for each mutant), so mocha's timeouts are turned off here
 *   for hooks, and for tests in the initial run.
 * - While a mutant is active, each test has a limit of its own: 5 s plus 3 times what it took in this
 *   run's initial run (which counted coverage, so was slower than a mutant's run; the times are in
 *   reports/mutation/test-times.json, written by checkpoint-reporter.mjs). Stryker's limit is for the
 *   whole run, 1.5 times all the covering tests' time plus 10 s: a mutant that leaves a promise
 *   pending forever (an append never sent, a wait on a projection that never comes) hung the first
 *   test it reached, with the CPU idle, for the time of up to a hundred tests; now that test fails at
 *   its own limit and the mutant counts as killed, by a test that took three times its time and more.
 *   A synchronous endless loop blocks mocha's timer; the mutant switch looks at the same limit
 *   (`__stryker__.testDeadline`, fast-coverage.mjs) and stops a loop the mutant's code is in, which
 *   Stryker reports as a timeout (its hit limit); a loop elsewhere still waits out Stryker's limit. The
 *   process a test timed out in may hold what the mutant left pending (a connection, a lock), so it
 *   does not run another mutant: the next run's first hook ends it, and Stryker starts a fresh process
 *   and runs that mutant there (it retries a run whose process ended; the run that timed out has
 *   already reported its kill).
 * - Module-level memos outlive a run. A text or id kept while one mutant was active (or none) would
 *   answer before the mutated derivation is asked, and the mutant would survive a spec that kills it
 *   under mocha. Each test starts with them forgotten, as it does in a fresh process.
 * - The shared market paths (sharedMarketPath: one per key in a process) are the exception, because
 *   they are most of what a run costs: under Stryker's instrumentation a fresh path's days since 2020
 *   take seconds, and each harness, backtest and simulation of a spec computed them again, in every
 *   run of every mutant its tests cover. A path's answers depend only on the files it is made of
 *   (market-path.ts and what it imports). So: while a mutant of one of those files is active, and in
 *   the initial run (whose coverage must be a fresh process's), the paths are forgotten before each
 *   test and each `before` hook, as the other memos are; while any other mutant is active, the paths
 *   are kept, from one test to the next and from one mutant's run to the next, and forgotten only
 *   when a run under one of the path's own mutants (or the initial run) has been in between. A
 *   path's state is then what the unmutated path files computed for the key and the ranges asked:
 *   MarketPath gives out no array of its own (callers pass the arrays it writes into, and get numbers
 *   or new objects back), so code outside those files can ask it anything but change nothing it
 *   holds. The answers are the ones a fresh path would give under that mutant (its code is not in
 *   them), and each test runner process computes a path's days once, not once per mutant. A run that
 *   times out ends its process, and the next starts empty.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Context } = require('mocha');

// Mocha's timeouts off (see above) for a spec's own `this.timeout(ms)` too, which set the limit of its
// test or hook after the hooks below had turned it off: 78 tests and hooks ask for 20 s to 10 min of uninstrumented
// time, and in the initial run one of them (a strategy backtest through the engine) took longer, which
// failed the run. Reading the limit (`this.timeout()`) is left as it is.
const timeoutOf = Context.prototype.timeout;
Context.prototype.timeout = function timeout(...ms) {
  return ms.length === 0 ? timeoutOf.call(this) : this;
};

// The sandbox's own sources (the test runner's working directory is the sandbox), the modules the
// specs load.
const { forgetTimeTexts } = require(path.resolve('domain/src/shared/time-memo.ts'));
const { forgetTradeIds } = require(path.resolve('domain/src/trading/bot-trade-decision.ts'));
const { forgetNumberFormats } = require(path.resolve('domain/src/assistant/facts.ts'));
const MARKET_PATH_FILE = 'domain/src/market/market-path.ts';
const { forgetSharedMarketPaths } = require(path.resolve(MARKET_PATH_FILE));
const NORMAL_TABLES_FILE = 'domain/src/market/normal-quantile.ts';
const { forgetNormalTables } = require(path.resolve(NORMAL_TABLES_FILE));

/** `file` and every file it imports by a relative path, transitively (the sandbox's sources). */
function importClosure(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  const source = fs.readFileSync(path.resolve(file), 'utf8');
  for (const [, spec] of source.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const base = path.join(path.dirname(file), spec);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(path.resolve(candidate)));
    if (found) importClosure(found, into);
  }
  return into;
}

/** The ids of the mutants Stryker placed in `files` (none outside a sandbox). */
function mutantIdsIn(files) {
  const ids = new Set();
  for (const file of files) {
    for (const [, id] of fs.readFileSync(path.resolve(file), 'utf8').matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)) ids.add(id);
  }
  return ids;
}
/** The mutants of the files a market path is made of. */
const marketPathMutants = mutantIdsIn(importClosure(MARKET_PATH_FILE));
/**
 * The normal distribution's tables (normal-quantile.ts) are built at a process's first normal and
 * kept: a mutant of that file changed nothing a process had built before it (its mutants of the tables
 * survived every spec), and tables a fresh process built under one of them served every later mutant
 * of that process (they were killed by wrong normals). So: in the initial run (whose coverage must be
 * a fresh process's: every test that draws a normal covers the tables) and while one of the file's
 * mutants is active, the tables are forgotten before each test and each `before` hook; after such a
 * mutant, once more, so that the next mutant's run builds them unmutated.
 */
const normalTableMutants = mutantIdsIn([NORMAL_TABLES_FILE]);
let normalTablesMutated = false;
function refreshNormalTables() {
  const active = stryker()?.activeMutant;
  if (active === undefined || normalTableMutants.has(String(active))) {
    forgetNormalTables();
    normalTablesMutated = active !== undefined;
  } else if (normalTablesMutated) {
    forgetNormalTables();
    normalTablesMutated = false;
  }
}
/**
 * Whether every shared market path was computed while the active mutant (if any) lay outside the
 * path's files, so that it holds what the unmutated path computes (see above).
 */
let marketPathsUnmutated = false;

/** Forgets the shared market paths unless both they and the active mutant are outside the path's files. */
function refreshMarketPaths() {
  const active = stryker()?.activeMutant;
  if (active === undefined || marketPathMutants.has(String(active))) {
    forgetSharedMarketPaths();
    marketPathsUnmutated = false;
  } else if (!marketPathsUnmutated) {
    forgetSharedMarketPaths();
    marketPathsUnmutated = true;
  }
}

/** Stryker's instrumentation namespace (coverage, the current test), as the instrumented code finds it. */
const stryker = () => globalThis.__stryker__;

/**
 * `{ name: ms }` that a file of this run's initial run holds (under the project root), or nothing: a
 * run without the checkpoint reporter has no times, and then Stryker's limit alone.
 */
function readInitialRunTimes(file) {
  try {
    return new Map(Object.entries(JSON.parse(fs.readFileSync(path.join(process.env.STRYKER_PROJECT_ROOT ?? '', file), 'utf8'))));
  } catch {
    return new Map();
  }
}
/** The limit of a test or hook that took `ms` in the initial run while a mutant is active: 5 s plus 3 times that; none (0) in the initial run or when not measured. */
function limitMs(ms) {
  return stryker()?.activeMutant === undefined || ms === undefined ? 0 : 5000 + 3 * ms;
}
/** What each test took in this run's initial run (see above), read at the first mutant's run; null before. */
let initialTestTimes = null;
function testLimitMs(test) {
  if (stryker()?.activeMutant === undefined) return 0; // the initial run: no limit of mocha's
  initialTestTimes ??= readInitialRunTimes('reports/mutation/test-times.json');
  return limitMs(initialTestTimes.get(test.fullTitle()));
}
/**
 * What each suite's `before` hook took in this run's initial run (measured here, written at its end to
 * reports/mutation/hook-times.json, read at the first mutant's run), for the same limit as a test's:
 * a hook's work (a backtest, a harness's day) is where many of a mutant's loops run.
 */
const HOOK_TIMES_FILE = 'reports/mutation/hook-times.json';
const measuredHookTimes = new Map();
let initialHookTimes = null;
function hookLimitMs(name) {
  if (stryker()?.activeMutant === undefined) return 0;
  initialHookTimes ??= readInitialRunTimes(HOOK_TIMES_FILE);
  return limitMs(initialHookTimes.get(name));
}
/** The running test's or hook's limit for a synchronous loop, from now (none for 0): the mutant switch looks at it (fast-coverage.mjs). */
function startDeadline(limit) {
  const ns = stryker();
  if (ns) ns.testDeadline = limit > 0 ? Date.now() + limit : undefined;
}
/**
 * Its end. A loop stopped at the deadline may have left what it was building half made: a fresh process
 * for the next mutant, as after a timeout.
 */
function endDeadline() {
  const ns = stryker();
  if (!ns) return;
  if (ns.deadlinePassed) timedOutUnderMutant = true;
  ns.deadlinePassed = false;
  ns.testDeadline = undefined;
}
/** Whether a test timed out under the last mutant (mocha resets a test's state when the next run starts). */
let timedOutUnderMutant = false;
const HOOK_PREFIX = '\u0000before all of ';
/** The suite of each `before` hook's coverage name. */
const suitesByHookName = new Map();
const wrapped = Symbol('stryker hook attribution');

/**
 * `original` (a mocha test or hook function) run between `enter()` and `leave(enter's value)`, however it
 * ends: a callback, a promise, a throw. Its arity is kept: mocha tells a callback function by it.
 */
function bracket(original, enter, leave) {
  const fn =
    original.length > 0
      ? function (done) {
          const entered = enter();
          try {
            return original.call(this, (error) => {
              leave(entered);
              done(error);
            });
          } catch (error) {
            leave(entered);
            throw error;
          }
        }
      : function () {
          const entered = enter();
          let result;
          try {
            result = original.call(this);
          } catch (error) {
            leave(entered);
            throw error;
          }
          if (result && typeof result.then === 'function') {
            return result.then(
              (value) => {
                leave(entered);
                return value;
              },
              (error) => {
                leave(entered);
                throw error;
              },
            );
          }
          leave(entered);
          return result;
        };
  fn[wrapped] = true;
  return fn;
}

/**
 * A test's limit for a synchronous loop (mocha's timer cannot fire in one): the mutant switch looks at
 * `__stryker__.testDeadline` (fast-coverage.mjs). It runs from the test function's start to its end, as
 * mocha's timeout does, not over the suite's `beforeEach` hooks (a fresh database, an app), which its
 * initial-run time does not count either.
 */
function limitTest(test) {
  if (typeof test.fn !== 'function' || test.fn[wrapped]) return;
  test.fn = bracket(test.fn, () => startDeadline(testLimitMs(test)), endDeadline);
}

/** Every suite under `suite`, itself included. */
function* suitesOf(suite) {
  yield suite;
  for (const child of suite.suites) yield* suitesOf(child);
}

/**
 * Runs each `before` hook of every suite under its own coverage name (see above), and each test under
 * its limit for a synchronous loop (limitTest); idempotent.
 */
function nameBeforeHooks(root) {
  for (const suite of suitesOf(root)) {
    suite.tests.forEach(limitTest);
    if (suite.root) continue; // the root's own `before` hooks: this one
    for (const hook of [...suite._beforeEach, ...suite._afterEach, ...suite._afterAll]) hook.timeout(0);
    suite._beforeAll.forEach((hook, index) => {
      hook.timeout(0);
      if (hook.fn[wrapped]) return;
      const name = `${HOOK_PREFIX}${suite.fullTitle()} #${index}`;
      suitesByHookName.set(name, suite);
      const original = hook.fn;
      const enter = () => {
        const ns = stryker();
        if (ns) ns.currentTestId = name;
        // The hook's own limit, for a synchronous loop (see limitTest).
        startDeadline(hookLimitMs(name));
        refreshMarketPaths();
        refreshNormalTables();
        return Date.now();
      };
      const leave = (started) => {
        if (stryker() && stryker().activeMutant === undefined) measuredHookTimes.set(name, Date.now() - started);
        endDeadline();
      };
      hook.fn = bracket(original, enter, leave);
    });
  }
}

/** Gives what each `before` hook covered to every test of its suite, and drops the hook's own entry. */
function attributeHookCoverage() {
  const perTest = stryker()?.mutantCoverage?.perTest;
  if (!perTest) return;
  for (const [name, suite] of suitesByHookName) {
    const covered = perTest[name];
    if (!covered) continue;
    suite.eachTest((test) => {
      const id = test.fullTitle();
      const into = (perTest[id] ??= {});
      for (const [mutant, hits] of Object.entries(covered)) into[mutant] = (into[mutant] ?? 0) + hits;
    });
    delete perTest[name];
  }
}

exports.mochaHooks = {
  beforeAll() {
    // A test of the last run timed out under its mutant: this process may hold what that mutant left
    // pending, so it ends here, and Stryker runs this mutant again in a fresh one (see above).
    if (timedOutUnderMutant) process.exit(70);
    nameBeforeHooks(this.test.parent);
  },
  beforeEach() {
    if (this.currentTest) this.currentTest.timeout(testLimitMs(this.currentTest));
    forgetTimeTexts();
    forgetTradeIds();
    forgetNumberFormats();
    refreshMarketPaths();
    refreshNormalTables();
    // STRYKER_TRACE=<file>: each test's start written there, to see where a long run is.
    if (process.env.STRYKER_TRACE && this.currentTest) {
      require('node:fs').appendFileSync(process.env.STRYKER_TRACE, `${new Date().toISOString()} ${process.pid} ${this.currentTest.fullTitle()}\n`);
    }
  },
  afterEach() {
    // Mocha runs this hook after a test that failed too, a timed-out one included.
    if (this.currentTest?.timedOut && stryker()?.activeMutant !== undefined) timedOutUnderMutant = true;
    // A test mocha's timer ended never reached the end of its function (limitTest): its deadline ends here.
    endDeadline();
  },
  afterAll() {
    // The counts fast-coverage.mjs holds for the last test, into Stryker's coverage first.
    stryker()?.fastCoverage?.flush();
    attributeHookCoverage();
    if (stryker() && stryker().activeMutant === undefined && process.env.STRYKER_PROJECT_ROOT) {
      const file = path.join(process.env.STRYKER_PROJECT_ROOT, HOOK_TIMES_FILE);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(Object.fromEntries(measuredHookTimes)));
    }
  },
};
