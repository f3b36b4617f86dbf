/**
 * The WebSocket clients of bench/realtime.bench.ts, as a child process (`node --import tsx
 * realtime-clients.ts <url> <count>`, IPC channel): like browsers, they do not share the relay's
 * process. Opens `count` sockets to `url`; for every MARKET_UPDATE records (price = the tick's
 * sequence number, arrival time). Times are the system's monotonic clock (`process.hrtime`), the
 * same in every process, so the parent's publish times and these arrival times compare.
 *
 * Messages from the parent: `collect` (answered with the samples since the last collect and the
 * highest sequence seen), `close`. To the parent: `ready` once every socket is open.
 */
import { WebSocket } from 'ws';

const url = process.argv[2]!;
const count = Number(process.argv[3]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const send = (message: unknown) => process.send!(message);

let seqs: number[] = [];
let arrivals: number[] = [];
let lastSeen = 0;

const sockets = await Promise.all(
  Array.from(
    { length: count },
    () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.on('message', (data) => {
          const arrived = now();
          const message = JSON.parse(data.toString()) as { type: string; data: { price: number } };
          if (message.type !== 'MARKET_UPDATE') return;
          seqs.push(message.data.price);
          arrivals.push(arrived);
          if (message.data.price > lastSeen) lastSeen = message.data.price;
        });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      }),
  ),
);

process.on('message', (message: string) => {
  if (message === 'collect') {
    send({ seqs, arrivals, lastSeen });
    seqs = [];
    arrivals = [];
  } else if (message === 'close') {
    for (const ws of sockets) ws.terminate();
    process.disconnect();
  }
});
send('ready');
