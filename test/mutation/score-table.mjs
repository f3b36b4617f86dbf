// `node test/mutation/score-table.mjs [report.json] [depth]`: the mutation score per area from a
// Stryker report, by default the kept results (test/mutation/stryker-incremental.json), which hold
// every mutant measured so far. An area is the path cut to `depth` parts (3: domain/src/trading).
// Score = detected (killed, timed out) / (detected + survived + no coverage), Stryker's definition;
// ignored (static) mutants and compile or runtime errors are not counted.
import fs from 'node:fs';

const file = process.argv[2] ?? 'test/mutation/stryker-incremental.json';
const depth = Number(process.argv[3] ?? 3);
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const areas = new Map();
const count = (area, status) => {
  if (!areas.has(area)) areas.set(area, { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 });
  const row = areas.get(area);
  row[status in row ? status : 'other']++;
};
for (const [fileName, entry] of Object.entries(report.files)) {
  const area = fileName.split('/').slice(0, depth).join('/');
  for (const mutant of entry.mutants) {
    count(area, mutant.status);
    count('all', mutant.status);
  }
}
const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(2)} %`);
const rows = [...areas].sort(([a], [b]) => (a === 'all') - (b === 'all') || a.localeCompare(b));
console.log('| area | score | killed | timeout | survived | no coverage | not counted |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [area, r] of rows) {
  const detected = r.Killed + r.Timeout;
  console.log(`| ${area === 'all' ? '**all**' : area} | ${pct(detected, detected + r.Survived + r.NoCoverage)} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.other} |`);
}
