// Around a run: keeps which test killed each mutant of the files the run does not mutate.
//
// Stryker writes the results of every file to the incremental file, those of files outside the run
// too, but it drops their `killedBy`: a mutant killed in an earlier run of another area comes back
// without its killer, and Stryker retests a killed mutant it cannot name the killer of. Without this,
// every area run made the next run of every other area retest all its killed mutants.
//
// `save <config>` (before the run): each killed mutant's killers, by test name, for the files outside
// the run's `mutate`. `restore <config>` (after it): a killed mutant of those files that came back
// without killers gets them again, by the ids the tests have now, when its file is unchanged and every
// killer is still a test. Stryker still decides at the next run whether to reuse it: only when that
// test still covers the mutant, unchanged.
import fs from 'node:fs';
import path from 'node:path';
import { mutantKey as key, runScope } from './run-scope.mjs';

const [mode, configArg = 'stryker.config.mjs'] = process.argv.slice(2);
const { incrementalFile: file, inRun } = await runScope(configArg);
const SAVED = 'reports/mutation/killers.json';

if (!fs.existsSync(file)) process.exit(0);
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const tests = Object.values(report.testFiles ?? {}).flatMap((entry) => entry.tests);

if (mode === 'save') {
  const nameById = new Map(tests.map((t) => [t.id, t.name]));
  const saved = {};
  for (const [name, entry] of Object.entries(report.files)) {
    if (inRun(name)) continue;
    const killers = {};
    for (const m of entry.mutants) {
      if (m.status !== 'Killed' || !m.killedBy?.length) continue;
      const names = m.killedBy.map((id) => nameById.get(id));
      if (names.every((n) => n !== undefined)) killers[key(m)] = names;
    }
    saved[name] = { source: entry.source, killers };
  }
  fs.mkdirSync(path.dirname(SAVED), { recursive: true });
  fs.writeFileSync(SAVED, JSON.stringify(saved));
} else if (mode === 'restore') {
  if (!fs.existsSync(SAVED)) process.exit(0);
  const saved = JSON.parse(fs.readFileSync(SAVED, 'utf8'));
  const ids = new Map();
  for (const t of tests) ids.set(t.name, ids.has(t.name) ? null : t.id); // a name two tests share names neither
  let restored = 0;
  for (const [name, entry] of Object.entries(report.files)) {
    const before = saved[name];
    if (!before || inRun(name) || before.source !== entry.source) continue;
    for (const m of entry.mutants) {
      if (m.status !== 'Killed' || m.killedBy?.length) continue;
      const names = before.killers[key(m)];
      const killedBy = names?.map((n) => ids.get(n));
      if (!killedBy || killedBy.some((id) => id === undefined || id === null)) continue;
      m.killedBy = killedBy;
      restored++;
    }
  }
  fs.writeFileSync(file, JSON.stringify(report));
  fs.rmSync(SAVED, { force: true });
  console.log(`${file}: the killers of ${restored} killed mutants outside this run restored`);
} else {
  console.error('usage: keep-killers.mjs save|restore [stryker config]');
  process.exit(2);
}
