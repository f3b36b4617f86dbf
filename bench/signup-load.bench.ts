/**
 * Sign-up load bench on the embedded app: `npm run bench:signup`.
 *
 * Do sign-ups starve everyone else? The embedded app (PGlite event store and read models, in-process
 * bus, projector) runs in this process on a copy of the PGlite template (test/api-harness.ts). A
 * probe sends `GET /api/plans` (public, a constant body: nothing to wait for but the event loop) one
 * at a time and records each latency:
 *   - idle: the baseline, nothing else running;
 *   - load: while `SIGNUPS` real sign-ups (`POST /api/auth/signup`: scrypt, reservations, appends)
 *     are all sent at once, until the last one has answered.
 * It prints p50, p95 and max of both, the ratios load / idle, the event loop's delay during the load
 * (perf_hooks.monitorEventLoopDelay), and how long the sign-ups took. The projector applies the new
 * users during the load, as it would in production; it catches up (untimed) before the next rep.
 *
 * The probe and the 200 sign-up clients share the process with the app (plain node:http, as light
 * as it gets); the client's own work counts against the app, equally in both phases of a rep only
 * for the probe. Fixed counts, an untimed warm-up, reps alternating idle and load, medians of the
 * per-rep percentiles. Nothing is asserted.
 */
import http from 'node:http';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startHarness, type Harness } from '../test/api-harness';
import { fmtCount, fmtMs, loadAverage, median, ratio, table } from './support/measure';

// ---- fixed counts ----
const SIGNUPS = 200;
const REPS = 3;
const IDLE_PROBES = 400; // per rep
const WARMUP_PROBES = 200;
const WARMUP_SIGNUPS = 10;

const log = (line = '') => process.stdout.write(`${line}\n`);

interface Phase {
  latencies: number[];
}

interface Rep {
  idle: Phase;
  load: Phase & { signupMs: number; loopP99: number; loopMax: number };
}

async function main(): Promise<void> {
  const runStart = performance.now();
  log('sign-up load bench (embedded app in this process: PGlite, in-process bus, projector)');
  log(`  client : node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '(default 4)'}`);
  log(`  load   : ${loadAverage()} (uptime load average before the run)`);
  log(`  method : GET /api/plans one at a time; idle ${IDLE_PROBES} probes, then as many as fit while ${SIGNUPS} sign-ups run at once; ${REPS} reps`);
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
  // Keep-alive pools made per phase: a socket the server closed while idle (5 s) is never reused.
  let probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let signupAgent = new http.Agent({ keepAlive: true, maxSockets: SIGNUPS });
  const fresh = () => {
    probeAgent.destroy();
    signupAgent.destroy();
    probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    signupAgent = new http.Agent({ keepAlive: true, maxSockets: SIGNUPS });
  };
  const plans = () => request(probeAgent, harness.url, 'GET', '/api/plans', 200);
  const signup = (tag: string) => {
    const id = `${tag}${randomUUID().slice(0, 8)}`;
    const body = { email: `load.${id}@example.com`, username: `load_${id}`, password: 'secret12', confirmPassword: 'secret12' };
    return request(signupAgent, harness.url, 'POST', '/api/auth/signup', 201, body);
  };

  for (let i = 0; i < WARMUP_PROBES; i++) await plans();
  await Promise.all(Array.from({ length: WARMUP_SIGNUPS }, () => signup('w')));
  await harness.projector.caughtUp();

  const reps: Rep[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    fresh();
    const idle: Phase = { latencies: [] };
    for (let i = 0; i < IDLE_PROBES; i++) idle.latencies.push(await probe(plans));

    fresh();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const latencies: number[] = [];
    let done = false;
    const start = performance.now();
    loop.enable();
    const signups = Promise.all(Array.from({ length: SIGNUPS }, (_, i) => signup(`r${rep}i${i}`))).finally(() => (done = true));
    while (!done) latencies.push(await probe(plans));
    await signups;
    const signupMs = performance.now() - start;
    loop.disable();
    reps.push({ idle, load: { latencies, signupMs, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 } });
    await harness.projector.caughtUp();

    const [i50, i95] = [percentile(idle.latencies, 50), percentile(idle.latencies, 95)];
    const [l50, l95] = [percentile(latencies, 50), percentile(latencies, 95)];
    const last = reps.at(-1)!.load;
    log(
      `  rep ${rep + 1}: idle p50 ${fmtMs(i50)} p95 ${fmtMs(i95)}; during ${SIGNUPS} sign-ups (${fmtMs(signupMs)}, ${fmtCount(latencies.length)} probes) p50 ${fmtMs(l50)} p95 ${fmtMs(l95)} p99 ${fmtMs(percentile(latencies, 99))} max ${fmtMs(Math.max(...latencies))}; event loop delay p99 ${fmtMs(last.loopP99)} max ${fmtMs(last.loopMax)}`,
    );
  }
  probeAgent.destroy();
  signupAgent.destroy();

  const med = (f: (r: Rep) => number) => median(reps.map(f));
  const idle50 = med((r) => percentile(r.idle.latencies, 50));
  const idle95 = med((r) => percentile(r.idle.latencies, 95));
  const load50 = med((r) => percentile(r.load.latencies, 50));
  const load95 = med((r) => percentile(r.load.latencies, 95));
  const idle99 = med((r) => percentile(r.idle.latencies, 99));
  const load99 = med((r) => percentile(r.load.latencies, 99));
  const loadMax = med((r) => Math.max(...r.load.latencies));
  log();
  log(
    table(
      ['GET /api/plans', 'p50', 'p95', 'p99', 'max'],
      [
        ['idle (baseline)', fmtMs(idle50), fmtMs(idle95), fmtMs(idle99), fmtMs(med((r) => Math.max(...r.idle.latencies)))],
        [`during ${SIGNUPS} concurrent sign-ups`, fmtMs(load50), fmtMs(load95), fmtMs(load99), fmtMs(loadMax)],
        ['load / idle', ratio(load50, idle50), ratio(load95, idle95), ratio(load99, idle99), ''],
      ],
    ),
  );
  log();
  log(`event loop delay during the sign-ups: p99 ${fmtMs(med((r) => r.load.loopP99))}, max ${fmtMs(med((r) => r.load.loopMax))} (medians over reps)`);
  log(`${SIGNUPS} sign-ups took ${fmtMs(med((r) => r.load.signupMs))} (median), ${Math.round((SIGNUPS * 1000) / med((r) => r.load.signupMs))}/s`);
  log(`GET /api/plans p95 during sign-ups / idle = ${ratio(load95, idle95)}`);
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function probe(op: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await op();
  return performance.now() - start;
}

/** One request over `agent`; rejects unless it answers `expected`. */
function request(agent: http.Agent, base: string, method: string, path: string, expected: number, body?: unknown): Promise<void> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<void>((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {};
    const req = http.request({ agent, method, host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode === expected) resolve();
        else reject(new Error(`${method} ${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
