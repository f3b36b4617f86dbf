// A Stryker reporter that writes each mutant's result as soon as it is known, one JSON line each, to
// reports/mutation/checkpoint.jsonl. Stryker writes its results (and the incremental file) only when a
// run ends, and a whole run takes longer than a working session on two cores: without this, a run
// stopped part way keeps nothing. `node test/mutation/merge-checkpoint.mjs` (run.mjs runs it before and
// after each run) folds the lines into the incremental file, so the next run reuses them.
import fs from 'node:fs';
import path from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

export const CHECKPOINT_FILE = 'reports/mutation/checkpoint.jsonl';
// The dry run's tests, by file, with each test file's text as the run had it: a result names its
// tests by title, and a test new since the last finished run is unknown to the incremental file.
export const CHECKPOINT_TESTS_FILE = 'reports/mutation/checkpoint-tests.json';
/** Milliseconds each spec file's tests took in the last initial run, slowest first. */
export const INITIAL_RUN_TIMES_FILE = 'reports/mutation/initial-run-times.json';

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
    fs.writeFileSync(CHECKPOINT_TESTS_FILE, JSON.stringify({ files }));
    fs.writeFileSync(INITIAL_RUN_TIMES_FILE, JSON.stringify(Object.fromEntries(Object.entries(times).sort(([, a], [, b]) => b - a)), null, 1));
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
