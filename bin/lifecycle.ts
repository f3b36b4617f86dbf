/** How every entry point in bin/ starts and stops. */

/** Runs `main`; a failure prints its message (not a stack) and exits with status 1. */
export function runMain(main: () => Promise<void>): void {
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
