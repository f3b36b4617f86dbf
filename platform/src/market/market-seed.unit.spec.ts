/**
 * The market seed: from MARKET_SEED when set; generated once into the embedded data folder (0600,
 * the folder 0700) and read back on every later start; refused outside the embedded mode when the
 * market is simulated and no seed is given; the domain's key is its SHA-256 digest.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MARKET_SEED_FILE, marketKeyFromSeed, resolveMarketSeed } from './market-seed';

describe('market seed', function () {
  let dir: string;
  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-seed-'));
  });
  afterEach(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is generated into a new embedded data folder, readable by its owner only, and the same on every later start', function () {
    const dataDir = path.join(dir, 'data');
    const seed = resolveMarketSeed({ MARKET_DATA: 'simulated', DATA_DIR: dataDir }, { embedded: true })!;
    const file = path.join(dataDir, MARKET_SEED_FILE);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(fs.statSync(dataDir).mode & 0o777).to.equal(0o700);
    expect(seed).to.equal(fs.readFileSync(file, 'utf8'));
    expect(seed).to.match(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    expect(resolveMarketSeed({ MARKET_DATA: 'simulated', DATA_DIR: dataDir }, { embedded: true })).to.equal(seed);
    // Another deployment draws another seed.
    expect(resolveMarketSeed({ MARKET_DATA: 'simulated', DATA_DIR: path.join(dir, 'other') }, { embedded: true })).to.not.equal(seed);
  });

  it('comes from MARKET_SEED when set, in any mode, and then no file is written', function () {
    const given = 'a seed from the environment';
    expect(resolveMarketSeed({ MARKET_DATA: 'simulated', MARKET_SEED: given, DATA_DIR: dir }, { embedded: true })).to.equal(given);
    expect(resolveMarketSeed({ MARKET_DATA: 'simulated', MARKET_SEED: given, DATA_DIR: dir }, { embedded: false })).to.equal(given);
    expect(fs.existsSync(path.join(dir, MARKET_SEED_FILE))).to.equal(false);
  });

  it('is required outside the embedded mode when the market is simulated, and not needed for CoinGecko', function () {
    expect(() => resolveMarketSeed({ MARKET_DATA: 'simulated', DATA_DIR: dir }, { embedded: false })).to.throw(/MARKET_SEED is required outside the embedded mode/);
    expect(fs.existsSync(path.join(dir, MARKET_SEED_FILE))).to.equal(false);
    expect(resolveMarketSeed({ MARKET_DATA: 'coingecko', DATA_DIR: dir }, { embedded: false })).to.equal(undefined);
    expect(resolveMarketSeed({ MARKET_DATA: 'coingecko', DATA_DIR: dir }, { embedded: true })).to.equal(undefined);
  });

  it('refuses a seed file that holds no usable seed', function () {
    fs.writeFileSync(path.join(dir, MARKET_SEED_FILE), 'short\n', { mode: 0o600 });
    expect(() => resolveMarketSeed({ MARKET_DATA: 'simulated', DATA_DIR: dir }, { embedded: true })).to.throw(/holds no usable market seed/);
  });

  it("turns a seed into the market's key by SHA-256, and refuses a short one", function () {
    const seed = 'the seven seas market seed';
    const digest = createHash('sha256').update(seed).digest();
    expect(Array.from(marketKeyFromSeed(seed))).to.deep.equal(Array.from({ length: 8 }, (_, i) => digest.readUInt32LE(4 * i)));
    expect(Array.from(marketKeyFromSeed(`${seed}.`))).to.not.deep.equal(Array.from(marketKeyFromSeed(seed)));
    expect(() => marketKeyFromSeed('fifteen chars..')).to.throw(RangeError);
  });
});
