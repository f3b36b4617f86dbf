/**
 * An embedded app in this process on a fresh PGlite, for API tests that check status codes, bodies
 * and the events appended. `request` is a thin fetch wrapper.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import type { Position } from '@papertrade/platform/event-store/position';
import { createEmbeddedApp } from '../bin/embedded-app';
import { createProjector, createRuntime, registrationDeps, type Runtime } from '../bin/compose';
import type { Projector } from '@papertrade/platform/projections/projector';
import { ensureAdmin } from '@papertrade/command-api/bootstrap';
import { preparePgliteDir } from './pglite';
import { LOOPBACK_LIMITS } from './limits';

export interface Harness {
  url: string;
  rt: Runtime;
  projector: Projector;
  request(method: string, path: string, options?: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  head(): Promise<Position | undefined>;
  eventsSince(position: Position | undefined): Promise<RecordedEvent[]>;
  /** Runs `fn` and returns the events it appended. */
  appendedBy(fn: () => Promise<unknown>): Promise<RecordedEvent[]>;
  signup(fields: { email: string; username: string; password?: string; firstName?: string; lastName?: string }): Promise<{ userId: string; position: string }>;
  login(email: string, password: string): Promise<string>;
  admin(): Promise<{ id: string; token: string }>;
  stop(): Promise<void>;
}

/** The market seed of every harness that is not given one. */
export const HARNESS_MARKET_SEED = 'papertrade-api-harness-market';

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-api-'));
  await preparePgliteDir(path.join(dataDir, 'pglite'));
  const rt = await createRuntime('test', {
    embedded: true,
    // One market seed for every harness (a spec may pass its own): the apps of a test process then
    // read one shared path (sharedMarketPath) instead of each computing its own market from 2020.
    env: { DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', JWT_SECRET: 'test-secret-test-secret-test-secret!!', MARKET_SEED: HARNESS_MARKET_SEED, ...LOOPBACK_LIMITS, ...env },
  });
  const projector = createProjector(rt);
  await projector.start();
  const server: Server = await new Promise((resolve) => {
    const s = createEmbeddedApp(rt).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let adminAccount: { id: string; token: string } | undefined;

  const harness: Harness = {
    url,
    rt,
    projector,
    async request(method, p, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let payload: string | undefined;
      if (options.raw !== undefined) payload = options.raw;
      else if (options.body !== undefined) payload = JSON.stringify(options.body);
      if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const res = await fetch(url + p, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body, headers: res.headers };
    },
    head: () => rt.infra.eventStore.headPosition(),
    async eventsSince(position) {
      return rt.infra.eventStore.readAll({ ...(position ? { after: position } : {}), limit: 10_000 });
    },
    async appendedBy(fn) {
      const before = await harness.head();
      await fn();
      return harness.eventsSince(before);
    },
    async signup(fields) {
      const password = fields.password ?? 'secret1';
      const res = await harness.request('POST', '/api/auth/signup', { body: { ...fields, password, confirmPassword: password } });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async login(email, password) {
      const res = await harness.request('POST', '/api/auth/login', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token;
    },
    async admin() {
      if (!adminAccount) {
        const id = await ensureAdmin(registrationDeps(rt), { email: 'root@example.com', password: 'rootpass' });
        adminAccount = { id, token: await harness.login('root@example.com', 'rootpass') };
      }
      return adminAccount;
    },
    async stop() {
      await new Promise((r) => server.close(r));
      await projector.stop();
      await rt.infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A harness for the enclosing `describe`: started before its tests, stopped after them. */
export function useHarness(env: Record<string, string> = {}): () => Harness {
  let harness: Harness | undefined;
  before(async function () {
    harness = await startHarness(env);
  });
  after(async function () {
    await harness?.stop();
  });
  return () => {
    if (!harness) throw new Error('the harness is not started (useHarness must be called inside a describe)');
    return harness;
  };
}
