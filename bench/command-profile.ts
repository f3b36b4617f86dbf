/**
 * Where one command's time goes: `npm run bench:command-profile` (add `-- --cpu-prof` for a CPU
 * profile summary). The system of bench/platform.bench.ts (PostgreSQL event store and read models,
 * in-process bus, the projector running in this process, command-api over HTTP, the HTTP client in a
 * child process), and the command `PUT /api/admin/users/{id}` `{"firstName": …}`.
 *
 *   1. Phases, 1 in flight: each request runs in an async context that collects timed spans around
 *      the steps of the command path (wrapped on the prototypes and instances the app uses): JWT
 *      verification, identity lookup, zod, stream load, decide, append, snapshot save, log line; and
 *      every PostgreSQL query (counted: the round trips). What is left of the server's time is Koa,
 *      routing, body reading and parsing, and the response; the client's time beyond the server's is
 *      the HTTP client and the sockets.
 *   2. CPU per operation, 8 in flight (the throughput pair of bench:platform): commands against raw
 *      single-row INSERT transactions, each with the CPU it cost this process (server and projector),
 *      the client process, and the PostgreSQL backends (read from /proc for the backends of this
 *      bench, so the server must be local; 'n/a' otherwise). CPU per operation does not depend on how
 *      busy the shared machine is the way rates do.
 *   3. With --cpu-prof: the in-process V8 profiler runs during one command rep; the top functions by
 *      self time, and the self time per package.
 *
 * Nothing is asserted. A fresh schema `bench_<random>`, dropped at the end.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createCommandApi } from '@papertrade/command-api/app';
import { ensureAdmin } from '@papertrade/command-api/bootstrap';
import { registerAccount } from '@papertrade/command-api/auth/register-account';
import { adminUpdateUserRequestSchema } from '@papertrade/domain/admin/contracts';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { IdentityCache } from '@papertrade/platform/auth/identity-cache';
import { commandApiDeps, createProjector, createRuntime, registrationDeps } from '../bin/compose';
import { fmtMs, fmtRate, loadAverage, median, perSecond, ratio, runConcurrent, table } from './support/measure';
import { LOOPBACK_LIMITS } from '../test/limits';
import { wrkAvailable, wrkPuts } from './support/wrk-client';
import { formatProfile, summariseProfile, type CpuProfile } from './support/cpu-profile';

const args = new Set(process.argv.slice(2));
const CPU_PROFILE = args.has('--cpu-prof');
/** Stops the projector once the admin can sign in: the command path alone, for comparison. */
const NO_PROJECTOR = args.has('--no-projector');
/**
 * The client of the 8-in-flight part: wrk when installed (bench/support/wrk-client.ts), else
 * node:http in a child process; `--http` or `--fetch` (the bench client as it was) choose a Node
 * client, to see what the client's own CPU costs. The 1-in-flight part always uses the Node client
 * (it records each request's latency).
 */
const CLIENT: 'wrk' | 'http' | 'fetch' = args.has('--fetch') ? 'fetch' : args.has('--http') ? 'http' : wrkAvailable() ? 'wrk' : 'http';
const NODE_CLIENT = CLIENT === 'fetch' ? 'fetch' : 'http';
const USERS = 50;
const WARMUP = 300;
const PHASE_COMMANDS = 500; // 1 in flight
const CONCURRENCY = 8;
const REPS = 3;
const COMMANDS_PER_REP = 600;
const RAW_PER_REP = 1500;
/** With wrk, each 8-in-flight command rep (and the warm-up) lasts this long. */
const WRK_SECONDS = 2;

const DATABASE_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_${randomBytes(5).toString('hex')}`;
const APP_NAME = `command-profile-${SCHEMA}`;
process.env.PGAPPNAME = APP_NAME;
const log = (line = '') => process.stdout.write(`${line}\n`);

// ---- spans: one record per request, in its async context ----
interface Trace {
  spans: Map<string, number>;
  queries: number;
  queryMs: number;
}
const current = new AsyncLocalStorage<Trace>();
let tracing = true;
const add = (trace: Trace, name: string, ms: number) => trace.spans.set(name, (trace.spans.get(name) ?? 0) + ms);

/** Wraps `target[key]` (sync or async) so that its time inside a request is added to span `name`. */
function span<T extends object>(target: T, key: keyof T & string, name: string): void {
  const original = target[key] as unknown as (...a: unknown[]) => unknown;
  (target as Record<string, unknown>)[key] = function (this: unknown, ...a: unknown[]) {
    const trace = current.getStore();
    if (!trace) return original.apply(this, a);
    const start = performance.now();
    const result = original.apply(this, a);
    if (result instanceof Promise) return result.finally(() => add(trace, name, performance.now() - start));
    add(trace, name, performance.now() - start);
    return result;
  };
}
span(TokenService.prototype, 'claims', 'JWT verify (jsonwebtoken + zod claims)');
span(IdentityCache.prototype, 'get', 'identity lookup (cache, read model every 2 s)');
span(adminUpdateUserRequestSchema, 'safeParse', 'zod body');
span(CommandHandler.prototype, 'load', 'stream load (snapshot + tail + idempotency ids, fold)');
span(userDecider, 'decide', 'decide');
span(SqlEventStore.prototype, 'append', 'append (stream row + events, one statement)');
span(SqlEventStore.prototype, 'saveSnapshot', 'snapshot save');

/** Every query through a pool of this process (the raw side uses pool clients, so it is not counted). */
let poolQueries = 0;
const poolQuery = pg.Pool.prototype.query as (...a: unknown[]) => unknown;
pg.Pool.prototype.query = function (this: pg.Pool, ...a: unknown[]) {
  poolQueries++;
  const result = poolQuery.apply(this, a);
  const trace = current.getStore();
  if (trace && result instanceof Promise) {
    const start = performance.now();
    trace.queries++;
    void result.finally(() => (trace.queryMs += performance.now() - start)).catch(() => {});
  }
  return result;
} as typeof pg.Pool.prototype.query;

/** CPU seconds (user + system) of the PostgreSQL backends named APP_NAME, or undefined off this host. */
async function backendCpu(raw: pg.Pool, which: 'store' | 'raw'): Promise<number | undefined> {
  const rows = await raw.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    which === 'raw' ? `${APP_NAME}-raw` : APP_NAME,
  ]);
  let ticks = 0;
  for (const { pid } of rows.rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    } catch {
      return undefined;
    }
  }
  return ticks / 100; // USER_HZ
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    EVENT_STORE: 'postgres',
    READ_STORE: 'postgres',
    BUS: 'memory',
    DATABASE_URL,
    DATABASE_SCHEMA: SCHEMA,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    MARKET_SEED: randomBytes(32).toString('base64url'),
    LOG: process.env.LOG ?? 'off',
    DEMO_SEED: 'off',
    // No Stripe here: a service runs the test checkout only when asked (bin/compose.ts).
    TEST_CHECKOUT: 'on',
    ...LOOPBACK_LIMITS,
  };
  const rt = await createRuntime('bench', { embedded: false, env });
  // The log line of each command, timed (LOG=off by default as in bench:platform; LOG=on writes them to stdout).
  span(rt.logger, 'info', 'log line');
  const projector = createProjector(rt);
  await projector.start();
  const raw = new pg.Pool({ connectionString: DATABASE_URL, max: CONCURRENCY, options: `-c search_path=${SCHEMA}`, application_name: `${APP_NAME}-raw` });
  raw.on('error', () => {});
  const client = fork(fileURLToPath(new URL('./support/command-client.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  let server: ReturnType<ReturnType<typeof createCommandApi>['listen']> | undefined;
  try {
    await raw.query('CREATE TABLE raw_appends (id bigserial PRIMARY KEY, stream_id text NOT NULL, data jsonb NOT NULL)');
    const registration = registrationDeps(rt);
    const admin = { email: 'bench-admin@example.com', password: `pw-${randomBytes(12).toString('hex')}` };
    await ensureAdmin(registration, { ...admin, username: 'bench-admin' });
    const ids: string[] = [];
    await runConcurrent(USERS, 4, async (i) => {
      const n = String(i).padStart(3, '0');
      const { userId } = await registerAccount(
        registration,
        { email: `bench-user-${n}@example.com`, username: `bench-user-${n}`, password: `pw-${randomBytes(8).toString('hex')}` },
        { actor: 'system', correlationId: randomUUID() },
      );
      ids[i] = userId;
    });
    await projector.caughtUp();
    const app = createCommandApi(commandApiDeps(rt));
    const traces: Array<{ trace: Trace; ms: number; parts: Map<string, number> }> = [];
    app.middleware.unshift(async (ctx, next) => {
      if (!tracing) return next();
      const trace: Trace = { spans: new Map(), queries: 0, queryMs: 0 };
      const start = performance.now();
      const parts = new Map<string, number>();
      await current.run(trace, next);
      const handled = performance.now();
      parts.set('handled', handled - start);
      ctx.res.once('finish', () => traces.push({ trace, ms: performance.now() - start, parts }));
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let token = '';
    for (let attempt = 0; !token; attempt++) {
      const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
      if (res.ok) token = ((await res.json()) as { token: string }).token;
      else if (attempt > 100) throw new Error(`admin login: ${res.status}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise<void>((resolve) => client.once('message', () => resolve()));
    let seq = 0;
    /** `count` PUTs (with wrk: as many as it answers in the time the Node client would take for about `count`). */
    const puts = async (count: number, concurrency: number): Promise<{ ms: number; cpuMs: number; count: number; latencies?: number[] }> => {
      if (CLIENT === 'wrk' && concurrency > 1) {
        const firstSeq = seq;
        const run = await wrkPuts({ base, token, ids, seconds: WRK_SECONDS, concurrency, firstSeq });
        seq += run.requests + concurrency; // the requests in flight at wrk's end took names too
        return { ms: run.ms, cpuMs: run.cpuMs, count: run.requests };
      }
      return { ...(await nodePuts(count, concurrency)), count };
    };
    const nodePuts = (count: number, concurrency: number) =>
      new Promise<{ ms: number; cpuMs: number; latencies?: number[] }>((resolve, reject) => {
        client.once('message', (m: { ms?: number; cpuMs?: number; latencies?: number[]; error?: string }) =>
          m.error !== undefined ? reject(new Error(m.error)) : resolve({ ms: m.ms!, cpuMs: m.cpuMs ?? Number.NaN, ...(m.latencies ? { latencies: m.latencies } : {}) }),
        );
        client.send({ base, token, ids, count, concurrency, firstSeq: seq, latencies: concurrency === 1, client: NODE_CLIENT });
        seq += count;
      });
    let rawSeq = 0;
    const insertRow = async () => {
      const n = rawSeq++;
      const c = await raw.connect();
      try {
        await c.query('BEGIN');
        await c.query('INSERT INTO raw_appends (stream_id, data) VALUES ($1, $2::jsonb)', [`user-${ids[n % ids.length]}`, JSON.stringify({ firstName: `n${n}` })]);
        await c.query('COMMIT');
      } finally {
        c.release();
      }
    };

    if (NO_PROJECTOR) await projector.stop();
    log(`command profile: PUT /api/admin/users/{id} on PostgreSQL (${SCHEMA}), client ${CLIENT}${NO_PROJECTOR ? ', projector STOPPED' : ''}, load average ${loadAverage()}`);
    await puts(WARMUP, CONCURRENCY);
    await runConcurrent(WARMUP, CONCURRENCY, insertRow);

    // ---- 1. phases, 1 in flight ----
    traces.length = 0;
    const one = await puts(PHASE_COMMANDS, 1);
    const n = traces.length;
    const spanNames = [...new Set(traces.flatMap((t) => [...t.trace.spans.keys()]))];
    const mean = (f: (t: (typeof traces)[number]) => number) => traces.reduce((s, t) => s + f(t), 0) / n;
    const serverMs = mean((t) => t.ms);
    const clientMs = one.latencies ? one.latencies.reduce((a, b) => a + b, 0) / one.latencies.length : one.ms / PHASE_COMMANDS;
    const spanMean = (name: string) => mean((t) => t.trace.spans.get(name) ?? 0);
    const spanned = spanNames.reduce((s, name) => s + spanMean(name), 0);
    const handledMs = mean((t) => t.parts.get('handled') ?? 0);
    log();
    log(`1. one command's time, 1 in flight, ${n} commands (mean per command; nested spans: load and append include their SQL)`);
    const rows: string[][] = spanNames.map((name) => [name, fmtUs(spanMean(name))]);
    rows.push(['Koa, routing, body read + JSON.parse, meta, response body (handled - spans)', fmtUs(handledMs - spanned)]);
    rows.push(['response write until finish', fmtUs(serverMs - handledMs)]);
    rows.push(['= server, first middleware to response finished', fmtUs(serverMs)]);
    rows.push([`client latency (child process, ${NODE_CLIENT})`, fmtUs(clientMs)]);
    rows.push(['  of which HTTP client + sockets + Node HTTP parsing (client - server)', fmtUs(clientMs - serverMs)]);
    log(table(['phase', 'mean'], rows));
    log(`   PostgreSQL round trips per command: ${(mean((t) => t.trace.queries)).toFixed(2)}, awaited ${fmtUs(mean((t) => t.trace.queryMs))} in all`);
    // Node 20: an AsyncLocalStorage in use turns promise hooks on for the whole process; off for the CPU figures.
    tracing = false;
    current.disable();

    // ---- 2. throughput and CPU per operation, 8 in flight ----
    log();
    log(`2. ${CONCURRENCY} in flight, ${REPS} reps alternated: ${CLIENT === 'wrk' ? `${WRK_SECONDS} s of commands from wrk` : `${COMMANDS_PER_REP} commands from node:${CLIENT}`} against ${RAW_PER_REP} raw INSERT transactions (CPU per operation)`);
    const session = CPU_PROFILE ? new Session() : undefined;
    const cmd = { rates: [] as number[], node: 0, nodeSystem: 0, client: 0, pg: 0 as number | undefined, ops: 0, queries: 0 };
    const base0 = { rates: [] as number[], node: 0, nodeSystem: 0, pg: 0 as number | undefined, ops: 0 };
    for (let rep = 0; rep < REPS; rep++) {
      for (const side of rep % 2 === 0 ? ['raw', 'command'] : ['command', 'raw']) {
        const cpu0 = process.cpuUsage();
        const pg0 = await backendCpu(raw, side === 'raw' ? 'raw' : 'store');
        if (side === 'raw') {
          const ms = await runConcurrent(RAW_PER_REP, CONCURRENCY, insertRow);
          base0.rates.push(perSecond(RAW_PER_REP, ms));
          base0.ops += RAW_PER_REP;
          const cpu = process.cpuUsage(cpu0);
          base0.node += (cpu.user + cpu.system) / 1000;
          base0.nodeSystem += cpu.system / 1000;
          const pg1 = await backendCpu(raw, 'raw');
          base0.pg = base0.pg === undefined || pg0 === undefined || pg1 === undefined ? undefined : base0.pg + (pg1 - pg0) * 1000;
        } else {
          if (session && rep === REPS - 1) {
            session.connect();
            await session.post('Profiler.enable');
            await session.post('Profiler.setSamplingInterval', { interval: 200 });
            await session.post('Profiler.start');
          }
          const queries0 = poolQueries;
          const run = await puts(COMMANDS_PER_REP, CONCURRENCY);
          if (session && rep === REPS - 1) {
            const { profile } = await session.post('Profiler.stop');
            printProfile(profile as unknown as CpuProfile);
            session.disconnect();
          }
          if (!NO_PROJECTOR) await projector.caughtUp(); // the projector's work for these commands is part of their cost
          cmd.queries += poolQueries - queries0;
          cmd.rates.push(perSecond(run.count, run.ms));
          cmd.ops += run.count;
          const cpu = process.cpuUsage(cpu0);
          cmd.node += (cpu.user + cpu.system) / 1000;
          cmd.nodeSystem += cpu.system / 1000;
          cmd.client += run.cpuMs;
          const pg1 = await backendCpu(raw, 'store');
          cmd.pg = cmd.pg === undefined || pg0 === undefined || pg1 === undefined ? undefined : cmd.pg + (pg1 - pg0) * 1000;
        }
      }
      log(`   rep ${rep + 1}: raw ${fmtRate(base0.rates.at(-1)!)}, command ${fmtRate(cmd.rates.at(-1)!)}`);
    }
    const per = (total: number | undefined, ops: number) => (total === undefined ? 'n/a' : fmtUs(total / ops));
    log(
      table(
        ['per operation', 'rate (median)', 'this process CPU', 'PostgreSQL backends CPU', 'client process CPU'],
        [
          ['command PUT (server + projector in this process)', fmtRate(median(cmd.rates)), per(cmd.node, cmd.ops), per(cmd.pg, cmd.ops), per(cmd.client, cmd.ops)],
          ['raw INSERT transaction', fmtRate(median(base0.rates)), per(base0.node, base0.ops), per(base0.pg, base0.ops), '-'],
        ],
      ),
    );
    log(`   of this process's CPU, in the kernel (system time): command ${per(cmd.nodeSystem, cmd.ops)}, raw ${per(base0.nodeSystem, base0.ops)}`);
    log(`   queries per command, everything in this process (command, projector's reads and writes, identity reads): ${(cmd.queries / cmd.ops).toFixed(2)}; raw: 3 (BEGIN, INSERT, COMMIT)`);
    log(`   command / raw = ${ratio(median(cmd.rates), median(base0.rates))}; load average now ${loadAverage()}`);
  } finally {
    if (client.connected) client.send('close');
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await projector.stop().catch(() => {});
    await rt.infra.close().catch(() => {});
    await raw.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
    await raw.end();
  }
}

function fmtUs(ms: number): string {
  return `${Math.round(ms * 1000).toLocaleString('en-US')} µs`;
}

/** Top functions by self time, and self time per package (node_modules/<pkg>, node: internals, ours). */
function printProfile(profile: CpuProfile): void {
  const summary = summariseProfile(profile);
  log(`   CPU profile of this process during one command rep (${(summary.totalUs / 1000).toFixed(0)} ms sampled):`);
  log(formatProfile(summary));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
