/**
 * Query bench on the embedded app: `npm run bench:query`.
 *
 * The embedded app (PGlite event store and read models, in-process bus, projector) runs in this
 * process on a copy of the PGlite template (test/api-harness.ts), and is driven over HTTP with
 * `CONCURRENCY` requests in flight. Measured side by side, in the same run:
 *   - authenticated `GET /api/auth/me` (bearer token: token check, then who the user is)
 *   - `GET /api/plans` (public, a constant JSON body: the same Koa stack with no read at all)
 * and their ratio. Done twice, with 100 and then 10,000 users in the read model; `/me` is called
 * round-robin over the same 100 users both times, so the two ratios show whether the cost of an
 * authenticated read grows with the number of users. A third row at 10,000 users goes round-robin
 * over all of them (each user comes back only every few seconds: the worst case for a cache).
 * A fourth row, authenticated `GET /api/trades` over the same 100 users, is a user-scoped read: it
 * also looks for the caller's last write (platform/src/http/own-writes.ts: one index probe, no wait
 * here since every user's write is projected), so its ratio to plans shows what that costs.
 *
 * Users are seeded as UserRegistered events appended straight to the event store (no scrypt, no
 * sign-up route: the bench is about the read path) and tokens are issued with the app's secret.
 * Fixed counts, an untimed warm-up, repetitions with the order alternated, medians. Nothing is asserted.
 */
import http from 'node:http';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { TokenService } from '@papertrade/platform/auth/tokens';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import { userStreamId } from '@papertrade/domain/auth/user';
import { startHarness, type Harness } from '../test/api-harness';
import { fmtCount, fmtMs, fmtRate, median, perSecond, runConcurrent, table, timed, loadAverage, ratio } from './support/measure';

// ---- fixed counts ----
const CONCURRENCY = 32;
const USER_COUNTS = [100, 10_000];
const ACTIVE_USERS = 100; // the users /me is called for, round-robin, at every user count
const WARMUP = 1_000; // requests per side, untimed
const REPS = 5;
const REQUESTS_PER_REP = 4_000;
const SEED_CONCURRENCY = 4;

const log = (line = '') => process.stdout.write(`${line}\n`);

interface Row {
  label: string;
  rates: number[];
}

async function main(): Promise<void> {
  const runStart = performance.now();
  log('query bench (embedded app in this process: PGlite, in-process bus)');
  log(`  client : node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log(`  method : ${CONCURRENCY} in flight, warm-up ${fmtCount(WARMUP)} per side, ${REPS} reps of ${fmtCount(REQUESTS_PER_REP)} requests, order alternated`);
  log();

  const harness = await startHarness();
  try {
    await run(harness);
  } finally {
    await harness.stop();
  }
  log(`whole run ${fmtMs(performance.now() - runStart)}, load average now ${loadAverage()}`);
}

async function run(harness: Harness): Promise<void> {
  const tokens = new TokenService(harness.rt.jwtSecret, harness.rt.clock);
  const userIds: string[] = [];
  const results: Array<{ users: number; rows: Row[] }> = [];

  for (const users of USER_COUNTS) {
    const seed = await timed(async () => {
      const fresh = await seedUsers(harness.rt.infra.eventStore, userIds.length, users - userIds.length);
      userIds.push(...fresh);
      await harness.projector.caughtUp();
    });
    const active = userIds.slice(0, ACTIVE_USERS).map((id) => tokens.issue(id));
    log(`${fmtCount(users)} users in the read model (seeded and projected in ${fmtMs(seed.ms)})`);

    // A keep-alive pool per round, made after seeding: a socket the server closed while idle is never reused.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const plans = get(agent, harness.url, '/api/plans');
    const me = (bearer: string[]) => get(agent, harness.url, '/api/auth/me', bearer);
    const sides: Array<{ label: string; op: (i: number) => Promise<void> }> = [
      { label: 'GET /api/plans (public)', op: plans },
      { label: `GET /api/auth/me, ${fmtCount(active.length)} users round-robin`, op: me(active) },
      { label: `GET /api/trades, ${fmtCount(active.length)} users round-robin`, op: get(agent, harness.url, '/api/trades', active) },
    ];
    if (users > ACTIVE_USERS) {
      // Tokens for every user, made before timing (signing is not what is measured).
      const all = userIds.map((id) => tokens.issue(id));
      sides.push({ label: `GET /api/auth/me, all ${fmtCount(all.length)} users round-robin`, op: me(all) });
    }
    for (const side of sides) await runConcurrent(WARMUP, CONCURRENCY, side.op);

    const rows: Row[] = sides.map((s) => ({ label: s.label, rates: [] }));
    for (let rep = 0; rep < REPS; rep++) {
      const order = rep % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
      const parts: string[] = [];
      for (const i of order) {
        const ms = await runConcurrent(REQUESTS_PER_REP, CONCURRENCY, sides[i]!.op);
        rows[i]!.rates.push(perSecond(REQUESTS_PER_REP, ms));
        parts.push(`${i === 0 ? 'plans' : i === 2 ? 'trades' : `me#${i}`} ${fmtRate(rows[i]!.rates.at(-1)!)}`);
      }
      log(`  rep ${rep + 1}: ${parts.join(', ')}`);
    }
    agent.destroy();
    results.push({ users, rows });
    log();
  }

  const tableRows: string[][] = [];
  for (const { users, rows } of results) {
    const plans = median(rows[0]!.rates);
    for (const row of rows) {
      const m = median(row.rates);
      tableRows.push([
        `${fmtCount(users)} users: ${row.label}`,
        fmtRate(m),
        fmtRate(Math.min(...row.rates)),
        fmtRate(Math.max(...row.rates)),
        row === rows[0] ? '' : ratio(m, plans),
      ]);
    }
  }
  log(table(['measure', 'median', 'min', 'max', 'vs plans'], tableRows));
  log();
  for (const { users, rows } of results) {
    log(`${fmtCount(users).padStart(6)} users: authenticated GET /api/auth/me / public GET /api/plans = ${ratio(median(rows[1]!.rates), median(rows[0]!.rates))}`);
    log(`${fmtCount(users).padStart(6)} users: authenticated GET /api/trades / public GET /api/plans = ${ratio(median(rows[2]!.rates), median(rows[0]!.rates))}`);
  }
}

/**
 * An op for runConcurrent: GET `path`, with the i-th token of `bearer` round-robin when given. Plain
 * node:http rather than fetch: the client shares this process with the app, and the lighter it is,
 * the less it blurs the difference between the two routes.
 */
function get(agent: http.Agent, base: string, path: string, bearer?: string[]) {
  const url = new URL(path, base);
  return (i: number) =>
    new Promise<void>((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = bearer ? { authorization: `Bearer ${bearer[i % bearer.length]!}` } : {};
      const req = http.get({ agent, host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode === 200) resolve();
          else reject(new Error(`GET ${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
        });
      });
      req.on('error', reject);
    });
}

/** Appends `count` UserRegistered events, one new user stream each; returns the ids. */
async function seedUsers(eventStore: EventStore, from: number, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const at = new Date().toISOString();
  await runConcurrent(count, SEED_CONCURRENCY, async (i) => {
    const userId = ids[i]!;
    const n = from + i;
    const correlationId = randomUUID();
    await eventStore.append(
      userStreamId(userId),
      [
        {
          id: randomUUID(),
          type: 'UserRegistered',
          // Not a real scrypt hash: nobody signs in with these users.
          data: { userId, email: `bench-${n}@example.com`, username: `bench_${n}`, firstName: null, lastName: null, passwordHash: 'bench', registeredAt: at },
          metadata: { userId, correlationId, causationId: correlationId, at, schemaVersion: 1 },
        },
      ],
      'no_stream',
    );
  });
  return ids;
}


main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
