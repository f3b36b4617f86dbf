/**
 * The HTTP client of bench/platform.bench.ts's command throughput, as a child process (`node --import
 * tsx command-client.ts`, IPC channel): like a real client, it does not share the command-api's
 * event loop, so the server is not charged for the client's own `fetch` (about an eighth of the CPU
 * when both ran in one process). The raw INSERT side has no HTTP client to move.
 *
 * The client still shares the machine's cores with the server and PostgreSQL, so its own CPU counts
 * against the command side: `fetch` (undici, web streams) spent about 1.6 ms of CPU per PUT here,
 * as much as the command-api itself. By default it sends with `node:http` over a keep-alive agent
 * (`concurrency` sockets), which costs a fraction of that; `client: 'fetch'` keeps the old client
 * (bench/command-profile.ts --fetch compares the two).
 *
 * Message from the parent: `{ base, token, ids, count, concurrency, firstSeq, latencies? }`: sends
 * `count` PUT /api/admin/users/{id} (first names n<seq>, ids round-robin) with `concurrency` in
 * flight, and answers `{ ms, cpuMs }` (wall time of the whole run, and the CPU this process spent on
 * it; with `latencies`, each request's time too) or `{ error }`. `close` ends the process.
 */
import http from 'node:http';

interface Run {
  base: string;
  token: string;
  ids: string[];
  count: number;
  concurrency: number;
  firstSeq: number;
  latencies?: boolean;
  client?: 'http' | 'fetch';
}

/** One PUT with node:http; resolves with the status and the body read to the end. */
function httpPut(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function run({ base, token, ids, count, concurrency, firstSeq, latencies, client = 'http' }: Run): Promise<{ ms: number; cpuMs: number; latencies?: number[] }> {
  let next = 0;
  const times: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const put = async (seq: number) => {
    const sent = performance.now();
    const url = `${base}/api/admin/users/${ids[seq % ids.length]}`;
    const body = JSON.stringify({ firstName: `n${seq}` });
    let status: number;
    let text: string;
    if (client === 'fetch') {
      const res = await fetch(url, { method: 'PUT', headers, body });
      status = res.status;
      text = await res.text();
    } else {
      ({ status, text } = await httpPut(agent, new URL(url), headers, body));
    }
    if (status < 200 || status > 299) throw new Error(`PUT answered ${status}: ${text}`);
    if (latencies) times.push(performance.now() - sent);
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await put(firstSeq + i);
    }),
  );
  const ms = performance.now() - start;
  agent.destroy();
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, ...(latencies ? { latencies: times } : {}) };
}

process.on('message', (message: Run | 'close') => {
  if (message === 'close') {
    process.disconnect();
    return;
  }
  run(message).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.send!('ready');
