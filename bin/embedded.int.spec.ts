/**
 * The embedded default as a person runs it: `npm start` (bin/start.ts) as its own process.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, startApp, type StartedApp } from '../test/app-process';
import { preparePgliteDir } from '../test/pglite';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';

const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');

describe('embedded mode (npm start)', function () {
  this.timeout(120_000);
  let app: StartedApp;
  before(async function () {
    app = await startApp({ env: { DEMO_SEED: 'on', LOG: 'on', WEB_DIST: path.join(os.tmpdir(), 'papertrade-no-web') } });
  });
  after(async function () {
    await app?.stop();
  });

  it('seeds demo accounts into a private file, logging its path and never a password', async function () {
    const file = path.join(app.dataDir, 'demo-accounts.txt');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
    expect(lines.map((l) => l.split('\t')[0])).to.deep.equal(['free', 'premium', 'admin']);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    const output = app.output();
    expect(output).to.include(file);
    for (const line of lines) expect(output).not.to.include(line.split('\t')[2]!);

    const accounts = Object.fromEntries(lines.map((l) => l.split('\t')).map(([kind, email, password]) => [kind, { email, password }]));
    const login = async (kind: string) => {
      const res = await fetch(`${app.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(accounts[kind]) });
      expect(res.status).to.equal(200);
      return ((await res.json()) as { user: Record<string, unknown> }).user;
    };
    expect(await login('free')).to.include({ subscriptionTier: 'FREE', isAdmin: false });
    expect(await login('premium')).to.include({ subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE', isAdmin: false });
    expect(await login('admin')).to.include({ isAdmin: true });
  });

  it("generates the market's secret seed into a private file of the data folder, runs the market on it, and never logs it", async function () {
    const file = path.join(app.dataDir, 'market-seed');
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    const seed = fs.readFileSync(file, 'utf8');
    expect(seed.length).to.be.at.least(32);
    expect(app.output()).to.not.include(seed);
    const served = (await (await fetch(`${app.url}/api/coins/bitcoin/price`)).json()) as { price: number; at: string };
    const market = new SimulatedMarketData(seed, () => new Date(served.at));
    expect(served.price).to.equal((await market.price('bitcoin')).price);
  });

  it('refuses a second process on the same data folder', function () {
    const result = spawnSync(tsx, ['bin/start.ts'], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: app.dataDir, PORT: '0', WEB_DIST: path.join(os.tmpdir(), 'papertrade-no-web') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/in use by another process/);
  });

  it('serves the SPA fallback for app routes and JSON 404 for unknown API paths', async function () {
    const page = await fetch(`${app.url}/some/app/route`);
    expect(page.status).to.equal(200);
    const api = await fetch(`${app.url}/api/some/thing`);
    expect(api.status).to.equal(404);
    expect(api.headers.get('content-type')).to.include('application/problem+json');
  });
});

describe('create-admin CLI (embedded data folder)', function () {
  this.timeout(120_000);
  it('creates an admin that can sign in, reading the password from standard input', async function () {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-cli-'));
    await preparePgliteDir(path.join(dataDir, 'pglite'));
    const env = { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: '' };
    const result = spawnSync(tsx, ['bin/create-admin.ts', '--email', 'cli-admin@example.com'], { cwd: repoRoot, env, input: 'cli-pass-1\n', encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).to.not.match(/Error/);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.match(/Administrator ready: cli-admin@example.com/);
    const app = await startApp({ env: { DATA_DIR: dataDir, WEB_DIST: path.join(os.tmpdir(), 'papertrade-no-web') } }).catch((e) => {
      throw e;
    });
    try {
      const res = await fetch(`${app.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cli-admin@example.com', password: 'cli-pass-1' }),
      });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { user: { isAdmin: boolean } }).user.isAdmin).to.equal(true);
    } finally {
      await app.stop();
    }
  });
});

describe('embedded data folder permissions', function () {
  this.timeout(120_000);
  let app: StartedApp;
  const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
  /** Every entry under `dir` whose mode lets group or others in, as "mode path". */
  const openToOthers = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => !e.isSymbolicLink())
      .map((e) => path.join(e.parentPath, e.name))
      .filter((p) => modeOf(p) & 0o077)
      .map((p) => `${modeOf(p).toString(8)} ${path.relative(dir, p)}`);

  before(async function () {
    app = await startApp({
      env: { LOG: 'on', DEMO_SEED: 'on', WEB_DIST: path.join(os.tmpdir(), 'papertrade-no-web') },
      // A folder as an older version (or a plain mkdir) left it: open to everyone, PGlite's files 0666.
      beforeStart: (dataDir) => {
        fs.chmodSync(dataDir, 0o755);
        expect(openToOthers(dataDir)).to.not.be.empty;
      },
    });
    // Make PGlite write after start too (WAL, new pages): those files must be private as well.
    const res = await fetch(`${app.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'perm@example.com', username: 'perm_user', password: 'secret1', confirmPassword: 'secret1' }),
    });
    expect(res.status).to.equal(201);
  });
  after(async function () {
    await app?.stop();
  });

  it('tightens the folder to 0700 at start, with a log line naming the old mode', function () {
    expect(modeOf(app.dataDir).toString(8)).to.equal('700');
    expect(app.output()).to.match(/data folder was open to other users.*"previousMode":"0755"/);
  });

  it('leaves nothing under it readable by others: the pglite folder, its files, the secrets and the demo accounts', function () {
    expect(modeOf(path.join(app.dataDir, 'pglite')).toString(8)).to.equal('700');
    for (const file of ['jwt-secret', 'market-seed', 'secrets-key', 'demo-accounts.txt']) expect(modeOf(path.join(app.dataDir, file)).toString(8), file).to.equal('600');
    expect(openToOthers(app.dataDir)).to.deep.equal([]);
  });
});
