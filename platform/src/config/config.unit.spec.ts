/** The AI chat's settings (issue 20): the grounded assistant unless CHAT_API_URL is set, and then CHAT_MODEL with it. */
import { expect } from 'chai';
import { loadConfig } from './config';

describe('config: the AI chat', () => {
  it('defaults: no language model (the grounded assistant), 20 questions a minute per user, 20 s per reply', () => {
    const config = loadConfig({});
    expect(config).to.deep.include({ CHAT_TIMEOUT_MS: 20_000, CHAT_MAX_PER_USER: 20, CHAT_WINDOW_MS: 60_000 });
    expect(config.CHAT_API_URL).to.equal(undefined);
    expect(loadConfig({ CHAT_API_URL: '', CHAT_API_KEY: '' }).CHAT_API_URL).to.equal(undefined);
  });

  it('CHAT_API_URL needs CHAT_MODEL, and must be an http(s) URL', () => {
    expect(() => loadConfig({ CHAT_API_URL: 'http://127.0.0.1:1234/v1' })).to.throw(/CHAT_MODEL is required with CHAT_API_URL/);
    expect(() => loadConfig({ CHAT_API_URL: 'ftp://example.com', CHAT_MODEL: 'm' })).to.throw(/CHAT_API_URL/);
    expect(loadConfig({ CHAT_API_URL: 'https://api.example.com/v1', CHAT_MODEL: 'gpt-4o-mini', CHAT_API_KEY: 'sk-x' })).to.deep.include({ CHAT_MODEL: 'gpt-4o-mini' });
  });
});
