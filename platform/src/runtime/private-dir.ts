/**
 * The embedded data folder holds the JWT secret, the demo accounts' passwords and PGlite's files,
 * whose WAL holds password hashes: none of it is for other users of the machine. The folder is
 * created 0700, an existing one is tightened to 0700, and what is inside loses its group and other
 * permission bits (PGlite writes its files 0666 whatever the umask, so the folder alone would be
 * the only thing standing between them and other users).
 */
import fs from 'node:fs';
import path from 'node:path';

const OTHERS = 0o077;

/**
 * Creates `dir` (and missing parents) owner-only, or tightens an existing one to 0700. Returns the
 * mode it had when that was looser than 0700 (for a log line), else undefined.
 */
export function ensurePrivateDir(dir: string): number | undefined {
  // mkdirSync's mode applies to every folder it creates (umask permitting, and 0700 survives any umask).
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if ((mode & OTHERS) === 0) return undefined;
  fs.chmodSync(dir, mode & ~OTHERS);
  return mode;
}

/**
 * Removes group and other permission bits from `dir` and everything under it (not following links).
 * Returns how many entries changed. Only for folders we own entirely (PGlite's), never DATA_DIR as a
 * whole: someone may point that at a folder that holds other things.
 */
export function restrictTree(dir: string): number {
  let changed = 0;
  const own = fs.statSync(dir).mode & 0o777;
  if (own & OTHERS) {
    fs.chmodSync(dir, own & ~OTHERS);
    changed++;
  }
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const file = path.join(current, entry.name);
      const mode = fs.statSync(file).mode & 0o777;
      if (mode & OTHERS) {
        fs.chmodSync(file, mode & ~OTHERS);
        changed++;
      }
      if (entry.isDirectory()) pending.push(file);
    }
  }
  return changed;
}

/** Octal text of a mode for logs: 493 -> "0755". */
export const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;
