/** How every entry point in bin/ starts and stops. */
import type { Server } from 'node:http';

/**
 * Runs `main`; a failure prints its message (not a stack) and exits with status 1. Every file a
 * papertrade process creates (data folder, PGlite's files, secrets) is for its owner only: umask
 * 077 from the start, so no file is ever briefly readable by others before a chmod.
 */
export function runMain(main: () => Promise<void>): void {
  process.umask(0o077);
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** On SIGINT or SIGTERM: `stop` once (close servers, flush projections, close stores), then exit 0. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = async () => {
    if (stopping) return;
    stopping = true;
    await stop().catch((error: unknown) => console.error('shutdown failed:', error instanceof Error ? error.message : error));
    process.exit(0);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * Tells a parent that started this process with an IPC channel (the test harness) which port the
 * server got. Tests start services on PORT=0 and learn the port here, instead of guessing a free
 * port beforehand, which another process may take before this one binds it.
 */
export function announcePort(server: Server): void {
  server.once('listening', () => {
    const address = server.address();
    if (!process.send || typeof address !== 'object' || !address) return;
    process.send({ type: 'listening', port: address.port });
    process.channel?.unref(); // the channel must not keep the process alive on its own
  });
}
