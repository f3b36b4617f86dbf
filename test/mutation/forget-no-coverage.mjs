// Before a run: forgets the kept NoCoverage results of the files the run mutates, so Stryker decides
// them again. Deciding costs nothing (no spec runs for a mutant no test covers), and keeping them can
// be wrong: Stryker's incremental mode reuses a non-killed result unless a test now covers the mutant,
// and a static mutant (module-level code, run when a spec first loads the module) has no per-test
// coverage, so a mutant found uncovered while no spec loaded its module stays "no coverage" after a
// spec does, where a fresh run counts it as static (ignored: `ignoreStatic`). A mutant a spec now
// covers per test is tested, as Stryker would have done. Files outside the run keep their results.
//
// `node test/mutation/forget-no-coverage.mjs [stryker config]` (run.mjs calls it with its own).
import fs from 'node:fs';
import { runScope } from './run-scope.mjs';

const { incrementalFile: file, inRun } = await runScope(process.argv[2]);
if (!fs.existsSync(file)) process.exit(0);
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
let forgotten = 0;
let files = 0;
for (const [name, entry] of Object.entries(report.files)) {
  if (!inRun(name)) continue;
  files += 1;
  const kept = entry.mutants.filter((m) => m.status !== 'NoCoverage');
  forgotten += entry.mutants.length - kept.length;
  entry.mutants = kept;
}
if (forgotten > 0) fs.writeFileSync(file, JSON.stringify(report));
console.log(`${file}: ${forgotten} no-coverage results of the ${files} kept files in this run forgotten (decided again)`);
