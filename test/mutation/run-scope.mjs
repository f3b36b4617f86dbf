// Shared by the scripts around a mutation run (forget-no-coverage.mjs, keep-killers.mjs,
// merge-checkpoint.mjs): the run's config and which files it mutates, and Stryker's key of a mutant.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Stryker config `configFile`, its incremental file, and whether a file is one the run mutates. */
export async function runScope(configFile = 'stryker.config.mjs') {
  const config = (await import(pathToFileURL(path.resolve(configFile)).href)).default;
  const include = config.mutate.filter((g) => !g.startsWith('!'));
  const exclude = config.mutate.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  // path.matchesGlob: Node's own matcher (experimental in Node 20; run.mjs starts the scripts with --no-warnings).
  const inRun = (name) => include.some((g) => path.matchesGlob(name, g)) && !exclude.some((g) => path.matchesGlob(name, g));
  return { config, incrementalFile: config.incrementalFile ?? 'reports/stryker-incremental.json', inRun };
}

/** A mutant's identity within its file, as Stryker's incremental mode keys it: location, mutator, replacement. */
export const mutantKey = ({ mutatorName, replacement, location: { start, end } }) => `${start.line}:${start.column}-${end.line}:${end.column}\n${mutatorName}: ${replacement ?? mutatorName}`;
