import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir, octal, restrictTree } from './private-dir';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('private folders (data folder permissions)', function () {
  let root: string;
  let umask: number;
  beforeEach(function () {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-private-'));
    umask = process.umask(0o022); // the usual default, under which plain mkdir gives 0755
  });
  afterEach(function () {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing folder, and its missing parents, owner-only', function () {
    const dir = path.join(root, 'a', 'data');
    expect(ensurePrivateDir(dir)).to.equal(undefined);
    expect(octal(modeOf(dir))).to.equal('0700');
    expect(octal(modeOf(path.join(root, 'a')))).to.equal('0700');
  });

  it('tightens an existing folder open to others and says what it was; leaves a private one alone', function () {
    const dir = path.join(root, 'data');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    expect(ensurePrivateDir(dir)).to.equal(0o755);
    expect(octal(modeOf(dir))).to.equal('0700');
    expect(ensurePrivateDir(dir)).to.equal(undefined);
  });

  it('removes group and other bits from a folder and everything under it, without following links', function () {
    const dir = path.join(root, 'pglite');
    fs.mkdirSync(path.join(dir, 'base', '1'), { recursive: true });
    for (const [file, mode] of [
      ['PG_VERSION', 0o666],
      ['base/1/1259', 0o644],
      ['postmaster.opts', 0o600],
    ] as const) {
      fs.writeFileSync(path.join(dir, file), 'x');
      fs.chmodSync(path.join(dir, file), mode);
    }
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'base'), 0o777);
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'x');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dir, 'link'));

    expect(restrictTree(dir)).to.equal(5);
    expect(octal(modeOf(dir))).to.equal('0700');
    expect(octal(modeOf(path.join(dir, 'base')))).to.equal('0700');
    expect(octal(modeOf(path.join(dir, 'base', '1')))).to.equal('0700');
    expect(octal(modeOf(path.join(dir, 'PG_VERSION')))).to.equal('0600');
    expect(octal(modeOf(path.join(dir, 'base', '1', '1259')))).to.equal('0600');
    expect(octal(modeOf(path.join(dir, 'postmaster.opts')))).to.equal('0600');
    expect(octal(modeOf(outside)), 'a link is not followed').to.equal('0644');
    expect(restrictTree(dir)).to.equal(0);
  });
});
