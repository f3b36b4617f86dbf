// `npm run test:mutation` only (stryker.config.mjs, testRunnerNodeArgs, after tsx). Stryker runs the
// specs in a sandbox copy of the repository, but the sandbox's node_modules is a link to the
// repository's, where @papertrade/* link to the original workspaces: a spec importing
// `@papertrade/domain/...` (every query-api, workers and projectors spec) loaded the original,
// unmutated sources, so those specs never saw a mutant. The test runner starts in the repository and
// only then moves into its sandbox, so a tsconfig read at start cannot say where the sandbox is;
// these hooks ask at each import, for both module systems (tsx loads some files as CommonJS).
import Module, { register } from 'node:module';
import { sandboxPath } from './sandbox-packages-hooks.mjs';

register('./sandbox-packages-hooks.mjs', import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, sandboxPath(request) ?? request, ...rest);
};
