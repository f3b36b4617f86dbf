// After `npm run test:mutation`: makes Stryker's incremental file (kept in the repository, see
// stryker.config.mjs) smaller and line-oriented, without changing what a later run can reuse.
//
// Stryker reuses a killed mutant's result when one of its killing tests still covers it unchanged,
// and a surviving (or timed-out) mutant's when no new test covers it. A killed mutant's covering
// tests beyond its killers are therefore never read again, and they are most of the file: a mutant
// in shared code is covered by a thousand tests. They are dropped; a killed mutant keeps `killedBy`,
// every other mutant keeps `coveredBy`. Long failure messages are shortened. One mutant per line,
// so that a run that retests a few mutants changes a few lines.
import fs from 'node:fs';

const file = process.argv[2] ?? 'test/mutation/stryker-incremental.json';
if (!fs.existsSync(file)) {
  console.log(`${file}: not there (no run yet)`);
  process.exit(0);
}
const before = fs.statSync(file).size;
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const MAX_REASON = 300;

for (const entry of Object.values(report.files)) {
  for (const mutant of entry.mutants) {
    if (mutant.status === 'Killed' && Array.isArray(mutant.killedBy) && mutant.killedBy.length > 0) delete mutant.coveredBy;
    if (typeof mutant.statusReason === 'string' && mutant.statusReason.length > MAX_REASON) mutant.statusReason = `${mutant.statusReason.slice(0, MAX_REASON)}…`;
  }
}

// JSON with a line per mutant and per test: the top level and each file's fields on their own lines.
const lines = ['{'];
const top = Object.entries(report);
top.forEach(([key, value], i) => {
  const comma = i < top.length - 1 ? ',' : '';
  if ((key === 'files' || key === 'testFiles') && value && typeof value === 'object') {
    lines.push(`${JSON.stringify(key)}: {`);
    const entries = Object.entries(value);
    entries.forEach(([name, entry], j) => {
      const { mutants, tests, ...rest } = entry;
      const items = mutants ?? tests ?? [];
      const itemsKey = mutants ? 'mutants' : 'tests';
      lines.push(`${JSON.stringify(name)}: {`);
      for (const [k, v] of Object.entries(rest)) lines.push(`${JSON.stringify(k)}: ${JSON.stringify(v)},`);
      lines.push(`${JSON.stringify(itemsKey)}: [`);
      items.forEach((item, n) => lines.push(JSON.stringify(item) + (n < items.length - 1 ? ',' : '')));
      lines.push(']');
      lines.push(`}${j < entries.length - 1 ? ',' : ''}`);
    });
    lines.push(`}${comma}`);
  } else {
    lines.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
  }
});
lines.push('}');
const text = `${lines.join('\n')}\n`;
// The same document, only laid out differently (and slimmed as above).
JSON.parse(text);
fs.writeFileSync(file, text);
console.log(`${file}: ${(before / 1e6).toFixed(1)} MB -> ${(text.length / 1e6).toFixed(1)} MB`);
