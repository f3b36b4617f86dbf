/**
 * Integration suites declare the real services they need. Outside CI a missing service skips the
 * suite with a one-line reason, so `npm test` passes on a bare machine on the embedded engines alone;
 * under CI=true a missing service fails the suite instead.
 */
import net from 'node:net';
import fs from 'node:fs';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const inCi = () => process.env.CI === 'true' || process.env.CI === '1';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const checks = {
  postgres: async () => ((await reachable(POSTGRES_URL, 5432)) ? null : `PostgreSQL is not reachable at ${new URL(POSTGRES_URL).host}`),
  nats: async () => ((await reachable(NATS_URL, 4222)) ? null : `NATS is not reachable at ${new URL(NATS_URL).host}`),
  chromium: async () => (fs.existsSync(CHROMIUM_PATH) ? null : `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium)`),
} as const;

export type Service = keyof typeof checks;

/** Call inside `before(function () { ... })`: `await requireServices(this, 'postgres')`. */
export async function requireServices(ctx: Mocha.Context, ...services: Service[]): Promise<void> {
  for (const service of services) {
    const reason = await checks[service]();
    if (!reason) continue;
    if (inCi()) throw new Error(`${reason}; it is required under CI=true`);
    console.log(`    skipped: ${reason}`);
    ctx.skip();
  }
}

/** For suites of optional servers that cannot run on our machines (EventStoreDB, MongoDB). */
export function skipUnlessEnv(ctx: Mocha.Context, variable: string, what: string): string {
  const value = process.env[variable];
  if (!value) {
    console.log(`    skipped: ${what} suite needs ${variable}`);
    ctx.skip();
  }
  return value as string;
}
