/**
 * V8 CPU profiles of a part of a bench, taken in process (node:inspector), summarised as the self time
 * by package and by function. Shared by bench:command-profile and bench:query.
 *
 * Packages: `node_modules/<pkg>`, `node internals` (node: URLs), `wasm` (WebAssembly code: PGlite's
 * Postgres), `(garbage collector)`, `(program)`/`(idle)` (native or descheduled time), and this
 * repository's own code by workspace (`papertrade/domain`, `papertrade/platform`, ...).
 */
import { Session } from 'node:inspector/promises';
import { table } from './measure';

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Microseconds sampled. */
  totalUs: number;
  byPackage: Map<string, number>;
  byFunction: Map<string, number>;
  /** Time in this repository's functions including what they call (a function counted once per stack). */
  inclusiveOurs: Map<string, number>;
}

/** Runs `fn` under the sampling profiler (200 µs) and returns its profile. */
export async function profiled<T>(fn: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const result = await fn();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: profile as unknown as CpuProfile };
  } finally {
    session.disconnect();
  }
}

function packageOf(file: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
  if (pkg) return pkg;
  if (file.startsWith('node:')) return 'node internals';
  if (file.startsWith('wasm://')) return 'wasm';
  if (file === '') return `(${functionName || 'native'})`;
  if (file.includes('/bench/')) return 'bench';
  const workspace = /\/(domain|platform|command-api|query-api|projectors|workers|bin|test)\/src\//.exec(file)?.[1] ?? /\/(bin|test)\//.exec(file)?.[1];
  return workspace ? `papertrade/${workspace}` : 'papertrade';
}

/**
 * Self time by package and function. Left out: `(idle)` (nothing to run: waiting for I/O, or for a
 * core on a loaded machine) and the profiler's own calls (node:inspector's `post`, whose `dispatch`
 * holds the start and stop of the profile).
 */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const excluded = new Set<number>();
  const exclude = (id: number) => {
    excluded.add(id);
    for (const child of byId.get(id)?.children ?? []) exclude(child);
  };
  for (const node of profile.nodes) {
    if (node.callFrame.url === 'node:inspector' || node.callFrame.functionName === '(idle)') exclude(node.id);
  }
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (!excluded.has(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '');
    const short = file.includes('node_modules/') ? file.slice(file.lastIndexOf('node_modules/') + 13) : file.replace(/^.*\/(wt-[^/]+|main)\//, '');
    const name = `${functionName || '(anonymous)'} ${short}${file ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const pkg = packageOf(file, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  // Inclusive time of our own functions: each sample counted once for every distinct function of ours on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusiveOurs = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^file:\/\//, '');
      if (!packageOf(file, functionName).startsWith('papertrade')) continue;
      const name = `${functionName || '(anonymous)'} ${file.replace(/^.*\/(wt-[^/]+|main)\//, '')}:${lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusiveOurs.set(name, (inclusiveOurs.get(name) ?? 0) + us);
    }
  }
  return { totalUs, byPackage, byFunction, inclusiveOurs };
}

/** The `k` largest entries as [name, share of the total]. */
export function topShares(m: Map<string, number>, totalUs: number, k: number): string[][] {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, us]) => [name, `${((100 * us) / totalUs).toFixed(1)}%`]);
}

/** The summary as two indented tables (packages, then functions). */
export function formatProfile(summary: ProfileSummary, options: { packages?: number; functions?: number; inclusive?: number; indent?: string } = {}): string {
  const indent = options.indent ?? '   ';
  return [
    table(['self time by package', 'share'], topShares(summary.byPackage, summary.totalUs, options.packages ?? 20)),
    table(['self time by function', 'share'], topShares(summary.byFunction, summary.totalUs, options.functions ?? 40)),
    ...(options.inclusive ? [table(['our functions, with what they call', 'share'], topShares(summary.inclusiveOurs, summary.totalUs, options.inclusive))] : []),
  ]
    .join('\n')
    .replace(/^/gm, indent);
}
