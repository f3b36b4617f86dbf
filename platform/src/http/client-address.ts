/**
 * The client's address, for limits counted per address (sign-in and sign-up in command-api, sockets
 * in the real-time relay): behind the gateway (TRUST_PROXY) the first X-Forwarded-For entry, which
 * the gateway sets to the address it saw (deploy/nginx/gateway.conf), else the connection's peer.
 * Without TRUST_PROXY the header is ignored: anyone can send it.
 */
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
