/**
 * The walk-forward thread's code as one bundle, built once per process with esbuild (the compiler tsx
 * itself runs on) and started as the thread's script: the services run TypeScript through tsx, which
 * compiles each module with `keepNames`, so every closure the engine creates on its hot path is
 * followed by a call that defines its `name` (a warm window took about 7 % longer, bench/README.md). A
 * bundle without it runs the same code, every number the same (walk-forward-pool.int.spec.ts compares
 * the pool's report with the one-thread one).
 *
 * The bundle is CommonJS, handed to the Worker as a script (`eval`): nothing is written to disk.
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

let code: string | null = null;

export function walkForwardThreadCode(): string {
  if (code !== null) return code;
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL('./walk-forward-thread.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]!.text;
  return code;
}
