/**
 * Real-time bench: `npm run bench:realtime`. Latency from a tick published on the bus to the
 * MARKET_UPDATE arriving at a WebSocket client, through the relay (query-api/src/realtime/relay.ts)
 * with its default settings (throttle MARKET_UPDATE_INTERVAL_MS, heartbeats, queue limits).
 *
 * Modes: embedded (in-process bus) and NATS (the relay subscribes on one NATS connection, the bench
 * publishes on another, through the NATS server at TEST_NATS_URL or 127.0.0.1:4222, a unique subject
 * prefix; skipped with a note when NATS is not reachable). Each with 1 and with 200 sockets.
 *
 * Method: the relay and its HTTP server run in this process, the clients (`ws`) in a child process
 * (bench/support/realtime-clients.ts), so like browsers they do not share the relay's event loop
 * (on a 2-core machine they still share the CPUs). Latency is measured per (tick, socket): arrival
 * time in the client's 'message' handler minus the time just before `bus.publish`, both read from
 * the system's monotonic clock (`process.hrtime`, the same in both processes). Each tick's price
 * carries its sequence number.
 *   - steady: TICKS ticks, one every SPACING_MS, round-robin over the ten coins, so each coin ticks
 *     every 10 x SPACING_MS, slower than the throttle interval: every tick goes out at once (the
 *     throttle's leading edge) and the throttle adds nothing. This is the real feed's pattern (a
 *     tick per coin every 5 s).
 *   - burst: BURST_TICKS ticks, one every BURST_SPACING_MS over the ten coins (each coin every
 *     10 x BURST_SPACING_MS, much faster than the throttle): the relay coalesces, so only some
 *     ticks are delivered, each delayed by up to the throttle interval. Shown to say what the
 *     throttle costs when it acts: the latency of the ticks that are delivered, and how many are.
 * An untimed warm-up of WARMUP_TICKS precedes each measurement. Nothing is asserted.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { coinIds } from '@papertrade/domain/market/coins';
import { marketTickSubject } from '@papertrade/domain/market/contracts';
import type { Bus } from '@papertrade/platform/bus/bus';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { NatsBus } from '@papertrade/platform/bus/nats-bus';
import { silentLogger } from '@papertrade/platform/config/logger';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { ACCOUNT_GONE } from '@papertrade/platform/auth/guards';
import { RealtimeRelay } from '../query-api/src/realtime/relay';
import { MARKET_UPDATE_INTERVAL_MS } from '../query-api/src/realtime/market-throttle';
import { tick } from '../query-api/src/realtime/relay-test-client';
import { fmtCount, fmtMs, loadAverage, table } from './support/measure';

// ---- fixed counts ----
const SOCKET_COUNTS = [1, 200];
const TICKS = 1_000;
const SPACING_MS = 30; // each coin every 300 ms > the 250 ms throttle interval
const BURST_TICKS = 1_000;
const BURST_SPACING_MS = 2; // each coin every 20 ms: coalesced
const WARMUP_TICKS = 100;
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const log = (line = '') => process.stdout.write(`${line}\n`);
/** The system's monotonic clock, as the clients' process reads it (bench/support/realtime-clients.ts). */
const now = () => Number(process.hrtime.bigint()) / 1e6;

interface Result {
  mode: string;
  sockets: number;
  pattern: 'steady' | 'burst';
  latencies: number[];
  expected: number;
}

interface Mode {
  name: string;
  /** The relay's bus and the publisher's bus (the same one in process; two connections with NATS). */
  open(): Promise<{ relayBus: Bus; publisher: Bus; close(): Promise<void> }>;
}

const modes: Mode[] = [
  {
    name: 'embedded (in-process bus)',
    async open() {
      const bus = new MemoryBus();
      return { relayBus: bus, publisher: bus, close: () => bus.close() };
    },
  },
  {
    name: 'NATS',
    async open() {
      const prefix = `bench_${randomUUID().slice(0, 8)}`;
      const relayBus = await NatsBus.connect(NATS_URL, { prefix, name: 'bench-relay' });
      const publisher = await NatsBus.connect(NATS_URL, { prefix, name: 'bench-feed' });
      return {
        relayBus,
        publisher,
        close: async () => {
          await publisher.close();
          await relayBus.close();
        },
      };
    },
  },
];

async function main(): Promise<void> {
  const runStart = performance.now();
  log('real-time bench: tick published on the bus -> MARKET_UPDATE at a WebSocket client');
  log(`  machine: node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? '?'}, load average ${loadAverage()}`);
  log(`  relay  : throttle ${MARKET_UPDATE_INTERVAL_MS} ms per coin (leading + trailing edge); relay and server in this process, clients in a child process`);
  log(`  steady : ${fmtCount(TICKS)} ticks, one every ${SPACING_MS} ms over ${coinIds.length} coins (each coin every ${SPACING_MS * coinIds.length} ms)`);
  log(`  burst  : ${fmtCount(BURST_TICKS)} ticks, one every ${BURST_SPACING_MS} ms (each coin every ${BURST_SPACING_MS * coinIds.length} ms)`);
  log();
  const results: Result[] = [];
  for (const mode of modes) {
    const buses = await mode.open().catch((error: unknown) => {
      log(`${mode.name}: skipped (${error instanceof Error ? error.message : String(error)})`);
      return null;
    });
    if (!buses) continue;
    try {
      for (const sockets of SOCKET_COUNTS) {
        const patterns: Array<'steady' | 'burst'> = sockets === SOCKET_COUNTS.at(-1) ? ['steady', 'burst'] : ['steady'];
        for (const pattern of patterns) {
          const result = await measure(mode.name, buses.relayBus, buses.publisher, sockets, pattern);
          results.push(result);
          log(`  ${mode.name}, ${sockets} sockets, ${pattern}: p50 ${fmtMs(percentile(result.latencies, 50))}, p99 ${fmtMs(percentile(result.latencies, 99))}`);
        }
      }
    } finally {
      await buses.close();
    }
  }
  log();
  log(
    table(
      ['mode', 'sockets', 'ticks', 'delivered', 'p50', 'p99', 'max'],
      results.map((r) => [
        `${r.mode}, ${r.pattern}`,
        String(r.sockets),
        fmtCount(r.pattern === 'steady' ? TICKS : BURST_TICKS),
        `${fmtCount(r.latencies.length)} of ${fmtCount(r.expected)}`,
        fmtMs(percentile(r.latencies, 50)),
        fmtMs(percentile(r.latencies, 99)),
        fmtMs(r.latencies.length ? r.latencies.reduce((a, b) => Math.max(a, b), 0) : Number.NaN),
      ]),
    ),
  );
  log();
  log(`"delivered" counts (tick, socket) pairs. In a burst the throttle coalesces: fewer arrive; each coin's last tick waits up to ${MARKET_UPDATE_INTERVAL_MS} ms.`);
  log(`whole run ${fmtMs(performance.now() - runStart)}, load average now ${loadAverage()}`);
}

async function measure(mode: string, relayBus: Bus, publisher: Bus, socketCount: number, pattern: 'steady' | 'burst'): Promise<Result> {
  // No socket signs in here (market updates only), so no account is ever looked up; the clients'
  // process opens every socket from one address.
  const relay = new RealtimeRelay(
    { bus: relayBus, tokens: new TokenService(randomUUID() + randomUUID()), accounts: async () => ({ error: ACCOUNT_GONE }), logger: silentLogger },
    { maxSocketsPerAddress: socketCount },
  );
  await relay.start();
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  relay.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;

  const clients = fork(fileURLToPath(new URL('./support/realtime-clients.ts', import.meta.url)), [url, String(socketCount)], { execArgv: ['--import', 'tsx'] });
  const exited = new Promise((resolve) => clients.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    clients.once('message', () => resolve());
    clients.once('exit', (code) => reject(new Error(`the clients' process exited with ${code}`)));
  });
  const collect = () =>
    new Promise<{ seqs: number[]; arrivals: number[]; lastSeen: number }>((resolve) => {
      clients.once('message', (m) => resolve(m as { seqs: number[]; arrivals: number[]; lastSeen: number }));
      clients.send('collect');
    });

  const publishedAt = new Map<number, number>();
  const count = pattern === 'steady' ? TICKS : BURST_TICKS;
  const spacing = pattern === 'steady' ? SPACING_MS : BURST_SPACING_MS;
  let seq = 0;
  /** Publishes `ticks` ticks, then collects what arrived until the last one has (or 2 s past the throttle). */
  const run = async (ticks: number): Promise<number[]> => {
    for (let i = 0; i < ticks; i++) {
      seq += 1;
      const coin = coinIds[seq % coinIds.length]!;
      publishedAt.set(seq, now());
      await publisher.publish(marketTickSubject(coin), tick(seq, coin));
      await new Promise((resolve) => setTimeout(resolve, spacing));
    }
    const latencies: number[] = [];
    const deadline = performance.now() + MARKET_UPDATE_INTERVAL_MS + 2_000;
    for (;;) {
      const batch = await collect();
      batch.seqs.forEach((s, i) => {
        const sent = publishedAt.get(s);
        if (sent !== undefined) latencies.push(batch.arrivals[i]! - sent);
      });
      if (batch.lastSeen >= seq || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return latencies;
  };
  await run(WARMUP_TICKS);
  publishedAt.clear();
  const latencies = await run(count);

  clients.send('close');
  await exited;
  await relay.close();
  await new Promise((resolve) => server.close(resolve));
  return { mode, sockets: socketCount, pattern, latencies, expected: count * socketCount };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
