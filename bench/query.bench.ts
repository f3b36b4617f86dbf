/**
 * Query bench on the embedded app: `npm run bench:query`.
 *
 * The embedded app (PGlite event store and read models, in-process bus, projector) runs in this
 * process on a copy of the PGlite template (test/api-harness.ts), and is driven over HTTP with
 * `CONCURRENCY` requests in flight. Measured side by side, in the same run, against the baseline
 * `GET /api/plans` (public, a constant JSON body: the same Koa stack with no read at all):
 *   - authenticated `GET /api/auth/me` (token check, then who the user is)
 *   - every read a signed-in dashboard polls, with the user's bearer token: `GET /api/portfolio`,
 *     `/api/trades`, `/api/risk`, `/api/risk/alerts`, `/api/risk/active-trades` (Premium),
 *     `/api/signals`, `/api/indicators` and `/api/price` (the last three also with `?symbol=BTC`).
 * Done with 100 and then 10,000 users holding data; the user-scoped rows go round-robin over the same
 * 100 users both times, so the two ratios show whether a read's cost grows with the number of users.
 * With 10,000 users, `me`, portfolio and trades are also read round-robin over all of them, in a phase
 * of their own against plans again (each user comes back only every few seconds: the worst case for
 * a cache, whose misses would otherwise evict the 100 users' reads from it).
 *
 * Each user has realistic data (bench/support/polled-data.ts: 30 trades over ten days with 3 positions
 * still open, changed bot settings and 4 alerts, one acknowledged; the first 100 and every other one
 * Premium), and every coin the last day's signals, all folded by the domain's deciders and appended
 * straight to the event store (no scrypt, no HTTP: the bench is about the read path); tokens are
 * issued with the app's secret.
 *
 * Fixed counts, an untimed warm-up, repetitions with the order of the rows alternated, medians. The CPU
 * this process spent per request (server and client together: process.cpuUsage) is printed beside the
 * rates, since it moves less than a rate when other work shares the cores. Nothing is asserted.
 *
 * Options: `-- --cpu-prof` profiles PROFILE_REQUESTS more requests of each row after its timed reps
 * (self time by package and function); `BENCH_ROWS=trades,portfolio` runs only the rows whose label
 * contains one of these words (plans always runs); `BENCH_USERS=100` only that user count;
 * `BENCH_REPS`, `BENCH_REQUESTS`, `BENCH_WARMUP`, `BENCH_PROFILE_REQUESTS` change the counts (for a
 * quick look; the figures in bench/README.md are from the defaults unless they say otherwise).
 */
import http from 'node:http';
import os from 'node:os';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { startHarness, type Harness } from '../test/api-harness';
import { fmtCount, fmtMs, fmtRate, median, perSecond, runConcurrent, table, timed, loadAverage, ratio } from './support/measure';
import { priceBook, seedPolledUsers, seedSignals, ALERTS_PER_USER, TRADES_PER_USER } from './support/polled-data';
import { formatProfile, profiled, summariseProfile } from './support/cpu-profile';

// ---- fixed counts ----
const CONCURRENCY = 32;
const USER_COUNTS = process.env.BENCH_USERS ? process.env.BENCH_USERS.split(',').map(Number) : [100, 10_000];
const ACTIVE_USERS = 100; // the users the user-scoped rows are read for, round-robin, at every user count
const envCount = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const WARMUP = envCount('BENCH_WARMUP', 1_000); // requests per row, untimed
const REPS = envCount('BENCH_REPS', 5);
const REQUESTS_PER_REP = envCount('BENCH_REQUESTS', 4_000);
const PROFILE_REQUESTS = envCount('BENCH_PROFILE_REQUESTS', 2_000);
const CPU_PROF = process.argv.includes('--cpu-prof');
const ROW_FILTER = process.env.BENCH_ROWS?.split(',').map((w) => w.trim()).filter(Boolean);

const log = (line = '') => process.stdout.write(`${line}\n`);

interface RowSpec {
  label: string;
  path: string;
  /** Whose token: none (public), the active users, or every user. */
  who: 'none' | 'active' | 'all';
  /** Asked again as a browser that kept the answer asks (If-None-Match with its ETag): each answer a 304. */
  revalidate?: boolean;
}

const POLLED: RowSpec[] = [
  { label: 'GET /api/auth/me', path: '/api/auth/me', who: 'active' },
  { label: 'GET /api/portfolio', path: '/api/portfolio', who: 'active' },
  { label: 'GET /api/trades', path: '/api/trades', who: 'active' },
  { label: 'GET /api/risk', path: '/api/risk', who: 'active' },
  { label: 'GET /api/risk/alerts', path: '/api/risk/alerts', who: 'active' },
  { label: 'GET /api/risk/active-trades', path: '/api/risk/active-trades', who: 'active' },
  { label: 'GET /api/signals', path: '/api/signals', who: 'active' },
  { label: 'GET /api/signals?symbol=BTC', path: '/api/signals?symbol=BTC', who: 'active' },
  // The dashboard's browser keeps a signals answer (no-cache, ETag) and polls with If-None-Match.
  { label: 'GET /api/signals revalidated (304)', path: '/api/signals', who: 'active', revalidate: true },
  { label: 'GET /api/signals?symbol=BTC revalidated (304)', path: '/api/signals?symbol=BTC', who: 'active', revalidate: true },
  { label: 'GET /api/indicators', path: '/api/indicators', who: 'active' },
  { label: 'GET /api/indicators?symbol=BTC', path: '/api/indicators?symbol=BTC', who: 'active' },
  { label: 'GET /api/price', path: '/api/price', who: 'active' },
  { label: 'GET /api/price?symbol=BTC', path: '/api/price?symbol=BTC', who: 'active' },
];
const ALL_USERS: RowSpec[] = [
  { label: 'GET /api/auth/me', path: '/api/auth/me', who: 'all' },
  { label: 'GET /api/portfolio', path: '/api/portfolio', who: 'all' },
  { label: 'GET /api/trades', path: '/api/trades', who: 'all' },
];

interface Row {
  label: string;
  rates: number[];
  /** CPU of this process over the timed requests, ms, and how many requests. */
  cpuMs: number;
  requests: number;
}

async function main(): Promise<void> {
  const runStart = performance.now();
  log('query bench (embedded app in this process: PGlite, in-process bus)');
  log(`  client : node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log(`  method : ${CONCURRENCY} in flight, warm-up ${fmtCount(WARMUP)} per row, ${REPS} reps of ${fmtCount(REQUESTS_PER_REP)} requests, order alternated`);
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
  const { eventStore } = harness.rt.infra;
  const userIds: string[] = [];
  const results: Array<{ users: number; rows: Row[] }> = [];
  const book = await priceBook(harness.rt.marketData);
  const signals = await seedSignals(eventStore, harness.rt.marketData, Date.now());

  for (const users of USER_COUNTS) {
    const seed = await timed(async () => {
      const fresh = await seedPolledUsers(eventStore, book, { from: userIds.length, count: users - userIds.length, premium: (n) => n < ACTIVE_USERS || n % 2 === 0, nowMs: Date.now() });
      userIds.push(...fresh);
      await harness.projector.caughtUp();
    });
    const active = userIds.slice(0, ACTIVE_USERS).map((id) => tokens.issue(id));
    log(`${fmtCount(users)} users in the read models, each with ${TRADES_PER_USER} trades and ${ALERTS_PER_USER} alerts; ${fmtCount(signals)} signals (seeded and projected in ${fmtMs(seed.ms)})`);
    await sanity(harness, active[0]!);

    // A keep-alive pool per round, made after seeding: a socket the server closed while idle is never reused.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    // Tokens for every user, made before timing (signing is not what is measured).
    const all = users > ACTIVE_USERS ? userIds.map((id) => tokens.issue(id)) : [];
    const plansRow: RowSpec = { label: 'GET /api/plans (public)', path: '/api/plans', who: 'none' };
    const sideOf = (spec: RowSpec) => ({
      label: spec.who === 'all' ? `${spec.label}, all ${fmtCount(all.length)} users round-robin` : spec.who === 'active' ? `${spec.label}, ${fmtCount(active.length)} users round-robin` : spec.label,
      op: get(agent, harness.url, spec.path, spec.who === 'none' ? undefined : spec.who === 'all' ? all : active, spec.revalidate ? etags.get(spec.path) : undefined),
    });
    // The ETags the revalidated rows send (the answers do not change during the timing: no signal is appended).
    const etags = new Map<string, string>();
    for (const spec of POLLED.filter((r) => r.revalidate)) {
      const res = await harness.request('GET', spec.path, { token: active[0]! });
      const etag = res.headers.get('etag');
      if (res.status !== 200 || !etag) throw new Error(`GET ${spec.path} gave no ETag (${res.status})`);
      etags.set(spec.path, etag);
    }
    const chosen = (specs: RowSpec[]) => specs.filter((spec) => !ROW_FILTER || ROW_FILTER.some((w) => spec.path.includes(w)));
    // The rows over every user come in a phase of their own, with plans again: their misses fill the
    // process's caches with other users' reads, which must not count against the 100 users' rows.
    const phases = [[plansRow, ...chosen(POLLED)], ...(all.length > 0 && chosen(ALL_USERS).length > 0 ? [[plansRow, ...chosen(ALL_USERS)]] : [])];
    for (const [phase, specs] of phases.entries()) {
      const rows = await measure(specs.map(sideOf), users, phase);
      results.push({ users, rows });
    }
    agent.destroy();
    log();
  }

  const tableRows: string[][] = [];
  for (const { users, rows } of results) {
    // Each phase's rows against the plans of the same phase.
    const plans = rows[0]!;
    const plansCpu = plans.cpuMs / plans.requests;
    for (const row of rows) {
      const m = median(row.rates);
      const cpu = row.cpuMs / row.requests;
      tableRows.push([
        `${fmtCount(users)} users: ${row.label}${row === plans && rows !== results.find((r) => r.users === users)!.rows ? ' (again, for the rows below)' : ''}`,
        fmtRate(m),
        fmtRate(Math.min(...row.rates)),
        fmtRate(Math.max(...row.rates)),
        row === plans ? '' : ratio(m, median(plans.rates)),
        `${Math.round(cpu * 1000)} µs`,
        row === plans ? '' : ratio(plansCpu, cpu),
      ]);
    }
  }
  log(table(['measure', 'median', 'min', 'max', 'vs plans', 'CPU/request', 'plans CPU / CPU'], tableRows));
  log();
  for (const { users, rows } of results) {
    const plans = median(rows[0]!.rates);
    const worst = rows.slice(1).reduce((w, r) => (median(r.rates) < median(w.rates) ? r : w), rows[1] ?? rows[0]!);
    log(`${fmtCount(users).padStart(6)} users: slowest row ${worst.label} = ${ratio(median(worst.rates), plans)} of GET /api/plans`);
  }
}

/** Warm-up, then REPS alternated reps of every side, then (with --cpu-prof) a profile of each; the rows in order. */
async function measure(sides: Array<{ label: string; op: (i: number) => Promise<void> }>, users: number, phase: number): Promise<Row[]> {
  for (const side of sides) await runConcurrent(WARMUP, CONCURRENCY, side.op);
  const rows: Row[] = sides.map((s) => ({ label: s.label, rates: [], cpuMs: 0, requests: 0 }));
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const i of order) {
      const cpu0 = process.cpuUsage();
      const ms = await runConcurrent(REQUESTS_PER_REP, CONCURRENCY, sides[i]!.op);
      const cpu = process.cpuUsage(cpu0);
      const row = rows[i]!;
      row.rates.push(perSecond(REQUESTS_PER_REP, ms));
      row.cpuMs += (cpu.user + cpu.system) / 1000;
      row.requests += REQUESTS_PER_REP;
    }
    log(`  ${phase > 0 ? 'every user, ' : ''}rep ${rep + 1}: ${rows.map((r) => fmtRate(r.rates.at(-1)!)).join(', ')} (load average ${loadAverage()})`);
  }
  if (CPU_PROF) {
    for (const side of phase > 0 ? sides.slice(1) : sides) {
      const { profile } = await profiled(() => runConcurrent(PROFILE_REQUESTS, CONCURRENCY, side.op));
      const summary = summariseProfile(profile);
      log(`  CPU profile, ${fmtCount(users)} users, ${side.label}: ${fmtCount(PROFILE_REQUESTS)} requests, ${(summary.totalUs / 1000).toFixed(0)} ms sampled (${(summary.totalUs / PROFILE_REQUESTS).toFixed(0)} µs a request, client included)`);
      log(formatProfile(summary, { packages: 12, functions: 25, inclusive: 15 }));
    }
  }
  return rows;
}

/** What the first active user's reads hold: the bench reads what it says it reads. */
async function sanity(harness: Harness, token: string): Promise<void> {
  const read = async (path: string) => {
    const res = await harness.request('GET', path, { token });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const [portfolio, trades, alerts, active, signals] = await Promise.all([
    read('/api/portfolio'),
    read('/api/trades'),
    read('/api/risk/alerts'),
    read('/api/risk/active-trades'),
    read('/api/signals'),
  ]);
  log(
    `  first user: ${portfolio.positions.length} positions, ${trades.total} trades (page of ${trades.trades.length}), ` +
      `${alerts.alerts.length} alerts (${alerts.unacknowledged} unacknowledged), ${active.trades.length} active trades; ${signals.total} signals listed`,
  );
}

/**
 * An op for runConcurrent: GET `path`, with the i-th token of `bearer` round-robin when given. Plain
 * node:http rather than fetch: the client shares this process with the app, and the lighter it is,
 * the less it blurs the difference between the two routes.
 */
function get(agent: http.Agent, base: string, path: string, bearer?: string[], etag?: string) {
  const url = new URL(path, base);
  const target = url.pathname + url.search;
  const expected = etag ? 304 : 200;
  return (i: number) =>
    new Promise<void>((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = bearer ? { authorization: `Bearer ${bearer[i % bearer.length]!}` } : {};
      if (etag) headers['if-none-match'] = etag;
      const req = http.get({ agent, host: url.hostname, port: url.port, path: target, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode === expected) resolve();
          else reject(new Error(`GET ${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
        });
      });
      req.on('error', reject);
    });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
