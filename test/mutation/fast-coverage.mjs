// `npm run test:mutation` only: makes the code Stryker instruments cheap to run when a mutant is
// active. Stryker wraps every statement and expression of the mutated files in a call that counts,
// per test, how often each mutant's place is reached (`stryCov_9fa48`). Those counts are read after
// the initial (coverage) run only: they say which tests to run for each mutant, and how often its
// place may be reached before its run counts as an endless loop (100 times the count). Yet the
// instrumented code keeps counting in every later run, one with a mutant active too, in a dictionary
// per test keyed by mutant id. In the market's hot loops (the ChaCha blocks, the clock's minutes from
// the epoch) that made a spec of 1 s take 100 s, in every run of every mutant those specs cover.
//
// Here the sandbox's instrumented files get a counter that does nothing while a mutant is active and,
// in the initial run, counts exactly what Stryker's counts, in an array by mutant id for the test in
// hand; when another test starts (or the run ends: `__stryker__.fastCoverage.flush()`, from stryker-hooks.cjs) the
// array is added into Stryker's entry for the test it was counting, so Stryker reads the same per-test
// and static counts it would have made. Files are changed in place, once per process, before the
// first is loaded; a file already changed is left alone.
//
// The same pass gives the mutant switch (`stryMutAct_9fa48`, which the instrumented code calls at every
// mutant's place to ask whether that mutant is the active one) a deadline: stryker-hooks.cjs sets
// `__stryker__.testDeadline` to the end of the running test's own limit (5 s plus 3 times its
// initial-run time), and a mutant that keeps a synchronous loop from ending (a bound run past, a
// counter run backwards) is stopped there, where mocha's timer cannot fire: the switch throws, and
// Stryker's own "hit limit reached" result (a Timeout, as it says of a mutant reached more than 100
// times its initial count; here "Hit limit reached (Infinity/N)") ends the run. Without it such a
// mutant held its worker for Stryker's whole limit, a factor of every covering test's time (up to 15
// minutes a mutant on the market's files). A loop in code Stryker did not instrument is still left to
// Stryker's limit.
import fs from 'node:fs';
import path from 'node:path';

const STRYKER_COVER = `  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }`;

const FAST_COVER = `  function cover() {
    // fast-coverage.mjs: counts are read after the initial run only, and a process that has run a
    // mutant runs no initial run again: from then on this file's counter is one that does nothing.
    if (ns.activeMutant !== undefined) {
      stryCov_9fa48 = noCoverage;
      return;
    }
    var f = ns.fastCoverage || (ns.fastCoverage = fastCoverageState(cov));
    if (ns.currentTestId !== f.id) f.switchTo(ns.currentTestId);
    var counts = f.counts;
    for (var i = 0; i < arguments.length; i++) {
      var k = +arguments[i];
      if (k >= 0 && k < counts.length) {
        if (counts[k]++ === 0) f.touched.push(k);
      } else {
        var c = f.id ? (cov.perTest[f.id] = cov.perTest[f.id] || {}) : cov.static;
        c[arguments[i]] = (c[arguments[i]] || 0) + 1;
      }
    }
  }
  function noCoverage() {}
  function fastCoverageState(cov) {
    var state = {
      id: ns.currentTestId,
      counts: new Float64Array(1 << 16),
      touched: [],
      switchTo: function (id) {
        state.flush();
        state.id = id;
      },
      flush: function () {
        if (state.touched.length === 0) return;
        var c = state.id ? (cov.perTest[state.id] = cov.perTest[state.id] || {}) : cov.static;
        for (var j = 0; j < state.touched.length; j++) {
          var k = state.touched[j];
          c[k] = (c[k] || 0) + state.counts[k];
          state.counts[k] = 0;
        }
        state.touched.length = 0;
      }
    };
    return state;
  }`;

const STRYKER_SWITCH = `  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }`;

const SWITCH_START = '  function isActive(id) {\n';
const DEADLINE_SWITCH = STRYKER_SWITCH.replace(
  SWITCH_START,
  `  // fast-coverage.mjs: the running test's deadline, looked at every 4,096th time this file's code
  // reaches a mutant's place (the active one's or any other's).
  var reached = 0;
${SWITCH_START}    if ((++reached & 4095) === 0 && ns.testDeadline !== undefined && Date.now() > ns.testDeadline) {
      ns.deadlinePassed = true;
      if (ns.hitLimit === undefined) ns.hitLimit = 0;
      ns.hitCount = Infinity;
      throw new Error('Stryker: the test ran past its limit with a mutant active (a loop that does not end)');
    }
`,
);

const ROOTS = ['domain/src', 'platform/src'];
let patched = false;

function* tsFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) yield full;
  }
}

/** Gives the sandbox's instrumented files the counter above; once per process (threads each once). */
export function patchSandboxCoverage(sandbox) {
  if (patched) return;
  patched = true;
  // STRYKER_FAST_COVERAGE=off keeps Stryker's own counter (to compare the two).
  if (process.env.STRYKER_FAST_COVERAGE === 'off') return;
  for (const root of ROOTS) {
    const dir = path.join(sandbox, root);
    if (!fs.existsSync(dir)) continue;
    for (const file of tsFiles(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes(STRYKER_COVER)) continue;
      if (!text.includes(STRYKER_SWITCH)) throw new Error(`${file}: Stryker's mutant switch is not the one fast-coverage.mjs knows`);
      // Another test-runner process may be doing the same: write aside, then rename (atomic).
      const aside = `${file}.${process.pid}.fast-coverage`;
      // STRYKER_TEST_DEADLINE=off leaves the mutant switch as Stryker wrote it (to compare the two).
      const active = process.env.STRYKER_TEST_DEADLINE === 'off' ? STRYKER_SWITCH : DEADLINE_SWITCH;
      fs.writeFileSync(aside, text.replace(STRYKER_COVER, FAST_COVER).replace(STRYKER_SWITCH, active));
      fs.renameSync(aside, file);
    }
  }
}
