/**
 * Starts the embedded app (bin/start.ts) as a child process on a free port with a fresh data folder
 * (copied from the PGlite template, so no initdb), and waits until it answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { preparePgliteDir } from './pglite';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

export interface StartedApp {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `tsx <entry> [...args]` from the repo root with `env`, until stopped. */
export async function startProcess(entry: string, args: string[], env: Record<string, string>, readyUrl: string, timeoutMs = 60_000) {
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [entry, ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  await waitForHttp(readyUrl, timeoutMs, child, () => out).catch(async (error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function startApp(options: { env?: Record<string, string> } = {}): Promise<StartedApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-app-'));
  await preparePgliteDir(path.join(dataDir, 'pglite'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', ...options.env };
  const proc = await startProcess('bin/start.ts', [], env, `${url}/api/health`);
  return {
    url,
    dataDir,
    output: proc.output,
    stop: async () => {
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
