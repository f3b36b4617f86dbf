/**
 * Lets @stryker-mutator/mocha-runner load Mocha 12's CLI helpers. The runner requires
 * `mocha/lib/cli/{run-helpers,options,collect-files}` without an extension, and Mocha 12 renamed
 * them to `.cjs`, so the plugin fails to load (stryker-js issue: PR #6205 "load Mocha cli internals
 * regardless of file extension"). Remove this file, and its two uses in stryker.config.mjs, once a
 * mocha-runner release (for Node 20) includes that fix.
 */
const Module = require('node:module');

const cliInternal = /[\\/]mocha[\\/]lib[\\/]cli[\\/](?:run-helpers|options|collect-files)$/;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, cliInternal.test(request) ? `${request}.cjs` : request, ...rest);
};
