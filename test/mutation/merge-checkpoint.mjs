// Folds reports/mutation/checkpoint.jsonl (written by checkpoint-reporter.mjs while Stryker runs) into
// the incremental file, so that what a run stopped part way had measured is reused by the next run.
//
// Each line is one mutant's result. Its source file is read as it is now; the file's earlier results
// are kept only when the file has not changed since they were measured (otherwise their locations no
// longer match and Stryker would retest them anyway). A result replaces an earlier one of the same
// mutant (file, location, mutator, replacement: Stryker's own key). Its tests are named by their mocha
// titles in the checkpoint and by numbers in the incremental file. The run's own tests are added first
// (see below); a test still unknown is left out, which only makes Stryker retest that mutant (never
// reuse a result it should not).
// After a clean merge the checkpoint is removed.
import fs from 'node:fs';
import { CHECKPOINT_FILE, CHECKPOINT_TESTS_FILE } from './checkpoint-reporter.mjs';
import { mutantKey as key } from './run-scope.mjs';

const incrementalFile = process.argv[2] ?? 'test/mutation/stryker-incremental.json';
if (!fs.existsSync(CHECKPOINT_FILE)) {
  console.log(`${CHECKPOINT_FILE}: nothing to merge`);
  process.exit(0);
}
if (!fs.existsSync(incrementalFile)) {
  // The first run's tests are only known from a finished report; keep the checkpoint for later.
  console.log(`${incrementalFile}: not there, the checkpoint is kept until a run has finished`);
  process.exit(0);
}

const report = JSON.parse(fs.readFileSync(incrementalFile, 'utf8'));
report.testFiles ??= {};

// The run's tests (checkpoint-reporter.mjs writes them when its dry run ends), so that a result killed
// by a test new since the last finished run keeps its killer. A test file the run had as the
// incremental file has it gains the tests it lacks; one whose text has changed since gets the run's
// text and tests, and its earlier tests are dropped: their ids then name no test, so the mutants they
// had killed are retested (their kills were by the test file's earlier text).
let testsAdded = 0;
let testFilesReplaced = 0;
if (fs.existsSync(CHECKPOINT_TESTS_FILE)) {
  const run = JSON.parse(fs.readFileSync(CHECKPOINT_TESTS_FILE, 'utf8'));
  let nextTestId = 1 + Math.max(-1, ...Object.values(report.testFiles).flatMap((entry) => entry.tests.map((t) => Number(t.id)).filter(Number.isFinite)));
  for (const [fileName, { source, tests }] of Object.entries(run.files)) {
    let entry = report.testFiles[fileName];
    if (entry && entry.source !== undefined && entry.source !== source) {
      entry = undefined;
      testFilesReplaced++;
    }
    if (!entry) {
      entry = { source, tests: [] };
      report.testFiles[fileName] = entry;
    }
    const known = new Set(entry.tests.map((t) => t.name));
    for (const name of tests) {
      if (known.has(name)) continue;
      entry.tests.push({ id: String(nextTestId++), name });
      known.add(name);
      testsAdded++;
    }
  }
}
const testIdByName = new Map();
for (const entry of Object.values(report.testFiles)) for (const test of entry.tests) testIdByName.set(test.name, test.id);

let nextId = 1 + Math.max(-1, ...Object.values(report.files).flatMap((entry) => entry.mutants.map((m) => Number(m.id)).filter(Number.isFinite)));

const lines = fs.readFileSync(CHECKPOINT_FILE, 'utf8').split('\n');
const byFile = new Map();
let read = 0;
let cut = 0;
for (const line of lines) {
  if (!line.trim()) continue;
  let result;
  try {
    result = JSON.parse(line);
  } catch {
    cut++; // the last line of a run stopped while writing it
    continue;
  }
  read++;
  if (!byFile.has(result.fileName)) byFile.set(result.fileName, new Map());
  byFile.get(result.fileName).set(key(result), result); // a later line (a later run) wins
}

const toIds = (names) => (names ?? []).map((name) => testIdByName.get(name)).filter((id) => id !== undefined);
let replaced = 0;
let added = 0;
let dropped = 0;
for (const [fileName, results] of byFile) {
  if (!fs.existsSync(fileName)) continue;
  const source = fs.readFileSync(fileName, 'utf8');
  let entry = report.files[fileName];
  if (!entry || entry.source !== source) {
    dropped += entry?.mutants.length ?? 0;
    entry = { language: 'typescript', source, mutants: [] };
    report.files[fileName] = entry;
  }
  const index = new Map(entry.mutants.map((mutant, i) => [key(mutant), i]));
  for (const [k, result] of results) {
    const mutant = {
      mutatorName: result.mutatorName,
      replacement: result.replacement,
      location: result.location,
      status: result.status,
      ...(result.statusReason === undefined ? {} : { statusReason: result.statusReason }),
      ...(result.testsCompleted === undefined ? {} : { testsCompleted: result.testsCompleted }),
      static: result.static ?? false,
      ...(result.status === 'Killed' && result.killedBy?.length ? { killedBy: toIds(result.killedBy) } : { coveredBy: toIds(result.coveredBy) }),
    };
    if (index.has(k)) {
      const i = index.get(k);
      entry.mutants[i] = { id: entry.mutants[i].id, ...mutant };
      replaced++;
    } else {
      entry.mutants.push({ id: String(nextId++), ...mutant });
      index.set(k, entry.mutants.length - 1);
      added++;
    }
  }
}

fs.writeFileSync(incrementalFile, JSON.stringify(report));
console.log(`${CHECKPOINT_FILE}: ${read} results (${cut} cut short) into ${incrementalFile}: ${replaced} replaced, ${added} added, ${dropped} earlier results of changed files dropped; ${testsAdded} tests of the run added, ${testFilesReplaced} changed test files replaced`);
fs.rmSync(CHECKPOINT_FILE);
fs.rmSync(CHECKPOINT_TESTS_FILE, { force: true });
