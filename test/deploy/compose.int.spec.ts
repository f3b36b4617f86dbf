/**
 * The production deployment (DESIGN.md section 4) without Docker: docker-compose.yml, deploy/Dockerfile
 * and the gateway's nginx config must agree with each other and with the code (service names, ports,
 * environment, start scripts). The gateway config is checked by the real nginx (`nginx -t`) and then
 * run, unprivileged, in front of stand-in backends to prove its routing.
 *
 * Without nginx the nginx tests are skipped with a reason; under CI=true they fail instead.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { CSP_DIRECTIVES, parseCsp } from '@papertrade/platform/http/security-headers';

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const inCi = () => process.env.CI === 'true' || process.env.CI === '1';

type Json = Record<string, unknown>;
interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; target?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | Json>;
  expose?: Array<string | number>;
  networks?: string[] | Record<string, unknown>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  volumes?: Array<string | Json>;
}

const APP_SERVICES = ['command-api', 'query-api', 'projectors', 'workers'] as const;
const API_PORTS: Record<string, string> = { 'command-api': '3001', 'query-api': '3002' };
/** The port each infrastructure image listens on, and the URL scheme (with its default port) for it. */
const IMAGE_PORTS: Array<{ image: RegExp; port: string }> = [
  { image: /^(docker\.eventstore\.com\/)?eventstore\/eventstore:/, port: '2113' },
  { image: /^mongo:/, port: '27017' },
  { image: /^nats:/, port: '4222' },
  { image: /^postgres:/, port: '5432' },
  { image: /^nginx:/, port: '80' },
];
const SCHEME_PORTS: Record<string, string> = {
  'esdb:': '2113',
  'mongodb:': '27017',
  'nats:': '4222',
  'postgres:': '5432',
  'postgresql:': '5432',
  'http:': '80',
};
/** Which URL variable each adapter choice needs, and the schemes it accepts. */
const ADAPTERS: Record<string, Record<string, { url: string; schemes: string[]; image: RegExp } | null>> = {
  EVENT_STORE: {
    eventstoredb: { url: 'EVENTSTORE_URL', schemes: ['esdb:'], image: /eventstore\/eventstore:/ },
    postgres: { url: 'DATABASE_URL', schemes: ['postgres:', 'postgresql:'], image: /^postgres:/ },
    // Embedded in one process: containers cannot share it.
    pglite: null,
  },
  READ_STORE: {
    mongodb: { url: 'MONGODB_URL', schemes: ['mongodb:'], image: /^mongo:/ },
    postgres: { url: 'DATABASE_URL', schemes: ['postgres:', 'postgresql:'], image: /^postgres:/ },
    pglite: null,
  },
  BUS: {
    nats: { url: 'NATS_URL', schemes: ['nats:'], image: /^nats:/ },
    // In-process: notices would never cross containers.
    memory: null,
  },
};

/** Compose interpolation: `${X:-d}`/`${X-d}` give d; anything else needing the host gives a placeholder. */
function interpolate(value: string): string {
  return value
    .replace(/\$\$/g, '\u0000')
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?(?::?\?[^}]*)?\}/g, (_m, _name: string, fallback?: string) => fallback ?? 'from-host')
    .replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, 'from-host')
    .replace(/\u0000/g, '$');
}

function envOf(service: ComposeService): Record<string, string | null> {
  const env: Record<string, string | null> = {};
  const raw = service.environment ?? {};
  if (Array.isArray(raw)) {
    for (const entry of raw) {
      const i = entry.indexOf('=');
      if (i < 0) env[entry] = null;
      else env[entry.slice(0, i)] = entry.slice(i + 1);
    }
  } else {
    for (const [k, v] of Object.entries(raw)) env[k] = v === null || v === undefined ? null : String(v);
  }
  return env;
}

const networksOf = (s: ComposeService): string[] =>
  s.networks === undefined ? ['default'] : Array.isArray(s.networks) ? s.networks : Object.keys(s.networks);

function dependsOf(s: ComposeService): Record<string, string> {
  if (!s.depends_on) return {};
  if (Array.isArray(s.depends_on)) return Object.fromEntries(s.depends_on.map((d) => [d, 'service_started']));
  return Object.fromEntries(Object.entries(s.depends_on).map(([d, v]) => [d, v?.condition ?? 'service_started']));
}

function loadCompose(): { services: Record<string, ComposeService>; raw: Json } {
  const raw = parse(read('docker-compose.yml'), { merge: true }) as Json;
  return { services: raw.services as Record<string, ComposeService>, raw };
}

/** The ports a service listens on: PORT for our services, `expose` for the rest, cross-checked by image. */
function listeningPorts(name: string, service: ComposeService): string[] {
  const port = envOf(service).PORT;
  if (port) return [interpolate(port)];
  return (service.expose ?? []).map((p) => String(p).split('/')[0]!);
}

function commandLine(service: ComposeService): string {
  return Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
}

describe('deployment: docker-compose.yml, deploy/Dockerfile, gateway', function () {
  const { services, raw } = loadCompose();
  const names = Object.keys(services);

  describe('docker-compose.yml', function () {
    it('has the stores, the bus, the four services, the web app and the gateway', function () {
      const byImage = (re: RegExp) => names.filter((n) => re.test(services[n]!.image ?? ''));
      expect(byImage(/eventstore\/eventstore:/), 'an EventStoreDB service').to.have.length(1);
      expect(byImage(/^mongo:7/), 'a mongo:7 service').to.have.length(1);
      expect(byImage(/^nats:2/), 'a nats:2 service').to.have.length(1);
      for (const name of [...APP_SERVICES, 'web', 'gateway']) expect(names, name).to.include(name);
      const nats = services[byImage(/^nats:/)[0]!]!;
      expect(commandLine(nats).split(' '), 'NATS runs with JetStream (-js)').to.include('-js');
      const es = envOf(services[byImage(/eventstore\/eventstore:/)[0]!]!);
      expect(es.EVENTSTORE_INSECURE, 'EventStoreDB in insecure mode (esdb://…?tls=false)').to.equal('true');
    });

    it('gives every service an image or a build, and every build a Dockerfile and target that exist', function () {
      const dockerfile = read('deploy/Dockerfile');
      const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]!.toLowerCase());
      for (const [name, s] of Object.entries(services)) {
        expect(s.image !== undefined || s.build !== undefined, `${name} has an image or a build`).to.equal(true);
        if (s.build === undefined) continue;
        const build = typeof s.build === 'string' ? { context: s.build } : s.build;
        const file = path.join(root, build.context ?? '.', build.dockerfile ?? 'Dockerfile');
        expect(fs.existsSync(file), `${name}: ${file} exists`).to.equal(true);
        if (build.target) expect(stages, `${name}: stage ${build.target} in ${build.dockerfile}`).to.include(build.target.toLowerCase());
      }
    });

    it('builds the four services from deploy/Dockerfile and starts each with its npm script', function () {
      const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
      for (const name of APP_SERVICES) {
        const s = services[name]!;
        const build = typeof s.build === 'string' ? { context: s.build } : s.build;
        expect(build?.dockerfile, `${name} is built from deploy/Dockerfile`).to.equal('deploy/Dockerfile');
        expect(commandLine(s), `${name} command`).to.equal(`npm run start:${name}`);
        expect(scripts[`start:${name}`], `package.json has start:${name}`).to.be.a('string');
      }
    });

    it('publishes a port for the gateway only, to its port 80', function () {
      for (const [name, s] of Object.entries(services)) {
        if (name === 'gateway') continue;
        expect(s.ports ?? [], `${name} publishes no port`).to.deep.equal([]);
      }
      const ports = services.gateway!.ports ?? [];
      expect(ports).to.have.length(1);
      const published = ports[0]!;
      const target = typeof published === 'object' ? String(published.target) : interpolate(String(published)).split(':').at(-1);
      expect(target).to.equal('80');
    });

    it('configures the four services alike for production: event store, read store and bus with their URLs', function () {
      const first = envOf(services[APP_SERVICES[0]]!);
      for (const name of APP_SERVICES) {
        const env = envOf(services[name]!);
        for (const [variable, choices] of Object.entries(ADAPTERS)) {
          const choice = env[variable];
          expect(choice, `${name}: ${variable}`).to.be.a('string');
          expect(Object.keys(choices), `${name}: ${variable}=${choice} is known`).to.include(choice);
          const need = choices[choice!];
          expect(need, `${name}: ${variable}=${choice} cannot be shared between containers`).to.not.equal(null);
          const url = env[need!.url];
          expect(url, `${name}: ${variable}=${choice} needs ${need!.url}`).to.be.a('string');
          const u = new URL(interpolate(url!));
          expect(need!.schemes, `${name}: ${need!.url} scheme`).to.include(u.protocol);
          const target = services[u.hostname];
          expect(target, `${name}: ${need!.url} names a compose service (${u.hostname})`).to.not.equal(undefined);
          expect(target!.image ?? '', `${name}: ${need!.url} points at the ${choice} server`).to.match(need!.image);
          // Every service must use the same stores and bus: one event log, one set of read models.
          expect(choice, `${name}: ${variable} as in ${APP_SERVICES[0]}`).to.equal(first[variable]);
          expect(url, `${name}: ${need!.url} as in ${APP_SERVICES[0]}`).to.equal(first[need!.url]);
        }
        expect(env.DEMO_SEED, `${name}: DEMO_SEED`).to.equal('off');
      }
      expect(interpolate(first.EVENTSTORE_URL ?? ''), 'esdb without TLS against insecure mode').to.match(/[?&]tls=false\b/);
    });

    it('points every URL at a compose service on a shared network, at the port that service listens on', function () {
      let checked = 0;
      for (const [name, s] of Object.entries(services)) {
        for (const [key, value] of Object.entries(envOf(s))) {
          if (value === null || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) continue;
          const u = new URL(interpolate(value));
          const target = services[u.hostname];
          expect(target, `${name}: ${key} names a compose service (${u.hostname})`).to.not.equal(undefined);
          const shared = networksOf(s).filter((n) => networksOf(target!).includes(n));
          expect(shared, `${name} and ${u.hostname} share a network (${key})`).to.not.deep.equal([]);
          const port = u.port || SCHEME_PORTS[u.protocol];
          expect(port, `${name}: ${key} has a port`).to.be.a('string');
          expect(listeningPorts(u.hostname, target!), `${name}: ${key} port ${port} is where ${u.hostname} listens`).to.include(port);
          checked += 1;
        }
      }
      expect(checked).to.be.greaterThanOrEqual(3 * APP_SERVICES.length);
    });

    it("declares the infrastructure images' own ports, and each API's PORT", function () {
      for (const [name, s] of Object.entries(services)) {
        const known = IMAGE_PORTS.find((p) => p.image.test(s.image ?? ''));
        if (known && !s.build) expect(listeningPorts(name, s), `${name} (${s.image}) listens on ${known.port}`).to.include(known.port);
      }
      for (const [name, port] of Object.entries(API_PORTS)) {
        expect(envOf(services[name]!).PORT, `${name} PORT`).to.equal(port);
        expect((services[name]!.expose ?? []).map(String), `${name} exposes its PORT`).to.include(port);
      }
      // Every service listens on PORT (projectors and workers for /api/health) and is probed there.
      const ports = APP_SERVICES.map((name) => envOf(services[name]!).PORT);
      for (const [i, name] of APP_SERVICES.entries()) {
        expect(ports[i], `${name} PORT`).to.match(/^\d+$/);
        const test = services[name]!.healthcheck?.test;
        expect(Array.isArray(test) ? test.join(' ') : test, `${name} healthcheck probes its PORT`).to.include('process.env.PORT');
      }
    });

    it('SECRETS_KEY (exchange secrets at rest) is required from the host by the services that hold exchange keys, command-api and workers, and given to no other', function () {
      for (const name of APP_SERVICES) {
        const env = envOf(services[name]!);
        if (name === 'command-api' || name === 'workers') {
          expect(env.SECRETS_KEY, `${name}: SECRETS_KEY must be \${SECRETS_KEY:?…}, never a literal`).to.match(/^\$\{SECRETS_KEY:\?[^}]*\}$/);
        } else {
          expect(env.SECRETS_KEY, `${name} holds no exchange secret`).to.equal(undefined);
        }
      }
    });

    it('never holds a secret: JWT_SECRET and MARKET_SEED are required from the host, admin credentials pass through', function () {
      for (const name of APP_SERVICES) {
        const env = envOf(services[name]!);
        expect(env.JWT_SECRET, `${name}: JWT_SECRET must be \${JWT_SECRET:?…}, never a literal`).to.match(/^\$\{JWT_SECRET:\?[^}]*\}$/);
        // The simulated market (no MARKET_DATA) is a function of its seed: a literal would publish every future price.
        expect(env.MARKET_DATA ?? 'simulated', `${name}: the market`).to.equal('simulated');
        expect(env.MARKET_SEED, `${name}: MARKET_SEED must be \${MARKET_SEED:?…}, never a literal`).to.match(/^\$\{MARKET_SEED:\?[^}]*\}$/);
        for (const key of ['ADMIN_EMAIL', 'ADMIN_PASSWORD']) {
          if (!(key in env)) continue;
          const v = env[key] ?? null;
          const passThrough = v === null || v === `\${${key}}` || v === `\${${key}:-}` || v === `\${${key}-}`;
          expect(passThrough, `${name}: ${key} passes through from the host (got ${v})`).to.equal(true);
        }
      }
      // Whatever else comes: a secret-looking variable is never written out in the file.
      for (const [name, s] of Object.entries(services)) {
        for (const [key, value] of Object.entries(envOf(s))) {
          if (!/SECRET|PASSWORD|TOKEN|API_KEY|PRIVATE_KEY/i.test(key) || value === null) continue;
          expect(value, `${name}: ${key} comes from the host environment`).to.match(/^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-?][^}]*)?\}$/);
        }
      }
    });

    it('never turns the test checkout on: production pays through Stripe, and command-api refuses to start without a key', function () {
      for (const [name, s] of Object.entries(services)) {
        expect(envOf(s), `${name} sets no TEST_CHECKOUT (it would give Premium away)`).to.not.have.property('TEST_CHECKOUT');
      }
      expect(JSON.stringify(raw), 'TEST_CHECKOUT appears nowhere in the file, anchors included').to.not.include('TEST_CHECKOUT');
      const env = envOf(services['command-api']!);
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']) {
        expect(env, `command-api gets ${key}`).to.have.property(key);
        const v = env[key] ?? null;
        expect(v === null || /^\$\{[A-Z_]+(:?[-?][^}]*)?\}$/.test(v), `${key} passes through from the host (got ${v})`).to.equal(true);
      }
    });

    it('trusts X-Forwarded-For only in the services behind the gateway', function () {
      for (const name of ['command-api', 'query-api']) expect(envOf(services[name]!).TRUST_PROXY, name).to.equal('1');
    });

    it('starts services after what they need, with healthchecks behind every "healthy" condition', function () {
      for (const [name, s] of Object.entries(services)) {
        for (const [dep, condition] of Object.entries(dependsOf(s))) {
          expect(names, `${name} depends on ${dep}, a service`).to.include(dep);
          expect(['service_started', 'service_healthy', 'service_completed_successfully'], `${name} -> ${dep}`).to.include(condition);
          if (condition === 'service_healthy') {
            const hc = services[dep]!.healthcheck;
            expect(hc && !hc.disable && hc.test, `${dep} has a healthcheck (${name} waits for it)`).to.be.ok;
          }
        }
      }
      for (const name of APP_SERVICES) {
        const deps = dependsOf(services[name]!);
        for (const [variable, choices] of Object.entries(ADAPTERS)) {
          const need = choices[envOf(services[name]!)[variable] ?? ''];
          if (!need) continue;
          const host = new URL(interpolate(envOf(services[name]!)[need.url]!)).hostname;
          expect(deps, `${name} waits for ${host}`).to.have.property(host);
        }
      }
      const gatewayDeps = dependsOf(services.gateway!);
      for (const name of ['command-api', 'query-api', 'web']) expect(gatewayDeps[name], `gateway waits for ${name}`).to.equal('service_healthy');
    });

    it('mounts deploy/nginx/gateway.conf into the gateway', function () {
      const mounts = (services.gateway!.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${String(v.source)}:${String(v.target)}`));
      expect(mounts.some((m) => /^\.\/deploy\/nginx\/gateway\.conf:\/etc\/nginx\/conf\.d\/[^:]+\.conf(:ro)?$/.test(m)), mounts.join(', ')).to.equal(true);
      expect(services.gateway!.image ?? '').to.match(/^nginx:/);
      expect(raw.volumes, 'named volumes are declared').to.be.an('object');
    });
  });

  describe('deploy/Dockerfile', function () {
    const dockerfile = read('deploy/Dockerfile');

    it('installs from the lockfile with every workspace manifest, builds the web app, runs unprivileged', function () {
      const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
      const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
      expect(beforeInstall, 'the lockfile is copied before npm ci').to.match(/COPY\s+package\.json\s+package-lock\.json/);
      for (const ws of workspaces) {
        expect(beforeInstall, `${ws}/package.json is copied before npm ci`).to.include(`COPY ${ws}/package.json ${ws}/`);
      }
      expect(dockerfile).to.match(/RUN npm ci\b/);
      expect(dockerfile).to.match(/RUN npm run build:web\b/);
      expect(dockerfile).to.match(/^USER node$/m);
      expect(dockerfile, 'the web stage serves web/dist').to.match(/COPY --from=app \/app\/web\/dist /);
    });

    it('keeps host dependencies, local data and secrets out of the build context', function () {
      const ignore = read('deploy/Dockerfile.dockerignore').split('\n').map((l) => l.trim());
      for (const entry of ['**/node_modules', 'data', '.env', 'web/dist', '.git']) expect(ignore, entry).to.include(entry);
    });
  });

  describe('gateway (deploy/nginx/gateway.conf)', function () {
    const conf = read('deploy/nginx/gateway.conf');
    const targets = [...conf.matchAll(/http:\/\/([a-z0-9-]+):(\d+)/g)].map((m) => ({ host: m[1]!, port: m[2]! }));

    it('proxies only to compose services on its network, at the ports they listen on', function () {
      expect(targets.map((t) => t.host).sort()).to.include.members(['command-api', 'query-api', 'web']);
      for (const { host, port } of targets) {
        const target = services[host];
        expect(target, `${host} is a compose service`).to.not.equal(undefined);
        expect(listeningPorts(host, target!), `${host} listens on ${port}`).to.include(port);
        const shared = networksOf(services.gateway!).filter((n) => networksOf(target!).includes(n));
        expect(shared, `gateway and ${host} share a network`).to.not.deep.equal([]);
      }
      for (const [name, port] of Object.entries(API_PORTS)) {
        expect(targets, `${name} at its PORT ${port}`).to.deep.include({ host: name, port });
      }
    });

    describe('with nginx', function () {
      let nginx = '';
      before(function () {
        const found = findNginx();
        if (!found) {
          const reason = 'nginx is not installed (apt-get install nginx, or set NGINX_BIN)';
          if (inCi()) throw new Error(`${reason}; it is required under CI=true`);
          console.log(`    skipped: ${reason}`);
          this.skip();
        }
        nginx = found!;
      });

      it('accepts the config (nginx -t)', function () {
        const prefix = tempPrefix();
        try {
          writeMainConf(prefix, conf);
          const result = spawnSync(nginx, ['-t', '-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')], {
            encoding: 'utf8',
          });
          expect(result.status, `${result.stderr}${result.stdout}`).to.equal(0);
          expect(result.stderr).to.match(/test is successful/);
        } finally {
          fs.rmSync(prefix, { recursive: true, force: true });
        }
      });

      describe('routing, in front of stand-in services', function () {
        let prefix = '';
        let proc: ChildProcess | undefined;
        let gatewayPort = 0;
        const backends: Record<string, StandIn> = {};

        before(async function () {
          this.timeout(15000);
          for (const name of ['query-api', 'command-api', 'web']) backends[name] = await standIn(name);
          gatewayPort = await freePort();
          // Service names become the stand-ins' addresses; nginx listens on a free port.
          let local = conf.replace(/http:\/\/([a-z0-9-]+):(\d+)/g, (m, host: string) => {
            const b = backends[host];
            return b ? `http://127.0.0.1:${b.port}` : m;
          });
          local = local.replace(/listen\s+80\b/g, `listen 127.0.0.1:${gatewayPort}`);
          prefix = tempPrefix();
          writeMainConf(prefix, local, { daemon: false });
          proc = spawn(nginx, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let stderr = '';
          proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
          await waitForPort(gatewayPort, 5000).catch((e: unknown) => {
            throw new Error(`nginx did not start: ${String(e)}\n${stderr}\n${readIf(path.join(prefix, 'error.log'))}`);
          });
        });

        after(async function () {
          if (proc && proc.exitCode === null) {
            const exited = new Promise((r) => proc!.once('exit', r));
            proc.kill('SIGTERM');
            await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
          }
          for (const b of Object.values(backends)) await b.stop();
          if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
        });

        it('sends GET and HEAD /api/* to query-api, with the query string', async function () {
          const get = await request(gatewayPort, 'GET', '/api/markets?symbol=BTC');
          expect(get.status).to.equal(200);
          expect(get.json).to.deep.include({ backend: 'query-api', method: 'GET', url: '/api/markets?symbol=BTC' });
          const head = await request(gatewayPort, 'HEAD', '/api/markets');
          expect(head.status).to.equal(200);
          expect(head.headers['x-backend']).to.equal('query-api');
        });

        it('sends POST, PUT, PATCH and DELETE /api/* to command-api, with the body', async function () {
          for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
            const res = await request(gatewayPort, method, '/api/bot/start', '{"x":1}');
            expect(res.status, method).to.equal(200);
            expect(res.json, method).to.deep.include({ backend: 'command-api', method, url: '/api/bot/start', body: '{"x":1}' });
          }
        });

        it('sends POST /api/ai-chat to query-api (the chat only reads), with the body; its neighbours still to command-api', async function () {
          const chat = await request(gatewayPort, 'POST', '/api/ai-chat', '{"message":"hi"}');
          expect(chat.status).to.equal(200);
          expect(chat.json).to.deep.include({ backend: 'query-api', method: 'POST', url: '/api/ai-chat', body: '{"message":"hi"}' });
          for (const url of ['/api/ai-chat/x', '/api/ai-chatter', '/api/trades']) {
            expect((await request(gatewayPort, 'POST', url, '{}')).json, url).to.deep.include({ backend: 'command-api' });
          }
        });

        it('passes the WebSocket upgrade on /ws to query-api, both ways', async function () {
          const { status, backend, echoed } = await upgrade(gatewayPort, '/ws?token=abc');
          expect(status).to.equal(101);
          expect(backend).to.equal('query-api');
          expect(echoed).to.equal('ping');
        });

        it('sends everything else to the web app', async function () {
          for (const url of ['/', '/dashboard', '/assets/app.js', '/apidocs']) {
            const res = await request(gatewayPort, 'GET', url);
            expect(res.json, url).to.deep.include({ backend: 'web', url });
          }
          const post = await request(gatewayPort, 'POST', '/not-api', '{}');
          expect(post.json).to.deep.include({ backend: 'web' });
        });

        it('replaces a forged X-Forwarded-For with the client address and keeps Host', async function () {
          const res = await request(gatewayPort, 'GET', '/api/whoami', undefined, { 'X-Forwarded-For': '203.0.113.9', Host: 'trade.example' });
          const headers = (res.json as { headers: Record<string, string> }).headers;
          expect(headers['x-forwarded-for']).to.equal('127.0.0.1');
          expect(headers['x-real-ip']).to.equal('127.0.0.1');
          expect(headers.host).to.equal('trade.example');
        });

        it('sends the security headers on API answers, web answers and its own problem answers, once each', async function () {
          const expectHeaders = (res: Reply, what: string) => {
            expect(parseCsp(String(res.headers['content-security-policy'] ?? '')), what).to.deep.equal(CSP_DIRECTIVES);
            expect(res.headers['x-content-type-options'], what).to.equal('nosniff');
            expect(res.headers['x-frame-options'], what).to.equal('DENY');
            expect(res.headers['referrer-policy'], what).to.equal('no-referrer');
          };
          const api = await request(gatewayPort, 'GET', '/api/plans');
          expect(api.json).to.deep.include({ backend: 'query-api' });
          expectHeaders(api, 'GET /api/plans');
          const command = await request(gatewayPort, 'POST', '/api/auth/login', '{}');
          expectHeaders(command, 'POST /api/auth/login');
          for (const url of ['/', '/login', '/assets/app.js']) expectHeaders(await request(gatewayPort, 'GET', url), url);
          // A service that sends its own (here: weaker) copies: the gateway's replace them, one of each.
          const own = await request(gatewayPort, 'GET', '/api/own-headers');
          expectHeaders(own, 'GET /api/own-headers');
          const raw = (await rawRequest(gatewayPort, 'GET /api/own-headers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).headers;
          for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy']) {
            expect(raw.filter((line) => line.toLowerCase().startsWith(`${name}:`)), name).to.have.length(1);
          }
          // The API's own Cache-Control passes through.
          expect(own.headers['cache-control']).to.equal('no-store');
        });

        it('answers a problem body when an API is down, and 413 above its body limit', async function () {
          await backends['query-api']!.stop();
          const down = await request(gatewayPort, 'GET', '/api/markets');
          expect(down.status).to.equal(503);
          expect(down.headers['content-type']).to.match(/application\/problem\+json/);
          expect(down.json).to.deep.include({ status: 503, title: 'Service unavailable' });
          expect(down.headers['retry-after']).to.equal('5');
          expect(down.headers['cache-control']).to.equal('no-store');
          expect(parseCsp(String(down.headers['content-security-policy'] ?? ''))).to.deep.equal(CSP_DIRECTIVES);
          expect(down.headers['x-frame-options']).to.equal('DENY');
          expect(down.headers['x-content-type-options']).to.equal('nosniff');
          expect((await rawRequest(gatewayPort, `POST /api/bot/start HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`)).status).to.equal(413);
        });

        it('answers its own health check', async function () {
          const res = await request(gatewayPort, 'GET', '/healthz');
          expect(res.status).to.equal(200);
          expect(res.text.trim()).to.equal('ok');
        });
      });

      it('serves the built web app with client-side routes (deploy/nginx/web.conf)', async function () {
        const prefix = tempPrefix();
        let proc: ChildProcess | undefined;
        try {
          const site = path.join(prefix, 'site');
          fs.mkdirSync(path.join(site, 'assets'), { recursive: true });
          fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><div id="root"></div>');
          fs.writeFileSync(path.join(site, 'assets', 'index-abc123.js'), 'console.log(1)');
          fs.chmodSync(site, 0o755);
          fs.chmodSync(path.join(site, 'assets'), 0o755);
          const port = await freePort();
          const web = read('deploy/nginx/web.conf')
            .replace(/listen\s+80\b/, `listen 127.0.0.1:${port}`)
            .replace(/root\s+\/usr\/share\/nginx\/html;/, `root ${site};`);
          writeMainConf(prefix, web, { daemon: false });
          const args = ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')];
          const check = spawnSync(nginx, ['-t', ...args], { encoding: 'utf8' });
          expect(check.status, check.stderr).to.equal(0);
          proc = spawn(nginx, args, { stdio: 'ignore' });
          await waitForPort(port, 5000);
          const route = await request(port, 'GET', '/dashboard');
          expect(route.status).to.equal(200);
          expect(route.text).to.include('<div id="root">');
          expect(route.headers['cache-control']).to.equal('no-cache');
          const asset = await request(port, 'GET', '/assets/index-abc123.js');
          expect(asset.status).to.equal(200);
          expect(asset.headers['cache-control']).to.include('immutable');
          expect((await request(port, 'GET', '/assets/missing.js')).status, 'a missing bundle is a 404, not index.html').to.equal(404);
        } finally {
          if (proc && proc.exitCode === null) {
            const exited = new Promise((r) => proc!.once('exit', r));
            proc.kill('SIGTERM');
            await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
          }
          fs.rmSync(prefix, { recursive: true, force: true });
        }
      });
    });
  });
});

function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_BIN, 'nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
  for (const bin of candidates) {
    if (!bin) continue;
    const r = spawnSync(bin, ['-v'], { encoding: 'utf8' });
    if (r.status === 0) return bin;
  }
  return undefined;
}

function tempPrefix(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-'));
  // Workers run as an unprivileged user when the test runs as root: they need the temp folders.
  fs.chmodSync(dir, 0o755);
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(dir, sub));
    fs.chmodSync(path.join(dir, sub), 0o777);
  }
  return dir;
}

/** A minimal nginx.conf around the gateway config, with every path inside `prefix`. */
function writeMainConf(prefix: string, gatewayConf: string, options: { daemon?: boolean } = {}): void {
  fs.writeFileSync(path.join(prefix, 'gateway.conf'), gatewayConf);
  const p = (name: string) => path.join(prefix, name);
  fs.writeFileSync(
    p('nginx.conf'),
    `${options.daemon === false ? 'daemon off;\n' : ''}worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('error.log')} warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path ${p('client_body')};
    proxy_temp_path ${p('proxy')};
    fastcgi_temp_path ${p('fastcgi')};
    uwsgi_temp_path ${p('uwsgi')};
    scgi_temp_path ${p('scgi')};
    include ${p('gateway.conf')};
}
`,
  );
}

function readIf(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface StandIn {
  port: number;
  stop(): Promise<void>;
}

/** A stand-in service: answers with what it received; echoes on an upgraded connection. */
async function standIn(name: string): Promise<StandIn> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      // A backend with its own, weaker security headers: the gateway must not pass them on.
      const own = req.url === '/api/own-headers' ? { 'x-frame-options': 'SAMEORIGIN', 'content-security-policy': 'default-src *', 'referrer-policy': 'unsafe-url', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } : {};
      res.writeHead(200, { 'content-type': 'application/json', 'x-backend': name, ...own });
      res.end(JSON.stringify({ backend: name, method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (_req, socket) => {
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Backend: ${name}\r\n\r\n`);
    socket.on('data', (d: Buffer) => socket.write(d));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  let stopped: Promise<void> | undefined;
  return {
    port,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      })),
  };
}

/**
 * Sends raw request bytes (for what a client library would refuse to send) and returns the answer's
 * status code and header lines (duplicates kept).
 */
function rawRequest(port: number, head: string): Promise<{ status: number; headers: string[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let text = '';
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      const [statusLine = '', ...headers] = text.slice(0, end).split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (status) resolve({ status: Number(status[1]), headers });
      else reject(new Error(`not an HTTP answer: ${text}`));
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no answer: ${text}`));
    });
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

function request(port: number, method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const bodyHeaders = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: { ...headers, ...bodyHeaders }, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function upgrade(port: number, url: string): Promise<{ status: number; backend: string | undefined; echoed: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: url,
      agent: false,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.once('data', (d: Buffer) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, backend: res.headers['x-backend'] as string | undefined, echoed: d.toString() });
      });
      socket.write('ping');
    });
    req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}
