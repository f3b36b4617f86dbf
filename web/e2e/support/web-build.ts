/**
 * Browser tests and the web bench run against the built app (web/dist, served by the embedded
 * server). This builds it when it is missing or older than its sources, so a test never looks at
 * yesterday's bundle.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const webDir = path.join(repoRoot, 'web');
export const distIndex = path.join(webDir, 'dist', 'index.html');

function newestMtime(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A folder's own time moves when a file in it is removed or renamed: that is a change too.
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function sourcesMtime(): number {
  const sources = [
    path.join(webDir, 'src'),
    path.join(webDir, 'public'),
    path.join(webDir, 'index.html'),
    path.join(webDir, 'vite.config.ts'),
    path.join(webDir, 'config'),
    path.join(repoRoot, 'domain', 'src'),
  ];
  return Math.max(...sources.filter((p) => fs.existsSync(p)).map(newestMtime));
}

/** Builds web/dist unless it exists (and, with `whenStale`, is newer than every source). */
export function ensureWebBuilt({ whenStale = true }: { whenStale?: boolean } = {}): void {
  const built = fs.existsSync(distIndex);
  if (built && (!whenStale || fs.statSync(distIndex).mtimeMs >= sourcesMtime())) return;
  execSync('npm run build -w web', { cwd: repoRoot, stdio: 'pipe' });
}
