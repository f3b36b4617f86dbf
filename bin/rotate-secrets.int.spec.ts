/**
 * `npm run rotate-secrets` as a program on an embedded data folder (PGlite): every stored exchange
 * secret is re-encrypted under a new key that replaces the folder's `secrets-key` (0600); the old key
 * no longer opens them and the new one does; nothing secret is printed; a run cut short resumes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EXCHANGE_SECRETS_COLLECTION, SecretVault } from '@papertrade/platform/secrets/secret-vault';
import { generateSecretsKeyText, parseSecretsKey, SECRETS_KEY_FILE } from '@papertrade/platform/secrets/secrets-key';
import { createRuntime } from './compose';
import { NEXT_KEY_FILE } from './rotate-secrets';
import { preparePgliteDir } from '../test/pglite';

function runProgram(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/rotate-secrets.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run rotate-secrets (the program, embedded)', function () {
  this.timeout(120_000);
  let dataDir: string;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', JWT_SECRET: 'rotate-secret-rotate-secret-rotate!!', SECRETS_KEY: '', NEW_SECRETS_KEY: '', EVENT_STORE: 'pglite', READ_STORE: 'pglite' });
  const credentials = [
    { userId: 'u1', exchangeId: 'binance', creds: { apiKey: 'rotate-key-0001', secret: 'rotate-secret-0001' } },
    { userId: 'u2', exchangeId: 'coinbase', creds: { apiKey: 'rotate-key-0002', secret: 'rotate-secret-0002', passphrase: 'rotate-pass' } },
  ];
  const refs: string[] = [];

  async function withRuntime<T>(fn: (rt: Awaited<ReturnType<typeof createRuntime>>) => Promise<T>): Promise<T> {
    const rt = await createRuntime('test', { embedded: true, env: env(), holdsSecrets: true });
    try {
      return await fn(rt);
    } finally {
      await rt.infra.close();
    }
  }

  before(async function () {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-rotate-'));
    await preparePgliteDir(path.join(dataDir, 'pglite'));
    await withRuntime(async (rt) => {
      for (const { userId, exchangeId, creds } of credentials) refs.push(await rt.exchangeSecrets().store(userId, exchangeId, creds));
    });
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('re-encrypts every record under a new key that replaces the data folder\'s, printing no key', async function () {
    const keyFile = path.join(dataDir, SECRETS_KEY_FILE);
    const oldKey = parseSecretsKey(fs.readFileSync(keyFile, 'utf8'));
    const before = await withRuntime(async (rt) => JSON.stringify(await rt.infra.documents.collection(EXCHANGE_SECRETS_COLLECTION).find({})));
    const run = await runProgram(env());
    expect(run.stderr).to.equal('');
    expect(run.status).to.equal(0);
    expect(run.stdout).to.match(/^Re-encrypted 2 stored secret\(s\) \(0 already under the new key\)/);
    const newText = fs.readFileSync(keyFile, 'utf8');
    expect(run.stdout).not.to.contain(newText);
    expect(run.stdout).not.to.contain(oldKey.toString('hex'));
    expect(fs.statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(fs.existsSync(path.join(dataDir, NEXT_KEY_FILE))).to.equal(false);
    const newKey = parseSecretsKey(newText);
    expect(newKey.equals(oldKey)).to.equal(false);
    await withRuntime(async (rt) => {
      const docs = rt.infra.documents;
      expect(JSON.stringify(await docs.collection(EXCHANGE_SECRETS_COLLECTION).find({}))).not.to.equal(before);
      // The runtime reads the folder's key: now the new one.
      for (const [i, { userId, exchangeId, creds }] of credentials.entries()) expect(await rt.exchangeSecrets().read(refs[i]!, userId, exchangeId)).to.deep.equal(creds);
      let error: unknown;
      await new SecretVault(docs, oldKey).read(refs[0]!, 'u1', 'binance').catch((e: unknown) => (error = e));
      expect(String(error)).to.match(/another SECRETS_KEY/);
    });
  });

  it('a run cut short (its .next key written, some records rotated) is finished by running it again', async function () {
    const nextText = generateSecretsKeyText();
    fs.writeFileSync(path.join(dataDir, NEXT_KEY_FILE), nextText, { mode: 0o600 });
    // Half done: one record already under the next key.
    await withRuntime(async (rt) => {
      const current = parseSecretsKey(fs.readFileSync(path.join(dataDir, SECRETS_KEY_FILE), 'utf8'));
      const docs = rt.infra.documents.collection<{ ref: string }>(EXCHANGE_SECRETS_COLLECTION);
      const all = await docs.find({});
      await docs.delete(all[1]!.ref);
      await new SecretVault(rt.infra.documents, current).rotateTo(parseSecretsKey(nextText));
      await docs.put(all[1]!.ref, all[1]!);
    });
    const run = await runProgram(env());
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^Re-encrypted 1 stored secret\(s\) \(1 already under the new key\)/);
    expect(fs.readFileSync(path.join(dataDir, SECRETS_KEY_FILE), 'utf8')).to.equal(nextText);
    await withRuntime(async (rt) => {
      for (const [i, { userId, exchangeId, creds }] of credentials.entries()) expect(await rt.exchangeSecrets().read(refs[i]!, userId, exchangeId)).to.deep.equal(creds);
    });
  });

  it('outside the embedded mode both keys are required (exit 2)', async function () {
    const run = await runProgram({ ...env(), EVENT_STORE: 'postgres', READ_STORE: 'postgres', DATABASE_URL: 'postgres://127.0.0.1:1/none', SECRETS_KEY: generateSecretsKeyText() });
    expect(run.status).to.equal(2);
    expect(run.stderr).to.match(/NEW_SECRETS_KEY .* is required outside the embedded mode/);
  });
});
