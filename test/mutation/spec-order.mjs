// The order Stryker's test runner loads the spec files in (stryker.config.mjs, mochaOptions.spec).
//
// For each mutant Stryker runs the tests that cover it, in the order their files were loaded, and stops
// at the first that fails. So the order never decides whether a mutant dies (every covering test runs
// before a mutant counts as surviving), only what a killed one costs. With the folders' files in
// alphabetical order, a trading mutant that the engine's unit specs kill in a second first ran the
// backtest and market specs that also cover it (minutes each under instrumentation), and every domain
// mutant an API spec covers could wait behind a heavy one. Here the cheapest tests come first:
// - unit specs (`*.unit.spec.ts`, no store, no app) before the others (an integration spec's `before`
//   hook starts an app or a database, which its tests' own times do not show);
// - within each kind, by the time a test of the file took in the last initial run
//   (spec-times.json, which the checkpoint reporter rewrites after each initial run), cheapest first;
//   a file not measured yet goes first of its kind (most new specs are small ones written for a survivor);
// - ties by path.
import fs from 'node:fs';
import path from 'node:path';

export const SPEC_TIMES_FILE = 'test/mutation/spec-times.json';

/**
 * What each spec file's tests took in the last initial run that ran it (`{ file: { ms, tests } }`), or
 * nothing before the first; a file that is there but unreadable fails the run rather than order it wrongly.
 */
export function readSpecTimes() {
  try {
    return JSON.parse(fs.readFileSync(SPEC_TIMES_FILE, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    throw error;
  }
}

/** Every `*.spec.ts` under `folders` (project-relative, forward slashes), cheapest test first (see above). */
export function orderedSpecFiles(folders) {
  const times = readSpecTimes();
  const files = [
    ...new Set(
      folders.flatMap((folder) =>
        fs
          .readdirSync(folder, { recursive: true })
          .map((name) => path.posix.join(folder, String(name).split(path.sep).join('/')))
          .filter((file) => file.endsWith('.spec.ts')),
      ),
    ),
  ];
  const perTest = (file) => {
    const measured = times[file];
    return measured && measured.tests > 0 ? measured.ms / measured.tests : 0;
  };
  const kind = (file) => (file.endsWith('.unit.spec.ts') ? 0 : 1);
  return files.sort((a, b) => kind(a) - kind(b) || perTest(a) - perTest(b) || (a < b ? -1 : a > b ? 1 : 0));
}
