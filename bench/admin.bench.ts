/**
 * Admin list bench: `npm run bench:admin`.
 *
 * GET /api/admin/users over HTTP on the embedded app (PGlite read models, as `npm start`), as an
 * admin, with 10,000 and then 100,000 users in the users read model. Measured per size, one request
 * at a time (a person paging, not a load test), p50 and p95 of:
 *   - search (narrow): q = an email prefix that matches 11 users at either size
 *   - search (name): q = a last-name prefix; its matches grow with the users (1 in 400)
 *   - page 1: the newest 20 users, no filter
 *   - page 50: 20 users after skipping 980
 * and the ratio 100k / 10k: near 1x means the cost does not grow with the users (indexed range and
 * sort), 10x would be a scan. The stats call is measured the same way.
 *
 * Users are seeded as users read-model documents written straight to the store (no events, no
 * scrypt: the bench is about the read path), with the admin-stats counters document to match.
 * Fixed counts, an untimed warm-up, nothing asserted.
 */
import os from 'node:os';
import { encodePosition } from '@papertrade/platform/event-store/position';
import { ADMIN_STATS_ID, ADMIN_STATS_PROJECTION, type AdminStatsView } from '@papertrade/domain/admin/admin-stats-view';
import { USERS_PROJECTION, evolveUserView, type UserView } from '@papertrade/domain/auth/user-view';
import { startHarness, type Harness } from '../test/api-harness';
import { fmtCount, fmtMs, loadAverage, ratio, table } from './support/measure';

const SIZES = [10_000, 100_000];
const WARMUP = 50;
const SAMPLES = 120;
const SEED_CHUNK = 2_000;
const LAST_NAMES = 400;

const log = (line = '') => process.stdout.write(`${line}\n`);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function userDoc(i: number): UserView {
  // Spread over about two years so the createdAt order is not the insertion order.
  const registeredAt = new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % 63_000_000) * 1000).toISOString();
  const doc = evolveUserView(null, {
    type: 'UserRegistered',
    data: {
      userId: `bench-${i}`,
      email: `user${i}@bench.example.com`,
      username: `user_${i}`,
      firstName: `First${i % 97}`,
      lastName: `Lastname${String(i % LAST_NAMES).padStart(3, '0')}`,
      passwordHash: 'x',
      registeredAt,
    },
  });
  return doc!;
}

async function seed(h: Harness, from: number, to: number): Promise<void> {
  const users = await h.rt.infra.readModels.collection<UserView>(USERS_PROJECTION);
  for (let start = from; start < to; start += SEED_CHUNK) {
    const items = [];
    for (let i = start; i < Math.min(to, start + SEED_CHUNK); i++) items.push({ id: `bench-${i}`, doc: userDoc(i), position: encodePosition(1, i) });
    await users.putManyIfNewer(items);
  }
  const stats = await h.rt.infra.readModels.collection<AdminStatsView>(ADMIN_STATS_PROJECTION);
  const current = await stats.get(ADMIN_STATS_ID);
  await stats.put(ADMIN_STATS_ID, { ...(current ?? { premiumUsers: 0, activeSubscriptions: 0, createdByMonth: {} }), totalUsers: (current?.totalUsers ?? 0) + (to - from) });
}

async function measure(h: Harness, token: string, path: string): Promise<{ p50: number; p95: number; total: string }> {
  let total = '';
  const once = async () => {
    const started = performance.now();
    const res = await fetch(h.url + path, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    total = res.headers.get('x-total-count') ?? '';
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await once());
  return { p50: percentile(times, 50), p95: percentile(times, 95), total };
}

async function main(): Promise<void> {
  const runStart = performance.now();
  log('admin list bench (embedded app: PGlite read models, HTTP, one request at a time)');
  log(`  client : node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  log(`  method : ${WARMUP} warm-up, ${SAMPLES} samples per row, p50 / p95`);
  log();
  const h = await startHarness();
  try {
    const admin = await h.admin();
    await h.projector.caughtUp();
    const token = admin.token;
    const rows: Array<{ label: string; bySize: Array<{ p50: number; p95: number; total: string }> }> = [
      { label: 'search narrow (q=user1234)', bySize: [] },
      { label: 'search name (q=lastname123)', bySize: [] },
      { label: 'page 1 (newest 20)', bySize: [] },
      { label: 'page 50 (skip 980)', bySize: [] },
      { label: 'stats', bySize: [] },
    ];
    const paths = ['/api/admin/users?q=user1234', '/api/admin/users?q=lastname123', '/api/admin/users?page=1', '/api/admin/users?page=50', '/api/admin/stats'];
    let seeded = 0;
    for (const size of SIZES) {
      const t = performance.now();
      await seed(h, seeded, size);
      seeded = size;
      log(`seeded ${fmtCount(size)} users (${fmtMs(performance.now() - t)})`);
      for (const [i, path] of paths.entries()) rows[i]!.bySize.push(await measure(h, token, path));
    }
    log();
    log(
      table(
        ['request', ...SIZES.flatMap((s) => [`${s / 1000}k p50`, `${s / 1000}k p95`, `${s / 1000}k matches`]), 'p50 ratio', 'p95 ratio'],
        rows.map((r) => [
          r.label,
          ...r.bySize.flatMap((m) => [fmtMs(m.p50), fmtMs(m.p95), m.total || '-']),
          ratio(r.bySize[1]!.p50, r.bySize[0]!.p50),
          ratio(r.bySize[1]!.p95, r.bySize[0]!.p95),
        ]),
      ),
    );
  } finally {
    await h.stop();
  }
  log();
  log(`whole run ${fmtMs(performance.now() - runStart)}, load average now ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
