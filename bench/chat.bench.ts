/**
 * AI chat bench on the embedded app: `npm run bench:chat` (issue 20).
 *
 * The embedded app (PGlite, in-process bus, projector) runs in this process on a copy of the PGlite
 * template (test/api-harness.ts) with the grounded assistant (no CHAT_API_URL), driven over HTTP by
 * 50 users at once: each of 50 virtual users keeps one request in flight and asks the next as soon as
 * the last is answered. Measured side by side in the same run, in alternated repetitions:
 *   - `POST /api/ai-chat`: a rotation of questions over every intent that needs no backtest (the
 *     portfolio, P&L, positions with their levels, trades and why, refusals, statistics, the bot, a
 *     coin's signal, indicators and price, the risk profile and status, alerts, the subscription, the
 *     model, a definition, help, an unknown question), each user asking about their own data;
 *   - `GET /api/portfolio` for the same users: the plain read the chat is compared with.
 * Each request's latency is recorded (client to client, in this process); p50 and p99 per repetition,
 * then the median over repetitions. The chat's latencies are also split by intent (p50 and p99
 * within each repetition, the median over repetitions). The goal (issue 20): p99 under 100 ms for these questions.
 *
 * What-ifs ("what if my stop loss were 3% over the last 30 days?") run two backtests on query-api's
 * worker thread: reported apart, after the rows, one question at a time (WHAT_IF_REPS, default 5, for
 * each of 7 and 30 days; the first of each size is the cold one, the path not yet read, and is printed
 * beside the median of the warm ones) and then WHAT_IF_AT_ONCE (default 10) users asking a 7-day one at
 * once (they queue on the one thread).
 *
 * The users' data is bench:query's (bench/support/polled-data.ts: 30 trades over ten days with 3
 * positions open, changed bot settings and 4 alerts, every coin's signals of the last day), all 100
 * users Premium. The chat's per-user rate limit (CHAT_MAX_PER_USER, 20 a minute) is lifted for the run:
 * the bench measures the answer, not the limiter's refusals. Nothing is asserted.
 *
 * Options: BENCH_REPS, BENCH_REQUESTS (per row and repetition), BENCH_WARMUP; `-- --cpu-prof` profiles
 * BENCH_PROFILE_REQUESTS (2,000) more requests of each row after the timed ones (self time by package
 * and function).
 */
import http from 'node:http';
import os from 'node:os';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { startHarness, type Harness } from '../test/api-harness';
import { fmtCount, fmtMs, fmtRate, loadAverage, median, perSecond, table, timed } from './support/measure';
import { formatProfile, profiled, summariseProfile } from './support/cpu-profile';
import { priceBook, seedPolledUsers, seedSignals, ALERTS_PER_USER, TRADES_PER_USER } from './support/polled-data';

const USERS_AT_ONCE = 50;
const SEEDED_USERS = 100;
const envCount = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const WARMUP = envCount('BENCH_WARMUP', 500);
const REPS = envCount('BENCH_REPS', 5);
const REQUESTS_PER_REP = envCount('BENCH_REQUESTS', 2_000);
const PROFILE_REQUESTS = envCount('BENCH_PROFILE_REQUESTS', 2_000);
const CPU_PROF = process.argv.includes('--cpu-prof');

/** Questions that need no backtest, one or more per intent (the intent the answer names is recorded). */
const QUESTIONS = [
  'How is my portfolio doing?',
  'What is my P&L today?',
  'What is my total profit overall?',
  'What are my open positions?',
  'Show my recent trades',
  'Why did I buy ETH?',
  "Why didn't the bot buy SOL?",
  "What's my win rate?",
  'Is my bot running?',
  'What is the signal for BTC?',
  'What is the RSI of ETH?',
  'What is the price of solana?',
  'What are my risk settings?',
  'How much of my daily loss limit have I used?',
  'Do I have any alerts?',
  'What plan am I on?',
  'How accurate is the model?',
  'What is a trailing stop?',
  'help',
  'What is the weather like?',
];

const log = (line = '') => process.stdout.write(`${line}\n`);

interface Sample {
  ms: number;
  intent: string;
}

interface Side {
  label: string;
  op: (i: number) => Promise<Sample>;
}

interface Row {
  label: string;
  p50: number[];
  p99: number[];
  rates: number[];
  /** Each repetition's samples. */
  reps: Sample[][];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `total` ops with `concurrency` in flight (op i goes to virtual user i % concurrency); every sample and the wall time. */
async function runLatencies(total: number, concurrency: number, op: (i: number) => Promise<Sample>): Promise<{ samples: Sample[]; ms: number }> {
  const samples: Sample[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) samples.push(await op(i));
    }),
  );
  return { samples, ms: performance.now() - start };
}

async function main(): Promise<void> {
  const runStart = performance.now();
  log('chat bench (embedded app in this process: PGlite, in-process bus, the grounded assistant)');
  log(`  client : node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log(`  method : ${USERS_AT_ONCE} users at once (one request in flight each), warm-up ${fmtCount(WARMUP)} per row, ${REPS} reps of ${fmtCount(REQUESTS_PER_REP)} requests per row, order alternated`);
  log();
  const harness = await startHarness({ CHAT_MAX_PER_USER: String(2 ** 30) });
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
  const seed = await timed(async () => {
    const book = await priceBook(harness.rt.marketData);
    const signals = await seedSignals(eventStore, harness.rt.marketData, Date.now());
    const ids = await seedPolledUsers(eventStore, book, { from: 0, count: SEEDED_USERS, premium: () => true, nowMs: Date.now() });
    await harness.projector.caughtUp();
    return { ids, signals };
  });
  const users = seed.result.ids.slice(0, USERS_AT_ONCE).map((id) => tokens.issue(id));
  log(`${fmtCount(SEEDED_USERS)} Premium users in the read models, each with ${TRADES_PER_USER} trades and ${ALERTS_PER_USER} alerts; ${fmtCount(seed.result.signals)} signals (seeded and projected in ${fmtMs(seed.ms)})`);
  await sanity(harness, users[0]!);

  const agent = new http.Agent({ keepAlive: true, maxSockets: USERS_AT_ONCE });
  const sides: Side[] = [
    { label: 'GET /api/portfolio', op: request(agent, harness.url, 'GET', '/api/portfolio', users, () => undefined) },
    { label: 'POST /api/ai-chat (grounded, no backtest)', op: request(agent, harness.url, 'POST', '/api/ai-chat', users, (i) => ({ message: QUESTIONS[i % QUESTIONS.length]! })) },
  ];
  for (const side of sides) await runLatencies(WARMUP, USERS_AT_ONCE, side.op);
  const rows: Row[] = sides.map((s) => ({ label: s.label, p50: [], p99: [], rates: [], reps: [] }));
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const i of order) {
      const { samples, ms } = await runLatencies(REQUESTS_PER_REP, USERS_AT_ONCE, sides[i]!.op);
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      const row = rows[i]!;
      row.p50.push(percentile(sorted, 50));
      row.p99.push(percentile(sorted, 99));
      row.rates.push(perSecond(REQUESTS_PER_REP, ms));
      row.reps.push(samples);
    }
    log(`  rep ${rep + 1}: ${rows.map((r) => `${r.label} p50 ${fmtMs(r.p50.at(-1)!)} p99 ${fmtMs(r.p99.at(-1)!)}`).join('; ')} (load average ${loadAverage()})`);
  }
  if (CPU_PROF) {
    for (const side of sides) {
      const { profile } = await profiled(() => runLatencies(PROFILE_REQUESTS, USERS_AT_ONCE, side.op));
      const summary = summariseProfile(profile);
      log(`  CPU profile, ${side.label}: ${fmtCount(PROFILE_REQUESTS)} requests, ${(summary.totalUs / PROFILE_REQUESTS).toFixed(0)} µs a request (client included)`);
      log(formatProfile(summary, { packages: 12, functions: 30, inclusive: 20 }));
    }
  }
  agent.destroy();
  log();

  const [portfolio, chat] = rows as [Row, Row];
  log(
    table(
      ['measure', 'p50', 'p99', 'requests/s', 'p50 vs portfolio', 'p99 vs portfolio'],
      rows.map((r) => [r.label, fmtMs(median(r.p50)), fmtMs(median(r.p99)), fmtRate(median(r.rates)), r === portfolio ? '' : `${(median(r.p50) / median(portfolio.p50)).toFixed(2)}x`, r === portfolio ? '' : `${(median(r.p99) / median(portfolio.p99)).toFixed(2)}x`]),
    ),
  );
  log();
  // Per intent as for the rows: p50 and p99 within each repetition, then the median over repetitions.
  const byIntent = new Map<string, { p50: number[]; p99: number[]; answers: number }>();
  for (const samples of chat.reps) {
    const groups = new Map<string, number[]>();
    for (const s of samples) groups.set(s.intent, [...(groups.get(s.intent) ?? []), s.ms]);
    for (const [intent, ms] of groups) {
      const sorted = ms.sort((a, b) => a - b);
      const entry = byIntent.get(intent) ?? { p50: [], p99: [], answers: 0 };
      entry.p50.push(percentile(sorted, 50));
      entry.p99.push(percentile(sorted, 99));
      entry.answers += sorted.length;
      byIntent.set(intent, entry);
    }
  }
  log('POST /api/ai-chat by intent (p50 and p99 within each repetition, median over repetitions):');
  log(
    table(
      ['intent', 'answers', 'p50', 'p99'],
      [...byIntent.entries()]
        .sort((a, b) => median(b[1].p99) - median(a[1].p99))
        .map(([intent, e]) => [intent, fmtCount(e.answers), fmtMs(median(e.p50)), fmtMs(median(e.p99))]),
    ),
  );
  log();
  log(`goal: p99 of the grounded answers under 100 ms with ${USERS_AT_ONCE} users asking at once: ${median(chat.p99) < 100 ? 'met' : 'not met'} (p99 ${fmtMs(median(chat.p99))}).`);
  log();
  await whatIfs(harness, users);
}

/** The what-ifs apart: each is two backtests of the house signals on one coin, on query-api's worker thread. */
async function whatIfs(harness: Harness, users: string[]): Promise<void> {
  const reps = envCount('WHAT_IF_REPS', 5);
  const atOnce = envCount('WHAT_IF_AT_ONCE', 10);
  const ask = async (token: string, message: string) => {
    const t0 = performance.now();
    const res = await harness.request('POST', '/api/ai-chat', { token, body: { message } });
    const ms = performance.now() - t0;
    const body = res.body as { intent?: string; facts?: unknown[] };
    if (res.status !== 200 || body.intent !== 'what_if' || !body.facts?.length) throw new Error(`what-if answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return ms;
  };
  const rows: string[][] = [];
  for (const [days, coin] of [[7, 'BTC'], [30, 'ETH']] as const) {
    const times: number[] = [];
    for (let i = 0; i < reps; i++) times.push(await ask(users[i % users.length]!, `What if my stop loss were ${3 + (i % 3)}% over the last ${days} days on ${coin}?`));
    rows.push([`${days} days of ${coin}, one at a time`, fmtCount(reps), fmtMs(times[0]!), fmtMs(median(times.slice(1)))]);
  }
  const t0 = performance.now();
  const together = await Promise.all(users.slice(0, atOnce).map((token, i) => ask(token, `What if my position size were ${5 + i}% over the last 7 days on SOL?`)));
  const sorted = [...together].sort((a, b) => a - b);
  rows.push([`7 days of SOL, ${atOnce} users at once`, fmtCount(atOnce), `slowest ${fmtMs(sorted.at(-1)!)}`, `median ${fmtMs(median(sorted))} (all in ${fmtMs(performance.now() - t0)})`]);
  log('what-ifs (two backtests each on query-api\u2019s worker thread), apart from the rows:');
  log(table(['what-if', 'answers', 'first (cold) / slowest', 'median of the rest'], rows));
}

/** What the first user's chat answers hold: the bench times what it says it times. */
async function sanity(harness: Harness, token: string): Promise<void> {
  const ask = async (message: string) => {
    const res = await harness.request('POST', '/api/ai-chat', { token, body: { message } });
    if (res.status !== 200) throw new Error(`POST /api/ai-chat answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as { response: string; intent: string; facts: unknown[] };
  };
  const positions = await ask('What are my open positions?');
  const trades = await ask('Show my recent trades');
  log(`  first user: positions answer (${positions.facts.length} facts) "${positions.response.split('\n')[0]}"; trades answer ${trades.facts.length} facts`);
}

/**
 * An op: `method path` with the i-th virtual user's token (i % tokens), and for a POST the body for
 * i; resolves with the latency and the chat's intent. Plain node:http: the client shares this process
 * with the app, and the lighter it is, the less it blurs the difference between the two routes.
 */
function request(agent: http.Agent, base: string, method: 'GET' | 'POST', path: string, tokens: string[], body: (i: number) => unknown) {
  const url = new URL(path, base);
  return (i: number) =>
    new Promise<Sample>((resolve, reject) => {
      const payload = body(i);
      const text = payload === undefined ? undefined : JSON.stringify(payload);
      const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${tokens[i % tokens.length]!}`, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) };
      const start = performance.now();
      const req = http.request({ agent, method, host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - start;
          const answer = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`${method} ${path} answered ${res.statusCode}: ${answer}`));
          resolve({ ms, intent: method === 'POST' ? String((JSON.parse(answer) as { intent: unknown }).intent) : 'read' });
        });
      });
      req.on('error', reject);
      req.end(text);
    });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
