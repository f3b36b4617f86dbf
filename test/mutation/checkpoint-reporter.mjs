// A Stryker reporter that writes each mutant's result as soon as it is known, one JSON line each, to
// reports/mutation/checkpoint.jsonl. Stryker writes its results (and the incremental file) only when a
// run ends, and a whole run takes longer than a working session on two cores: without this, a run
// stopped part way keeps nothing. `node test/mutation/merge-checkpoint.mjs` (run.mjs runs it before and
// after each run) folds the lines into the incremental file, so the next run reuses them.
import fs from 'node:fs';
import path from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { readSpecTimes, SPEC_TIMES_FILE } from './spec-order.mjs';

export const CHECKPOINT_FILE = 'reports/mutation/checkpoint.jsonl';
// The dry run's tests, by file, with each test file's text as the run had it: a result names its
// tests by title, and a test new since the last finished run is unknown to the incremental file.
export const CHECKPOINT_TESTS_FILE = 'reports/mutation/checkpoint-tests.json';
/** Milliseconds each spec file's tests took in the last initial run, slowest first. */
export const INITIAL_RUN_TIMES_FILE = 'reports/mutation/initial-run-times.json';
/**
 * Milliseconds each test took in this run's initial run (by Stryker's test id, the mocha title), read by
 * the test runner processes (stryker-hooks.cjs: a test's own limit while a mutant is active).
 */
export const TEST_TIMES_FILE = 'reports/mutation/test-times.json';
/**
 * The run's plan, one entry a mutant: reused or decided early (with its status) or to be tested, then
 * with Stryker's estimate of what it costs if it survives (the covering tests' time, hooks not counted)
 * and the spec files of its covering tests. Where a run's time will go, known before it goes there.
 */
export const PLAN_FILE = 'reports/mutation/plan.json';

/** A test file's path in the project: the runner reports it inside Stryker's sandbox copy. */
export const projectPath = (fileName) => path.relative(process.cwd(), fileName).replace(/^\.stryker-tmp\/sandbox-[^/]+\//, '').split(path.sep).join('/');

class CheckpointReporter {
  constructor() {
    fs.mkdirSync(path.dirname(CHECKPOINT_FILE), { recursive: true });
    this.fd = fs.openSync(CHECKPOINT_FILE, 'a');
  }

  onDryRunCompleted({ result }) {
    const files = {};
    const times = {};
    for (const test of result.tests) {
      if (!test.fileName) continue;
      const name = projectPath(test.fileName);
      files[name] ??= { source: fs.readFileSync(test.fileName, 'utf8'), tests: [] };
      files[name].tests.push(test.name);
      // What each test took in the initial run (with coverage counted), to see where a run's time goes;
      // this file is left in place (the merge removes the test list once it is folded in).
      times[name] = (times[name] ?? 0) + Math.round(test.timeSpentMs ?? 0);
    }
    fs.writeFileSync(TEST_TIMES_FILE, JSON.stringify(Object.fromEntries(result.tests.map((t) => [t.id, Math.round(t.timeSpentMs ?? 0)]))));
    fs.writeFileSync(CHECKPOINT_TESTS_FILE, JSON.stringify({ files }));
    this.testFiles = new Map(result.tests.filter((t) => t.fileName).map((t) => [t.id, projectPath(t.fileName)]));
    fs.writeFileSync(INITIAL_RUN_TIMES_FILE, JSON.stringify(Object.fromEntries(Object.entries(times).sort(([, a], [, b]) => b - a)), null, 1));
    // The same times with each file's test count, kept in the repository: the next run's spec order
    // (spec-order.mjs). An area run measures its own specs only, so the other files keep their last
    // figures (a file no longer there is dropped); one line a file, by path, so a commit shows what moved.
    const kept = Object.fromEntries(Object.entries(readSpecTimes()).filter(([name]) => fs.existsSync(name)));
    for (const name of Object.keys(times)) kept[name] = { ms: times[name], tests: files[name].tests.length };
    const lines = Object.keys(kept)
      .sort()
      .map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(kept[name])}`);
    fs.writeFileSync(SPEC_TIMES_FILE, `{\n${lines.join(',\n')}\n}\n`);
  }

  onMutationTestingPlanReady({ mutantPlans }) {
    const files = [];
    const fileIndex = new Map();
    const indexOf = (file) => {
      if (!fileIndex.has(file)) fileIndex.set(file, files.push(file) - 1);
      return fileIndex.get(file);
    };
    const mutants = mutantPlans.map(({ plan, mutant, netTime, runOptions }) => {
      const entry = { fileName: path.relative(process.cwd(), mutant.fileName), line: mutant.location.start.line + 1, mutatorName: mutant.mutatorName, plan };
      if (plan === 'EarlyResult') return { ...entry, status: mutant.status };
      const specs = new Set((runOptions.testFilter ?? []).map((id) => this.testFiles?.get(id)).filter(Boolean).map(indexOf));
      return { ...entry, netTime: Math.round(netTime), tests: runOptions.testFilter?.length ?? null, specs: [...specs] };
    });
    fs.writeFileSync(PLAN_FILE, JSON.stringify({ specFiles: files, mutants }));
  }

  onMutantTested(result) {
    const { fileName, mutatorName, replacement, location, status, statusReason, killedBy, coveredBy, testsCompleted } = result;
    const line = { fileName: path.relative(process.cwd(), fileName), mutatorName, replacement, location, status, statusReason, killedBy, coveredBy, testsCompleted, static: result.static };
    // One write per line: a run killed mid-way leaves at most the last line cut short.
    fs.writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  wrapUp() {
    fs.closeSync(this.fd);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)];
