/**
 * The embedded default: one process runs command-api, query-api, the projectors and the workers on
 * one port, with PGlite in DATA_DIR and the in-process bus, and serves the built web app and the
 * real-time socket (/ws).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { RealtimeRelay } from '@papertrade/query-api/realtime/relay';
import { accountLookup } from '@papertrade/platform/auth/guards';
import { botStatusGreeting } from '@papertrade/query-api/trading/bot-status-greeting';
import { AdminBootstrapRefused, ensureAdmin, seedDemoAccounts } from '@papertrade/command-api/bootstrap';
import { createProjector, createRuntime, createWorkers, registrationDeps } from './compose';
import { createEmbeddedApp } from './embedded-app';
import { announcePort, onShutdown, runMain } from './lifecycle';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const rt = await createRuntime('embedded', { embedded: true, holdsSecrets: true });
  const { config, logger } = rt;
  const dist = path.resolve(config.WEB_DIST ?? path.join(root, 'web', 'dist'));
  if (!fs.existsSync(path.join(dist, 'index.html')) && !config.WEB_DIST) {
    logger.info('building the web app (first start)');
    execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
  }

  const projector = createProjector(rt);
  await projector.start();
  const registration = registrationDeps(rt);
  // Before the workers start: the demo accounts are seeded only into an empty store, and the workers'
  // first start writes at once (the house model's training request), which made a fresh data folder
  // look used and skip them.
  if (config.DEMO_SEED === 'on') await seedDemoAccounts(registration, config.DATA_DIR, logger);
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    try {
      const id = await ensureAdmin(registration, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD }, logger);
      logger.info('admin account ready', { userId: id });
    } catch (error) {
      // Logged by ensureAdmin; the app still serves (an account registered in advance must not keep it down).
      if (!(error instanceof AdminBootstrapRefused)) throw error;
    }
  }

  const workers = createWorkers(rt);
  await workers.start();

  await projector.caughtUp(); // seeded accounts can sign in as soon as the app says it is ready
  const app = createEmbeddedApp(rt, { webDist: dist });
  // The socket relay on /ws of the same server, following the in-process bus; a socket that signs in
  // is told its bot's status (query-api/src/trading/bot-status-greeting.ts).
  const relay = new RealtimeRelay(
    { bus: rt.infra.bus, tokens: new TokenService(rt.jwtSecret, rt.clock), accounts: accountLookup(rt.infra.readModels), logger, greet: botStatusGreeting(rt.infra.readModels) },
    { maxSocketsPerAddress: config.REALTIME_MAX_SOCKETS_PER_ADDRESS, trustProxy: config.TRUST_PROXY },
  );
  await relay.start();

  const server = app.listen(config.PORT, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info('ready', { url: `http://localhost:${port}`, dataDir: path.resolve(config.DATA_DIR) });
  });
  relay.attach(server);
  announcePort(server);

  onShutdown(async () => {
    server.close();
    await relay.close();
    await workers.stop();
    await projector.stop();
    await rt.infra.close();
  });
}

runMain(main);
