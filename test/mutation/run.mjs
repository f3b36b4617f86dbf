// `npm run test:mutation [-- <stryker options>]`: Stryker under `nice` (the machine is shared), then,
// when it succeeded, the incremental file slimmed for the repository (slim-incremental.mjs).
import { spawnSync } from 'node:child_process';

const stryker = spawnSync('nice', ['-n', '15', 'npx', 'stryker', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
const slim = spawnSync(process.execPath, ['test/mutation/slim-incremental.mjs'], { stdio: 'inherit' });
process.exit(slim.status ?? 1);
