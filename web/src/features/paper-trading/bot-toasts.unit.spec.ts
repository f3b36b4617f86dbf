import { expect } from 'chai';
import { ApiError } from '../../lib/api-client';
import { botFailureToast, botGateToast, botSuccessToast, serverMessage } from './bot-toasts';

const problem = (status: number, detail: string) =>
  new ApiError(status, JSON.stringify({ title: 'x', status, detail }), 'Forbidden', { type: 'about:blank', title: 'x', status, detail });

describe('paper-trading: bot toasts (spec sections 5, 6 and 8)', () => {
  it('blocks visitors with Login Required, reset with its own text', () => {
    expect(botGateToast('start', 'visitor')).to.include({ title: 'Login Required', description: 'Please log in to use the trading bot' });
    expect(botGateToast('stop', 'visitor')).to.include({ title: 'Login Required', description: 'Please log in to use the trading bot' });
    expect(botGateToast('reset', 'visitor')).to.include({ title: 'Login Required', description: 'Please log in to reset the bot' });
  });

  it('blocks free users with Premium Required, reset with its own text', () => {
    expect(botGateToast('start', 'free')).to.include({ title: 'Premium Required', description: 'Upgrade to Premium to use the trading bot' });
    expect(botGateToast('stop', 'free')).to.include({ title: 'Premium Required', description: 'Upgrade to Premium to use the trading bot' });
    expect(botGateToast('reset', 'free')).to.include({ title: 'Premium Required', description: 'Upgrade to Premium to reset the trading bot' });
  });

  it('lets premium users through', () => {
    for (const action of ['start', 'stop', 'reset'] as const) expect(botGateToast(action, 'premium')).to.equal(null);
  });

  it('says what succeeded in the catalogue words', () => {
    expect(botSuccessToast('start')).to.include({ title: 'Bot Started', description: 'Trading bot is now active and monitoring markets' });
    expect(botSuccessToast('stop')).to.include({ title: 'Bot Stopped', description: 'Trading bot has been paused safely' });
    expect(botSuccessToast('reset')).to.include({ title: 'Bot Reset Complete', description: 'Trading bot has been reset to default settings' });
  });

  it("reads a server refusal mentioning 'Premium subscription required' as Premium Required", () => {
    const refusal = problem(403, 'Premium subscription required to run the trading bot');
    expect(botFailureToast('start', refusal)).to.include({ title: 'Premium Required', description: 'Upgrade to Premium to use the trading bot' });
    expect(botFailureToast('reset', refusal)).to.include({ title: 'Premium Required', description: 'Upgrade to Premium to reset the trading bot' });
    // A body that is not a problem document still counts: the message is `status: body`.
    const plain = new ApiError(403, 'Premium subscription required', 'Forbidden', null);
    expect(botFailureToast('start', plain).title).to.equal('Premium Required');
  });

  it("shows the server's message on other failures, else the fallback", () => {
    expect(botFailureToast('start', problem(409, 'The bot is already running'))).to.include({ title: 'Start Failed', description: 'The bot is already running' });
    expect(botFailureToast('stop', new ApiError(500, '', 'Internal Server Error', null))).to.include({ title: 'Stop Failed', description: '500: Internal Server Error' });
    expect(botFailureToast('start', new TypeError('Failed to fetch'))).to.include({ title: 'Start Failed', description: 'Failed to start trading bot' });
    expect(botFailureToast('stop', new TypeError('Failed to fetch'))).to.include({ title: 'Stop Failed', description: 'Failed to stop trading bot' });
    expect(botFailureToast('reset', undefined)).to.include({ title: 'Reset Failed', description: 'Failed to reset trading bot' });
    expect(serverMessage(new Error('not from the server'))).to.equal(null);
  });
});
