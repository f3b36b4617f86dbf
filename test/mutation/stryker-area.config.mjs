// One area at a time (README): the whole config (stryker.config.mjs) with `mutate` narrowed to the
// folders in AREAS and the specs to the folders in SPECS (comma-separated), e.g.
//   AREAS=domain/src/trading SPECS=domain/src/trading npm run test:mutation -- test/mutation/stryker-area.config.mjs
// An area's kills are reused by the next whole run; its survivors are retested there when a test of
// another area covers them.
import base from '../../stryker.config.mjs';
import { orderedSpecFiles } from './spec-order.mjs';

const list = (name, fallback) => (process.env[name] ?? fallback).split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean);
const areas = list('AREAS', 'domain/src');
const include = base.mutate.filter((g) => !g.startsWith('!'));
const exclude = base.mutate.filter((g) => g.startsWith('!'));
const narrowed = new Set();
for (const area of areas) {
  for (const glob of include) {
    // A glob inside the area stays as it is; an area inside a glob's folder (domain/src/trading in
    // domain/src/**) takes that glob's file pattern under the area.
    if (glob.startsWith(`${area}/`)) narrowed.add(glob);
    else if (glob.endsWith('/**/*.ts') && area.startsWith(glob.slice(0, -'**/*.ts'.length))) narrowed.add(`${area}/**/*.ts`);
  }
}
if (narrowed.size === 0) throw new Error(`AREAS=${areas.join(',')}: no file of stryker.config.mjs's mutate is in them`);

export default {
  ...base,
  mochaOptions: { ...base.mochaOptions, spec: orderedSpecFiles(list('SPECS', 'domain/src')) },
  mutate: [...narrowed, ...exclude],
};
