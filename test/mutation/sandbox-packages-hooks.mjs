// Where `@papertrade/<workspace>/<path>` is when the working directory is a Stryker sandbox: the
// sandbox's `<workspace>/src/<path>.ts` (the package's exports, "./*": "./src/*.ts"). Used by
// sandbox-packages.mjs for `require` and, as a module resolve hook, for `import`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const WORKSPACES = new Set(['domain', 'platform', 'command-api', 'query-api', 'projectors', 'workers']);
const SPECIFIER = /^@papertrade\/([^/]+)\/(.+)$/;

/** The sandbox file of a workspace import, or undefined (not one, or not in a sandbox). */
export function sandboxPath(specifier) {
  const match = SPECIFIER.exec(specifier);
  const cwd = process.cwd();
  if (!match || !WORKSPACES.has(match[1]) || path.basename(path.dirname(cwd)) !== '.stryker-tmp') return undefined;
  return path.join(cwd, match[1], 'src', `${match[2]}.ts`);
}

export async function resolve(specifier, context, next) {
  const file = sandboxPath(specifier);
  return next(file === undefined ? specifier : pathToFileURL(file).href, context);
}
