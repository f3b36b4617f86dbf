/**
 * Platform bench on a real PostgreSQL: `npm run bench:platform`.
 *
 * Measured side by side, in the same run, on the same server:
 *   1. appends/s through the command path (PUT /api/admin/users/{id} over HTTP: auth, load stream,
 *      decide, optimistic append) against raw single-row INSERT transactions via `pg`, with the
 *      same number of requests in flight; the HTTP load comes from wrk when it is installed
 *      (bench/support/wrk-client.ts: a C client whose CPU per request is a small fraction of a Node
 *      client's, which on 2 cores would take it from the server), otherwise from node:http in a child
 *      process (bench/support/command-client.ts); `BENCH_CLIENT=http` forces the latter;
 *   2. one command's latency (1 in flight) on streams of 10 events against streams of 10,000 events
 *      (snapshots: the cost must not grow with the stream), and where a command's time goes: the
 *      PostgreSQL round trips it waits for against everything else (HTTP, Koa, JWT, zod, JSON, decide);
 *   3. projection rebuild (`Projector.rebuild('users')`) events/s against a plain sequential
 *      `readAll` of the same events in batches of 500, doing nothing with them.
 *
 * Fixed counts, a warm-up, a few repetitions (order alternated), medians. Nothing is asserted: this
 * prints numbers. Everything lives in a fresh schema `bench_<random>`, dropped at the end.
 *
 * The event store only shows events below the server-wide pg_snapshot_xmin horizon, so a long write
 * transaction anywhere on the server (another test suite, say) hides the tail of the log, and
 * projections, `caughtUp()` and `rebuild()` wait for it. The bench waits that out (bounded) before each
 * measurement, names the transaction holding it back, and leaves out (and flags) reps it disturbed.
 *
 * DATABASE_URL (or TEST_DATABASE_URL) overrides the server; default postgres://postgres@127.0.0.1:5432/test.
 */
import os from 'node:os';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createCommandApi } from '@papertrade/command-api/app';
import { ensureAdmin } from '@papertrade/command-api/bootstrap';
import { registerAccount } from '@papertrade/command-api/auth/register-account';
import type { EventStore, NewEvent } from '@papertrade/platform/event-store/event-store';
import { comparePositions, encodePosition, type Position } from '@papertrade/platform/event-store/position';
import type { Projector } from '@papertrade/platform/projections/projector';
import { userStreamId } from '@papertrade/domain/auth/user';
import { commandApiDeps, createProjector, createRuntime, registrationDeps, type Runtime } from '../bin/compose';
import { fmtCount, fmtMs, fmtRate, median, perSecond, runConcurrent, table, timed, loadAverage, ratio } from './support/measure';
import { wrkAvailable, wrkPuts } from './support/wrk-client';
import { LOOPBACK_LIMITS } from '../test/limits';

// ---- fixed counts (about 75 s on a quiet 2-core machine) ----
const CONCURRENCY = 8;
const TARGET_USERS = 50;
const APPEND_WARMUP = 300; // per side, untimed
const APPEND_REPS = 5;
const COMMANDS_PER_REP = 600;
/** With wrk: each command rep lasts this long (wrk runs for a time, not a count). */
const WRK_SECONDS = 2;
const CLIENT: 'wrk' | 'http' = process.env.BENCH_CLIENT !== 'http' && wrkAvailable() ? 'wrk' : 'http';
const RAW_INSERTS_PER_REP = 3000;
/**
 * Appended straight to the store before the rebuild bench. The live projections apply them too (the
 * rebuild's warm-up). A rebuild runs at ~1.5k events/s here, so 10k keeps three reps near 30 s.
 */
const FILL_EVENTS = 10_000;
const FILL_BATCH = 50; // events per append call (one stream per call)
const FILL_CONCURRENCY = 4;
const READ_BATCH = 500;
const SHORT_USERS = 20; // streams of ~10 events
const LONG_USERS = 2; // streams of LONG_STREAM events
const LONG_STREAM = 10_000;
const LATENCY_REPS = 5;
const LATENCY_COMMANDS = 100; // per side and rep, 1 in flight // the batch size the projector's subscription uses
const REBUILD_REPS = 3;
const PROJECTION = 'users';
/** Longest single wait for a held-back horizon, and the most the whole run spends on such waits. */
const HORIZON_WAIT_MS = 15_000;
const HORIZON_BUDGET_MS = 45_000;
const CATCH_UP_TIMEOUT_MS = 120_000;

const DATABASE_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_${randomBytes(5).toString('hex')}`;
const APP_NAME = `platform-bench-${SCHEMA}`;
const ADMIN = { email: 'bench-admin@example.com', password: `pw-${randomBytes(12).toString('hex')}` };

// Every pg connection of this process (the platform's pools included) names itself, so a transaction
// holding the horizon back can be told apart from ours.
process.env.PGAPPNAME = APP_NAME;

/**
 * The queries a command's HTTP request makes (counted and timed while awaited): requests run inside
 * this async context, so the projector's queries in the same process are not counted.
 */
const pgCalls = { count: 0, ms: 0 };
const inCommand = new AsyncLocalStorage<true>();
const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  const result = poolQuery.apply(this, args);
  if (inCommand.getStore() && result instanceof Promise) {
    const started = performance.now();
    pgCalls.count++;
    void result.finally(() => (pgCalls.ms += performance.now() - started)).catch(() => {});
  }
  return result;
} as typeof pg.Pool.prototype.query;

const log = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Cleanup {
  client?: ChildProcess;
  server?: Server;
  projector?: Projector;
  rt?: Runtime;
  raw?: pg.Pool;
}

async function main(): Promise<void> {
  const cleanup: Cleanup = {};
  // On Ctrl-C: tear down (the schema is dropped) and exit, whatever the run is doing meanwhile.
  let stopping: Promise<void> | undefined;
  const onSignal = () => {
    if (stopping) process.exit(130);
    log('\ninterrupted: cleaning up…');
    stopping = teardown(cleanup).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let failure: unknown;
  try {
    await run(cleanup);
  } catch (error) {
    failure = error;
  }
  if (stopping) await stopping; // exits
  await teardown(cleanup);
  if (failure !== undefined) throw failure;
}

async function run(cleanup: Cleanup): Promise<void> {
  const runStart = performance.now();

  // ---- the server ----
  const info = new pg.Client({ connectionString: DATABASE_URL });
  await info.connect();
  let server: { version: string; sync: string; fsync: string };
  try {
    const version = (await info.query<{ v: string }>('SELECT version() AS v')).rows[0]?.v ?? '?';
    const sync = (await info.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]?.synchronous_commit ?? '?';
    const fsync = (await info.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync ?? '?';
    server = { version, sync, fsync };
  } finally {
    await info.end();
  }
  log('platform bench');
  log(`  PostgreSQL : ${server.version}`);
  log(`               synchronous_commit=${server.sync}, fsync=${server.fsync}`);
  log(`  server     : ${redactUrl(DATABASE_URL)}, schema ${SCHEMA} (dropped at the end)`);
  log(`  client     : node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log();

  // ---- the system: PostgreSQL event store + read store, in-process bus, projector, command-api ----
  const env: NodeJS.ProcessEnv = {
    EVENT_STORE: 'postgres',
    READ_STORE: 'postgres',
    BUS: 'memory',
    DATABASE_URL,
    DATABASE_SCHEMA: SCHEMA,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    MARKET_SEED: randomBytes(32).toString('base64url'),
    LOG: 'off',
    DEMO_SEED: 'off',
    // No Stripe here: a service runs the test checkout only when asked (bin/compose.ts).
    TEST_CHECKOUT: 'on',
    ...LOOPBACK_LIMITS,
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '100000',
  };
  const setupStart = performance.now();
  const rt = await createRuntime('bench', { embedded: false, env });
  cleanup.rt = rt;
  const eventStore = rt.infra.eventStore;
  const projector = createProjector(rt);
  cleanup.projector = projector;
  await projector.start();

  // The raw side: same server, same schema, a pool as large as the concurrency. Also used to look at
  // the events table directly, without the visibility horizon the event store applies.
  const raw = new pg.Pool({ connectionString: DATABASE_URL, max: CONCURRENCY, options: `-c search_path=${SCHEMA}` });
  raw.on('error', () => {});
  cleanup.raw = raw;
  await raw.query('CREATE TABLE raw_appends (id bigserial PRIMARY KEY, stream_id text NOT NULL, data jsonb NOT NULL)');

  const settle = settler(raw, projector);

  const registration = registrationDeps(rt);
  const adminId = await ensureAdmin(registration, { ...ADMIN, username: 'bench-admin' });
  const userIds: string[] = [];
  // scrypt runs on the libuv pool (4 threads): a few registrations at a time.
  await runConcurrent(TARGET_USERS, 4, async (i) => {
    const n = String(i).padStart(3, '0');
    const { userId } = await registerAccount(
      registration,
      { email: `bench-user-${n}@example.com`, username: `bench-user-${n}`, password: `pw-${randomBytes(8).toString('hex')}` },
      { actor: 'system', correlationId: randomUUID() },
    );
    userIds[i] = userId;
  });
  await settle(); // the admin's read model must exist before the login

  const commandApi = createCommandApi(commandApiDeps(rt));
  // Only while the latencies are measured: on Node 20 an AsyncLocalStorage in use turns on promise
  // hooks for the whole process (about a tenth of the command-api's CPU), which the throughput pair
  // must not be charged for.
  let countQueries = false;
  commandApi.middleware.unshift((_ctx, next) => (countQueries ? inCommand.run(true, next) : next()));
  const http = commandApi.listen(0, '127.0.0.1');
  cleanup.server = http;
  await new Promise<void>((resolve, reject) => {
    http.once('listening', resolve);
    http.once('error', reject);
  });
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  log(`setup: admin + ${TARGET_USERS} users registered, projections settled, command-api on ${base} (${fmtMs(performance.now() - setupStart)})`);

  // ---- 1. appends ----
  let commandSeq = 0;
  let rawSeq = 0;
  const insertRow = async () => {
    const seq = rawSeq++;
    const client = await raw.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO raw_appends (stream_id, data) VALUES ($1, $2::jsonb)', [
        `user-${userIds[seq % userIds.length]}`,
        JSON.stringify({ firstName: `n${seq}` }),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  const streamLength = async () => {
    const rows = await raw.query<{ n: string }>(
      'SELECT coalesce(round(avg(revision + 1)), 0)::text AS n FROM streams WHERE stream_id = ANY($1::text[])',
      [userIds.map(userStreamId)],
    );
    return Number(rows.rows[0]?.n ?? 0);
  };

  // The throughput client: a child process (see bench/support/command-client.ts).
  const client = fork(fileURLToPath(new URL('./support/command-client.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  cleanup.client = client;
  await new Promise<void>((resolve, reject) => {
    client.once('message', () => resolve());
    client.once('exit', (code) => reject(new Error(`the client process exited with ${code}`)));
  });
  /** `count` PUTs from the child, CONCURRENCY in flight (with wrk: what it answers in WRK_SECONDS); the wall time and the count. */
  const putsFromClient = async (count: number): Promise<{ ms: number; count: number }> => {
    if (CLIENT === 'wrk') {
      const run = await wrkPuts({ base, token, ids: userIds, seconds: WRK_SECONDS, concurrency: CONCURRENCY, firstSeq: commandSeq });
      commandSeq += run.requests + CONCURRENCY; // the requests in flight at its end took names too
      return { ms: run.ms, count: run.requests };
    }
    const ms = await new Promise<number>((resolve, reject) => {
      client.once('message', (m: { ms?: number; error?: string }) => (m.error !== undefined ? reject(new Error(m.error)) : resolve(m.ms!)));
      client.send({ base, token, ids: userIds, count, concurrency: CONCURRENCY, firstSeq: commandSeq });
      commandSeq += count;
    });
    return { ms, count };
  };

  log(`appends: warm-up ${APPEND_WARMUP} raw INSERTs + ${CLIENT === 'wrk' ? `${WRK_SECONDS} s of commands` : `${APPEND_WARMUP} commands`}, then ${APPEND_REPS} reps (order alternated), ${CONCURRENCY} in flight; HTTP client: ${CLIENT === 'wrk' ? 'wrk' : 'node:http in a child process'}`);
  await runConcurrent(APPEND_WARMUP, CONCURRENCY, insertRow);
  await putsFromClient(APPEND_WARMUP);
  await settle();
  const streamLengthBefore = await streamLength();

  const rawRates: number[] = [];
  const commandRates: number[] = [];
  const commandCounts: number[] = [];
  const lagMs: number[] = [];
  for (let rep = 0; rep < APPEND_REPS; rep++) {
    const order = rep % 2 === 0 ? (['raw', 'command'] as const) : (['command', 'raw'] as const);
    const parts: string[] = [];
    for (const side of order) {
      if (side === 'raw') {
        const ms = await runConcurrent(RAW_INSERTS_PER_REP, CONCURRENCY, insertRow);
        rawRates.push(perSecond(RAW_INSERTS_PER_REP, ms));
        parts.push(`raw ${fmtRate(rawRates.at(-1)!)}`);
      } else {
        const run = await putsFromClient(COMMANDS_PER_REP);
        commandCounts.push(run.count);
        commandRates.push(perSecond(run.count, run.ms));
        // The projector follows the appends; let it finish (untimed) so it does not eat into the next run.
        const settled = await settle();
        lagMs.push(settled.ms);
        parts.push(`command ${fmtRate(commandRates.at(-1)!)} (projections settled ${fmtMs(settled.ms)} later)`);
      }
    }
    log(`  rep ${rep + 1}: ${parts.join(', ')}`);
  }
  const streamLengthAfter = await streamLength();

  // ---- 2. one command's latency on short and long streams ----
  const shortIds: string[] = [];
  const longIds: string[] = [];
  await runConcurrent(SHORT_USERS + LONG_USERS, 4, async (i) => {
    const { userId } = await registerAccount(
      registration,
      { email: `bench-len-${i}@example.com`, username: `bench-len-${i}`, password: `pw-${randomBytes(8).toString('hex')}` },
      { actor: 'system', correlationId: randomUUID() },
    );
    (i < SHORT_USERS ? shortIds : longIds).push(userId);
  });
  for (const id of shortIds) await appendProfileEvents(eventStore, id, adminId, 9); // 1 + 9 = 10 events
  for (const id of longIds) await appendProfileEvents(eventStore, id, adminId, LONG_STREAM - 1);
  await settle();
  const putFor = (ids: string[]) => {
    let n = 0;
    return async () => {
      const seq = n++;
      const res = await fetch(`${base}/api/admin/users/${ids[seq % ids.length]}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ firstName: `len${seq}` }),
      });
      if (!res.ok) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
    };
  };
  const onShort = putFor(shortIds);
  const onLong = putFor(longIds);
  // Warm-up: the first command on a long stream folds it once and leaves a snapshot.
  await runConcurrent(2 * LONG_USERS, 1, onLong);
  await runConcurrent(2 * SHORT_USERS, 1, onShort);
  await settle();
  const shortLatency: number[] = [];
  const longLatency: number[] = [];
  const breakdown = { commands: 0, ms: 0, pgCount: 0, pgMs: 0 };
  countQueries = true;
  for (let rep = 0; rep < LATENCY_REPS; rep++) {
    const order = rep % 2 === 0 ? (['short', 'long'] as const) : (['long', 'short'] as const);
    const parts: string[] = [];
    for (const side of order) {
      const before = { ...pgCalls };
      const ms = await runConcurrent(LATENCY_COMMANDS, 1, side === 'short' ? onShort : onLong);
      const perCommand = ms / LATENCY_COMMANDS;
      (side === 'short' ? shortLatency : longLatency).push(perCommand);
      breakdown.commands += LATENCY_COMMANDS;
      breakdown.ms += ms;
      breakdown.pgCount += pgCalls.count - before.count;
      breakdown.pgMs += pgCalls.ms - before.ms;
      parts.push(`${side} ${fmtMs(perCommand)}`);
      await settle();
    }
    log(`  latency rep ${rep + 1}: ${parts.join(', ')} per command`);
  }

  countQueries = false;
  inCommand.disable();

  // ---- 3. rebuild vs plain read ----
  const fill = await timed(() => fillEvents(eventStore, userIds, adminId));
  const catchUp = await settle(); // the live generations apply the fill: same code path, the rebuild's warm-up
  const counts = await raw.query<{ total: string; users: string }>(
    `SELECT count(*)::text AS total,
            count(*) FILTER (WHERE type IN ('UserRegistered', 'UserProfileUpdated', 'UserPromotedToAdmin', 'SubscriptionChangedByAdmin'))::text AS users
     FROM events`,
  );
  const totalEvents = Number(counts.rows[0]?.total ?? 0);
  const userEvents = Number(counts.rows[0]?.users ?? 0);
  log(
    `fill: ${fmtCount(FILL_EVENTS)} UserProfileUpdated appended directly (batches of ${FILL_BATCH}, ${FILL_CONCURRENCY} in flight) in ${fmtMs(fill.ms)}` +
      ` (${fmtRate(perSecond(FILL_EVENTS, fill.ms))}); live projections settled ${fmtMs(catchUp.ms)} later (rebuild warm-up)`,
  );
  log(`rebuild: ${fmtCount(totalEvents)} events in the store (${fmtCount(userEvents)} touch '${PROJECTION}'); warm-up read, then ${REBUILD_REPS} reps (order alternated)`);

  const readAllPass = async () => {
    let after: Position | undefined;
    let n = 0;
    for (;;) {
      const batch = await eventStore.readAll(after ? { after, limit: READ_BATCH } : { limit: READ_BATCH });
      n += batch.length;
      const last = batch.at(-1);
      if (!last || batch.length < READ_BATCH) return n;
      after = last.position;
    }
  };
  /** One full read of the log; a pass that did not see every event (horizon) is repeated, at most twice. */
  const fullRead = async (): Promise<{ rate: number; ms: number; valid: boolean; note: string }> => {
    let note = '';
    for (let attempt = 1; ; attempt++) {
      await settle();
      const { ms, result } = await timed(readAllPass);
      if (result === totalEvents) return { rate: perSecond(result, ms), ms, valid: true, note };
      note += ` [pass saw ${fmtCount(result)} of ${fmtCount(totalEvents)} events: horizon held back]`;
      if (attempt === 3) return { rate: perSecond(result, ms), ms, valid: false, note };
    }
  };
  /** One rebuild, timed until the new generation is live and has applied the last event. */
  const rebuildOnce = async (): Promise<{ rate: number; ms: number; valid: boolean; note: string }> => {
    const before = await settle();
    const target = (await settle.lastEvent())?.position;
    const start = performance.now();
    const { from, to } = await projector.rebuild(PROJECTION);
    const returned = performance.now() - start;
    // rebuild() waits for the store's head; should it ever return before the last event, keep counting.
    const complete = comparePositions(projector.positions()[PROJECTION], target) >= 0;
    while (comparePositions(projector.positions()[PROJECTION], target) < 0 && performance.now() - start < CATCH_UP_TIMEOUT_MS) await sleep(2);
    const ms = performance.now() - start;
    const valid = before.clear && complete;
    let note = ` g${from}->g${to}`;
    if (!before.clear) note += ' [started with the horizon held back]';
    if (!complete) note += ` [rebuild() returned after ${fmtMs(returned)}, before the last event]`;
    return { rate: perSecond(totalEvents, ms), ms, valid, note };
  };

  await fullRead(); // warm-up
  const readRates: number[] = [];
  const rebuildRates: number[] = [];
  let discarded = 0;
  for (let rep = 0; rep < REBUILD_REPS; rep++) {
    const order = rep % 2 === 0 ? (['read', 'rebuild'] as const) : (['rebuild', 'read'] as const);
    const parts: string[] = [];
    for (const side of order) {
      const result = side === 'read' ? await fullRead() : await rebuildOnce();
      if (result.valid) (side === 'read' ? readRates : rebuildRates).push(result.rate);
      else discarded++;
      parts.push(`${side === 'read' ? 'readAll' : 'rebuild'} ${fmtRate(result.rate)} (${fmtMs(result.ms)})${result.note}${result.valid ? '' : ' LEFT OUT'}`);
    }
    log(`  rep ${rep + 1}: ${parts.join(', ')}`);
  }

  // ---- report ----
  const row = (label: string, reps: number[], count: string) =>
    reps.length === 0
      ? [label, '0', count, 'n/a', 'n/a', 'n/a']
      : [label, String(reps.length), count, fmtRate(median(reps)), fmtRate(Math.min(...reps)), fmtRate(Math.max(...reps))];
  const msRow = (label: string, reps: number[]) => [label, String(reps.length), fmtCount(LATENCY_COMMANDS), fmtMs(median(reps)), fmtMs(Math.min(...reps)), fmtMs(Math.max(...reps))];
  const commandMedian = median(commandRates);
  const rawMedian = median(rawRates);
  const rebuildMedian = median(rebuildRates);
  const readMedian = median(readRates);

  log();
  log(
    table(
      ['measure', 'reps', 'count/rep', 'median', 'min', 'max'],
      [
        row(`raw INSERT transaction (pg, ${CONCURRENCY} in flight)`, rawRates, fmtCount(RAW_INSERTS_PER_REP)),
        row(`command PUT /api/admin/users/{id} (HTTP from ${CLIENT === 'wrk' ? 'wrk' : 'node:http'}, ${CONCURRENCY} in flight)`, commandRates, fmtCount(Math.round(median(commandCounts)))),
        msRow(`command latency, streams of 10 events (1 in flight)`, shortLatency),
        msRow(`command latency, streams of ${fmtCount(LONG_STREAM)} events (1 in flight)`, longLatency),
        row(`plain readAll, batches of ${READ_BATCH}`, readRates, fmtCount(totalEvents)),
        row(`projection rebuild '${PROJECTION}'`, rebuildRates, fmtCount(totalEvents)),
      ],
    ),
  );
  log();
  log(`appends : command path / raw INSERT = ${ratio(commandMedian, rawMedian)}  (raw INSERT transactions are ${ratio(rawMedian, commandMedian)} faster)`);
  log(`streams : latency on ${fmtCount(LONG_STREAM)}-event streams / on 10-event streams = ${ratio(median(longLatency), median(shortLatency))}`);
  log(
    `one command (1 in flight, ${fmtCount(breakdown.commands)} commands): ${fmtMs(breakdown.ms / breakdown.commands)} in all, of which ` +
      `${(breakdown.pgCount / breakdown.commands).toFixed(2)} PostgreSQL round trips awaited ${fmtMs(breakdown.pgMs / breakdown.commands)}` +
      `; the rest, ${fmtMs((breakdown.ms - breakdown.pgMs) / breakdown.commands)}, is HTTP, Koa, JWT, zod, JSON and deciding`,
  );
  log(`rebuild : rebuild / plain readAll   = ${ratio(rebuildMedian, readMedian)}  (a plain readAll is ${ratio(readMedian, rebuildMedian)} faster)`);
  log();
  log('counts and context:');
  log(`  ${TARGET_USERS} target users round-robin; mean user-stream length ${streamLengthBefore} events before the timed commands, ${streamLengthAfter} after`);
  log(`  ${fmtCount(commandSeq)} commands and ${fmtCount(rawSeq)} raw INSERTs in all (warm-up included); each command appends one UserProfileUpdated`);
  log(`  projections settled after each command rep (untimed): median ${fmtMs(median(lagMs))}; the projector runs in this process during the command reps`);
  log(`  rebuild events/s = all ${fmtCount(totalEvents)} events in the store / wall time until the new generation is live with the last event`);
  const h = settle.stats;
  log(
    `  visibility horizon held back by other transactions: ${h.stalls} time(s), ${fmtMs(h.ms)} waited in all` +
      (h.gaveUp ? `, gave up waiting ${h.gaveUp} time(s)` : '') +
      (discarded ? `; ${discarded} rebuild/read rep(s) disturbed by it and left out of the medians` : ''),
  );
  log(`  whole run ${fmtMs(performance.now() - runStart)}, load average now ${loadAverage()}`);
}

/**
 * Waits until the real last event is visible to readers (no transaction anywhere on the server holds
 * pg_snapshot_xmin at or below it), then until every projection has checkpointed it. The first wait is
 * bounded (HORIZON_WAIT_MS, HORIZON_BUDGET_MS in all) and names the transaction holding it back.
 */
function settler(raw: pg.Pool, projector: Projector) {
  const stats = { stalls: 0, ms: 0, gaveUp: 0 };

  /** The last event in the table, visible or not (meaningful while none of our appends is in flight). */
  const lastEvent = async (): Promise<{ position: Position; tx: bigint } | undefined> => {
    const rows = await raw.query<{ tx: string; seq: string }>('SELECT tx_id::text AS tx, seq::text AS seq FROM events ORDER BY tx_id DESC, seq DESC LIMIT 1');
    const row = rows.rows[0];
    return row ? { position: encodePosition(row.tx, row.seq), tx: BigInt(row.tx) } : undefined;
  };

  /** Readers (readAll, subscriptions) see an event once its transaction id is below the horizon. */
  const visible = async (tx: bigint): Promise<boolean> => {
    const rows = await raw.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
    return BigInt(rows.rows[0]?.xmin ?? '0') > tx;
  };

  /** The oldest transaction with an xid on the whole server: what holds pg_snapshot_xmin back. */
  const culprit = async (): Promise<string> => {
    const rows = await raw.query<{ pid: number; datname: string | null; app: string | null; state: string | null; age_ms: string | null; query: string | null }>(
      `SELECT pid, datname, application_name AS app, state, round(extract(epoch FROM now() - xact_start) * 1000)::text AS age_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
       FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY age(backend_xid) DESC LIMIT 1`,
    );
    const r = rows.rows[0];
    if (!r) return 'no transaction with an xid is open now';
    const ours = r.app === APP_NAME ? ' (THIS bench process)' : '';
    return `pid ${r.pid}${ours}, db ${r.datname ?? '?'}, application '${r.app ?? ''}', ${r.state ?? '?'} for ${r.age_ms ?? '?'} ms: ${r.query ?? ''}`;
  };

  const settle = async (): Promise<{ ms: number; clear: boolean }> => {
    const last = await lastEvent();
    const start = performance.now();
    let clear = true;
    let reported = false;
    while (last && !(await visible(last.tx))) {
      const waited = performance.now() - start;
      if (waited > 1000 && !reported) {
        reported = true;
        log(`  waiting: the visibility horizon is held back by ${await culprit()}`);
      }
      if (waited > Math.min(HORIZON_WAIT_MS, HORIZON_BUDGET_MS - stats.ms)) {
        clear = false;
        stats.gaveUp++;
        log(`  warning: horizon still held back after ${fmtMs(waited)}; going on (the reps it disturbs are flagged)`);
        break;
      }
      await sleep(5);
    }
    const heldBack = performance.now() - start;
    if (heldBack > 20) {
      stats.stalls++;
      stats.ms += heldBack;
    }
    if (clear && last) {
      while (!Object.values(projector.positions()).every((p) => comparePositions(p, last.position) >= 0)) {
        if (performance.now() - start > CATCH_UP_TIMEOUT_MS) {
          log(`  warning: projections not caught up after ${fmtMs(CATCH_UP_TIMEOUT_MS)}`);
          break;
        }
        await sleep(2);
      }
    }
    return { ms: performance.now() - start, clear };
  };
  return Object.assign(settle, { lastEvent, stats });
}

/** Appends `count` UserProfileUpdated events to one user's stream, straight to the store. */
async function appendProfileEvents(eventStore: EventStore, userId: string, adminId: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += 500) {
    const at = new Date().toISOString();
    const correlationId = randomUUID();
    const events: NewEvent[] = Array.from({ length: Math.min(500, count - done) }, (_, i) => ({
      id: randomUUID(),
      type: 'UserProfileUpdated',
      data: { userId, changes: { firstName: `pre-${done + i}` }, updatedBy: adminId, updatedAt: at },
      metadata: { userId: adminId, correlationId, causationId: correlationId, at, schemaVersion: 1 },
    }));
    await eventStore.append(userStreamId(userId), events, 'any');
  }
}

/** Appends FILL_EVENTS UserProfileUpdated events straight to the store, round-robin over the users. */
async function fillEvents(eventStore: EventStore, userIds: string[], adminId: string): Promise<void> {
  const calls = Math.ceil(FILL_EVENTS / FILL_BATCH);
  await runConcurrent(calls, FILL_CONCURRENCY, async (call) => {
    const userId = userIds[call % userIds.length]!;
    const at = new Date().toISOString();
    const correlationId = randomUUID();
    const size = Math.min(FILL_BATCH, FILL_EVENTS - call * FILL_BATCH);
    const events: NewEvent[] = Array.from({ length: size }, (_, i) => ({
      id: randomUUID(),
      type: 'UserProfileUpdated',
      data: { userId, changes: { firstName: `fill-${call}-${i}` }, updatedBy: adminId, updatedAt: at },
      metadata: { userId: adminId, correlationId, causationId: correlationId, at, schemaVersion: 1 },
    }));
    await eventStore.append(userStreamId(userId), events, 'any');
  });
}

async function teardown(cleanup: Cleanup): Promise<void> {
  const step = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      log(`cleanup: ${what} failed: ${String(error)}`);
    }
  };
  if (cleanup.client?.connected) cleanup.client.send('close');
  if (cleanup.server) {
    const server = cleanup.server;
    await step('closing the HTTP server', () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
  if (cleanup.projector) await step('stopping the projector', () => cleanup.projector!.stop());
  if (cleanup.rt) await step('closing the stores', () => cleanup.rt!.infra.close());
  if (cleanup.raw) await step('closing the raw pool', () => cleanup.raw!.end());
  await step(`dropping schema ${SCHEMA}`, async () => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    } finally {
      await client.end();
    }
  });
}


function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
