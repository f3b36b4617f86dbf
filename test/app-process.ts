/**
 * Starts the app's entry points as child processes: the embedded app (bin/start.ts) on a fresh data
 * folder (copied from the PGlite template, so no initdb), or one cluster service (bin/start-service.ts).
 *
 * Ports: a child listens on PORT=0 and reports the port it got over an IPC channel (bin/lifecycle.ts
 * announcePort). Choosing a "free" port in the parent and handing it over is a race: another process
 * (a parallel test run, or any outgoing connection given that ephemeral port) can take it in
 * between, and then the child fails to bind, or worse, the health check reaches someone else's
 * server.
 *
 * The child is node itself with tsx as an import hook (not the tsx CLI, which would put a wrapper
 * process in between): a SIGKILL in a test then kills the very process that holds the connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { preparePgliteDir } from './pglite';
import { LOOPBACK_LIMITS } from './limits';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess, output?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before it was ready:\n${output?.() ?? ''}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms:\n${output?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface StartedProcess {
  child: ChildProcess;
  /** The last 20,000 characters of stdout and stderr. */
  output(): string;
  /** SIGTERM (a clean shutdown), SIGKILL after 5 s; resolves when the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. Resolves when the process has exited. */
  kill(): Promise<void>;
}

export interface StartedService extends StartedProcess {
  url: string;
  port: number;
}

/** `node --import tsx <entry> [...args]` from the repo root, with an IPC channel. */
function spawnEntry(entry: string, args: string[], env: Record<string, string>): Omit<StartedProcess, 'stop' | 'kill'> & { exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => out, exited };
}

function lifecycle(child: ChildProcess, exited: Promise<void>): Pick<StartedProcess, 'stop' | 'kill'> {
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    stop: async () => {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
    kill: async () => {
      if (!running()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Starts an entry point that serves HTTP (bin/start.ts, bin/start-service.ts <service>) on a port of
 * its own choosing, and resolves once it answers `healthPath`.
 */
export async function startService(
  entry: string,
  args: string[],
  env: Record<string, string>,
  options: { healthPath?: string; timeoutMs?: number } = {},
): Promise<StartedService> {
  const { healthPath = '/api/health', timeoutMs = 60_000 } = options;
  const spawned = spawnEntry(entry, args, { ...env, PORT: '0' });
  const { child, output, exited } = spawned;
  const controls = lifecycle(child, exited);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${entry} ${args.join(' ')} did not listen within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
      child.on('message', (message: unknown) => {
        const m = message as { type?: unknown; port?: unknown };
        if (m?.type === 'listening' && typeof m.port === 'number') {
          clearTimeout(timer);
          resolve(m.port);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${entry} ${args.join(' ')} exited with ${child.exitCode ?? child.signalCode} before it listened:\n${output()}`));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(url + healthPath, timeoutMs, child, output);
    return { child, output, url, port, ...controls };
  } catch (error) {
    await controls.kill();
    throw error;
  }
}

/**
 * Runs `node --import tsx <entry> [...args]` with `env` until stopped, once `readyUrl` answers.
 * For entry points whose address is known beforehand; services should use `startService`.
 */
export async function startProcess(entry: string, args: string[], env: Record<string, string>, readyUrl: string, timeoutMs = 60_000): Promise<StartedProcess> {
  const { child, output, exited } = spawnEntry(entry, args, env);
  const controls = lifecycle(child, exited);
  await waitForHttp(readyUrl, timeoutMs, child, output).catch(async (error: unknown) => {
    await controls.kill();
    throw error;
  });
  return { child, output, ...controls };
}

export interface StartedApp {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** The embedded app on a fresh data folder (removed on stop), or on `env.DATA_DIR` when given (kept). */
/** `beforeStart` may change the prepared data folder (e.g. its modes) before the app opens it. */
export async function startApp(options: { env?: Record<string, string>; beforeStart?: (dataDir: string) => void } = {}): Promise<StartedApp> {
  const given = options.env?.DATA_DIR;
  const dataDir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-app-'));
  const cleanup = () => {
    if (!given) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (!given) await preparePgliteDir(path.join(dataDir, 'pglite'));
  options.beforeStart?.(dataDir);
  const env = { DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', ...LOOPBACK_LIMITS, ...options.env };
  const proc = await startService('bin/start.ts', [], env).catch((error: unknown) => {
    cleanup();
    throw error;
  });
  return {
    url: proc.url,
    dataDir,
    output: proc.output,
    stop: async () => {
      await proc.stop();
      cleanup();
    },
  };
}
