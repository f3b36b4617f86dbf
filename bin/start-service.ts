/**
 * One service as its own process (local cluster and production): command-api, query-api,
 * projectors or workers, against the stores and bus the environment selects.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCommandApi } from '@papertrade/command-api/app';
import { createQueryApi } from '@papertrade/query-api/app';
import { RealtimeRelay } from '@papertrade/query-api/realtime/relay';
import { accountLookup } from '@papertrade/platform/auth/guards';
import { botStatusGreeting } from '@papertrade/query-api/trading/bot-status-greeting';
import { AdminBootstrapRefused, ensureAdmin } from '@papertrade/command-api/bootstrap';
import { commandApiDeps, createProjector, createWorkers, createRuntime, queryApiDeps, registrationDeps } from './compose';
import { announcePort, onShutdown, runMain } from './lifecycle';

const services = ['command-api', 'query-api', 'projectors', 'workers'] as const;
type Service = (typeof services)[number];

/** Projectors and workers have no API; they answer /api/health on PORT so orchestrators can probe them. */
function healthServer(port: number, status: () => Record<string, unknown>): http.Server {
  return http
    .createServer((req, res) => {
      const ok = req.url === '/api/health';
      res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { status: 'ok', ...status() } : { status: 404, detail: 'Not found' }));
    })
    .listen(port);
}

async function main() {
  const service = process.argv[2] as Service;
  if (!services.includes(service)) throw new Error(`usage: start-service <${services.join('|')}>`);
  // The services that hold exchange secrets refuse to start without SECRETS_KEY (as without JWT_SECRET).
  const rt = await createRuntime(service, { embedded: false, holdsSecrets: service === 'command-api' || service === 'workers' });
  const { config, logger } = rt;
  const closers: Array<() => Promise<void>> = [];
  let server: http.Server;

  switch (service) {
    case 'command-api': {
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        // A refusal is logged by ensureAdmin; the service still starts (an account registered in advance must not keep it down).
        await ensureAdmin(registrationDeps(rt), { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD }, logger).catch((error: unknown) => {
          if (!(error instanceof AdminBootstrapRefused)) throw error;
        });
      }
      server = createCommandApi(commandApiDeps(rt)).listen(config.PORT);
      break;
    }
    case 'query-api': {
      const deps = queryApiDeps(rt);
      // The socket relay on /ws of the same server, following the bus (NATS here). Started before
      // listening: announcePort must see the 'listening' event.
      const relay = new RealtimeRelay(
        { bus: rt.infra.bus, tokens: deps.tokens, accounts: accountLookup(rt.infra.readModels), logger, greet: botStatusGreeting(rt.infra.readModels) },
        { maxSocketsPerAddress: config.REALTIME_MAX_SOCKETS_PER_ADDRESS, trustProxy: config.TRUST_PROXY },
      );
      await relay.start();
      closers.push(() => relay.close());
      server = createQueryApi(deps).listen(config.PORT);
      relay.attach(server);
      break;
    }
    case 'projectors': {
      const projector = createProjector(rt);
      await projector.start();
      closers.push(() => projector.stop());
      server = healthServer(config.PORT, () => ({ positions: projector.positions() }));
      break;
    }
    case 'workers': {
      // The market feed, the signal engine, the trading bot and the risk monitor (bin/compose.ts).
      const workers = createWorkers(rt);
      await workers.start();
      closers.push(() => workers.stop());
      server = healthServer(config.PORT, () => ({ workers: workers.statuses() }));
      break;
    }
  }
  announcePort(server);
  server.on('listening', () => logger.info('ready', { service, port: (server.address() as AddressInfo | null)?.port ?? config.PORT }));

  onShutdown(async () => {
    server.close();
    for (const close of closers) await close();
    await rt.infra.close();
  });
}

runMain(main);
