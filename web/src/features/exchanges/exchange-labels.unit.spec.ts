import { expect } from 'chai';
import { canTestConnection, draftComplete, statusLabel, testnetNote } from './exchange-labels';

const empty = { apiKey: '', secretKey: '', passphrase: '' };

describe('exchange labels', function () {
  it('Test Connection is disabled unless both keys are filled, typed or saved (and Coinbase\'s passphrase)', function () {
    expect(canTestConnection({ needsPassphrase: false, configured: false }, empty)).to.equal(false);
    expect(canTestConnection({ needsPassphrase: false, configured: false }, { ...empty, apiKey: 'k' })).to.equal(false);
    expect(canTestConnection({ needsPassphrase: false, configured: false }, { ...empty, apiKey: 'k', secretKey: 's' })).to.equal(true);
    expect(canTestConnection({ needsPassphrase: true, configured: false }, { ...empty, apiKey: 'k', secretKey: 's' })).to.equal(false);
    expect(canTestConnection({ needsPassphrase: true, configured: false }, { apiKey: 'k', secretKey: 's', passphrase: 'p' })).to.equal(true);
    // Saved keys (never sent back) count as filled while nothing new is typed; a half-typed new pair does not.
    expect(canTestConnection({ needsPassphrase: false, configured: true }, empty)).to.equal(true);
    expect(canTestConnection({ needsPassphrase: false, configured: true }, { ...empty, apiKey: 'new' })).to.equal(false);
    expect(draftComplete({ needsPassphrase: false }, { ...empty, apiKey: '  ', secretKey: 's' })).to.equal(false);
  });

  it('says what each connection is', function () {
    expect(statusLabel('connected')).to.equal('Connected');
    expect(statusLabel('error')).to.equal('Error');
    expect(statusLabel('disconnected')).to.equal('Disconnected');
    expect(testnetNote({ name: 'Kraken', testnetAvailable: false, testnet: false })).to.match(/^Kraken has no testnet: the connection is read-only/);
    expect(testnetNote({ name: 'Binance', testnetAvailable: true, testnet: true })).to.match(/^Testnet/);
    expect(testnetNote({ name: 'Binance', testnetAvailable: true, testnet: false })).to.match(/^Live account: read-only/);
  });
});
