// `npm run test:mutation [-- <stryker options>]`: Stryker under `nice` (the machine is shared), then
// the incremental file slimmed for the repository (slim-incremental.mjs).
//
// A run stopped part way (Ctrl-C, the end of a session) keeps what it measured: the checkpoint
// reporter writes each result as it comes, and merge-checkpoint.mjs folds them into the incremental
// file, here before the next run starts (or by hand: `node test/mutation/merge-checkpoint.mjs`).
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { CHECKPOINT_FILE, CHECKPOINT_TESTS_FILE } from './checkpoint-reporter.mjs';

const node = (script) => spawnSync(process.execPath, [script], { stdio: 'inherit' }).status ?? 1;

if (node('test/mutation/merge-checkpoint.mjs') !== 0) process.exit(1);
// The config the run uses (stryker's one positional argument), for the files in its scope.
const config = process.argv.slice(2).find((a) => /\.(m|c)?js(on)?$/.test(a)) ?? 'stryker.config.mjs';
if (spawnSync(process.execPath, ['--no-warnings', 'test/mutation/forget-no-coverage.mjs', config], { stdio: 'inherit' }).status !== 0) process.exit(1);
const killers = (mode) => spawnSync(process.execPath, ['--no-warnings', 'test/mutation/keep-killers.mjs', mode, config], { stdio: 'inherit' }).status ?? 1;
if (killers('save') !== 0) process.exit(1);
const stryker = spawnSync('nice', ['-n', '15', 'npx', 'stryker', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
if (stryker.status === 0) {
  // The finished run wrote every result to the incremental file itself.
  fs.rmSync(CHECKPOINT_FILE, { force: true });
  fs.rmSync(CHECKPOINT_TESTS_FILE, { force: true });
} else if (node('test/mutation/merge-checkpoint.mjs') !== 0) {
  process.exit(1);
}
if (killers('restore') !== 0) process.exit(1);
const slim = node('test/mutation/slim-incremental.mjs');
process.exit(stryker.status || slim);
