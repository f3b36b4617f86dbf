/**
 * Test support for the relay's specs and bench: a WebSocket client that records what it receives,
 * and a raw TCP client that completes the handshake and then never reads (nor answers pings).
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { findCoinById, type CoinId } from '@papertrade/domain/market/coins';
import type { MarketTick } from '@papertrade/domain/market/contracts';
import type { RelayFrame } from './messages';

/** A valid tick for `coinId` at `price` (a test may use the price to tell ticks apart). */
export function tick(price: number, coinId: CoinId = 'bitcoin'): MarketTick {
  return { coinId, symbol: findCoinById(coinId)!.symbol, price, changePercent24h: 1.5, at: new Date().toISOString() };
}

export class RecordingClient {
  readonly messages: RelayFrame[] = [];
  closeCode: number | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as RelayFrame));
    ws.on('close', (code) => (this.closeCode = code));
  }

  /** Opens `ws://…/ws`; resolves once open. `protocols` e.g. `['papertrade', 'bearer.<token>']`; `headers` e.g. X-Forwarded-For. */
  static open(url: string, protocols?: string[], headers?: Record<string, string>): Promise<RecordingClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, protocols, headers ? { headers } : {});
      const client = new RecordingClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    });
  }

  of(type: string): RelayFrame[] {
    return this.messages.filter((m) => m.type === type);
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Handshakes by hand over TCP, then stops reading: the kernel buffers fill, then the server's. */
export function openNonReadingSocket(port: number, path = '/ws'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
      );
    });
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/**
 * A WebSocket handshake by hand, for what the answer itself holds: its head (status line and
 * headers) and, for a refusal, its body. An accepted socket is dropped once the head has come.
 */
export function rawHandshake(port: number, headers: Record<string, string> = {}, path = '/ws'): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('error', reject);
    socket.once('connect', () => {
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n${extra}\r\n`,
      );
    });
    let text = '';
    const settle = () => {
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      resolve({ status: Number(head.split(' ')[1]), head, body: text.slice(end + 4) });
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.startsWith('HTTP/1.1 101') && text.includes('\r\n\r\n')) {
        socket.destroy();
        settle();
      }
    });
    socket.on('end', settle);
  });
}
