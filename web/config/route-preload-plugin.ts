/**
 * Removes one round trip from the first page load. Routes are code-split, so by default the browser
 * learns which route chunk it needs only after the entry chunk has run. This plugin writes into
 * index.html a tiny inline script that looks at `location.pathname` and adds `modulepreload` (and
 * stylesheet) links for that route's chunk and its dependencies, so they download in parallel
 * with the entry chunk. Only the matched route's files are fetched: code splitting is unchanged.
 * The script goes before the stylesheet: an inline script after a stylesheet would wait for it.
 *
 * The Content-Security-Policy (platform/src/http/security-headers.ts, deploy/nginx/gateway.conf)
 * allows no inline script but this one, by its sha-256. So the script's text never changes between
 * builds: the build's route map goes beside it in a JSON data block (`type="application/json"` is
 * not executed, so CSP does not apply to it), and the loader reads it from there. Changing the
 * loader means changing that hash; security-headers.unit.spec.ts fails until both agree.
 *
 * The map from paths to route modules is a hint: if it drifts from the route table, pages still
 * work (they just load one round trip later).
 */
import path from 'node:path';
import type { Plugin } from 'vite';

type OutputBundle = NonNullable<Parameters<Extract<NonNullable<Plugin['transformIndexHtml']>, { handler: unknown }>['handler']>[1]['bundle']>;

export interface RoutePreloadOptions {
  /** Route modules (relative to the Vite root) per exact path; `*` for any other path. */
  routes: Record<string, string[]>;
}

function filesFor(bundle: OutputBundle, root: string, modules: string[]): string[] {
  const byFacade = new Map<string, { fileName: string; imports: string[]; css: string[] }>();
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk') continue;
    const css = [...((output as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss ?? [])];
    if (output.facadeModuleId) byFacade.set(path.normalize(output.facadeModuleId), { fileName: output.fileName, imports: output.imports, css });
  }
  const chunkByFile = new Map<string, { imports: string[]; css: string[] }>();
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk') continue;
    const css = [...((output as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss ?? [])];
    chunkByFile.set(output.fileName, { imports: output.imports, css });
  }
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const chunk = chunkByFile.get(fileName);
    if (!chunk) return;
    for (const css of chunk.css) files.add(css);
    for (const dependency of chunk.imports) visit(dependency);
  };
  for (const module of modules) {
    const entry = byFacade.get(path.normalize(path.resolve(root, module)));
    if (!entry) throw new Error(`route-preload: no chunk for ${module} (is it still lazily imported?)`);
    visit(entry.fileName);
  }
  return [...files];
}

/** The id of the JSON data block: `{ "base": "/", "routes": { "/login": ["assets/login-x.js", ...] } }`. */
export const ROUTE_PRELOAD_DATA_ID = 'route-preload';

/** The one inline script of index.html, byte for byte (its sha-256 is in the CSP). */
export const ROUTE_PRELOAD_LOADER =
  `(function(){var e=document.getElementById('${ROUTE_PRELOAD_DATA_ID}');if(!e)return;var d=JSON.parse(e.textContent),m=d.routes,` +
  `f=m[location.pathname.replace(/\\/+$/,'')||'/']||m['*']||[];for(var i=0;i<f.length;i++){var l=document.createElement('link');` +
  `var css=/\\.css$/.test(f[i]);l.rel=css?'stylesheet':'modulepreload';l.crossOrigin='';l.href=d.base+f[i];document.head.appendChild(l);}})();`;

/** JSON inside a `<script>` element: `<` escaped, so no file name can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function routePreload(options: RoutePreloadOptions): Plugin {
  let root = process.cwd();
  let base = '/';
  return {
    name: 'papertrade:route-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const bundle = ctx.bundle;
        // Files the entry already loads need no second hint.
        const entryFiles = new Set([...html.matchAll(/(?:src|href)="\/?([^"]+)"/g)].map((m) => m[1]!.replace(base.replace(/^\//, ''), '')));
        const map: Record<string, string[]> = {};
        for (const [routePath, modules] of Object.entries(options.routes)) {
          map[routePath] = filesFor(bundle, root, modules).filter((file) => !entryFiles.has(file));
        }
        const data = `<script type="application/json" id="${ROUTE_PRELOAD_DATA_ID}">${jsonForScript({ base, routes: map })}</script>`;
        // Before the entry's module script and stylesheet, after <meta charset> and friends.
        const at = html.search(/<script type="module"|<link rel="stylesheet"/);
        if (at < 0) throw new Error('route-preload: index.html has no module script');
        return `${html.slice(0, at)}${data}\n    <script>${ROUTE_PRELOAD_LOADER}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
