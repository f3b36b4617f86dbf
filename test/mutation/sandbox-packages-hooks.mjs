// Where `@papertrade/<workspace>/<path>` is when the working directory is a Stryker sandbox: the
// sandbox's `<workspace>/src/<path>.ts` (the package's exports, "./*": "./src/*.ts"). Used by
// sandbox-packages.mjs for `require` and, as a module resolve hook, for `import`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { patchSandboxCoverage } from './fast-coverage.mjs';

const WORKSPACES = new Set(['domain', 'platform', 'command-api', 'query-api', 'projectors', 'workers']);
const SPECIFIER = /^@papertrade\/([^/]+)\/(.+)$/;

/** The sandbox file of a workspace import, or undefined (not one, or not in a sandbox). */
export function sandboxPath(specifier) {
  const cwd = process.cwd();
  if (path.basename(path.dirname(cwd)) !== '.stryker-tmp') return undefined;
  // The first import in the sandbox, before any of its files is loaded (see fast-coverage.mjs).
  patchSandboxCoverage(cwd);
  const match = SPECIFIER.exec(specifier);
  if (!match || !WORKSPACES.has(match[1])) return undefined;
  return path.join(cwd, match[1], 'src', `${match[2]}.ts`);
}

export async function resolve(specifier, context, next) {
  const file = sandboxPath(specifier);
  return next(file === undefined ? specifier : pathToFileURL(file).href, context);
}
