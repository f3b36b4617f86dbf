/**
 * The HTTP client of bench/platform.bench.ts's command throughput, as a child process (`node --import
 * tsx command-client.ts`, IPC channel): like a real client, it does not share the command-api's
 * event loop, so the server is not charged for the client's own `fetch` (about an eighth of the CPU
 * when both ran in one process). The raw INSERT side has no HTTP client to move.
 *
 * Message from the parent: `{ base, token, ids, count, concurrency, firstSeq }`: sends `count` PUT
 * /api/admin/users/{id} (first names n<seq>, ids round-robin) with `concurrency` in flight, and
 * answers `{ ms }` (wall time of the whole run) or `{ error }`. `close` ends the process.
 */
interface Run {
  base: string;
  token: string;
  ids: string[];
  count: number;
  concurrency: number;
  firstSeq: number;
}

async function run({ base, token, ids, count, concurrency, firstSeq }: Run): Promise<number> {
  let next = 0;
  const put = async (seq: number) => {
    const res = await fetch(`${base}/api/admin/users/${ids[seq % ids.length]}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ firstName: `n${seq}` }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`PUT answered ${res.status}: ${text}`);
  };
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await put(firstSeq + i);
    }),
  );
  return performance.now() - start;
}

process.on('message', (message: Run | 'close') => {
  if (message === 'close') {
    process.disconnect();
    return;
  }
  run(message).then(
    (ms) => process.send!({ ms }),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.send!('ready');
