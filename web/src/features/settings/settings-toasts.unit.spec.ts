import { expect } from 'chai';
import { ApiError } from '../../lib/api-client';
import { API_SETTINGS_SAVED, SETTINGS_SAVED, saveFailedToast } from './settings-toasts';

describe('settings toasts', function () {
  it('the spec\'s titles, and the save failures with the server\'s reason', function () {
    expect(SETTINGS_SAVED.title).to.equal('Settings Saved');
    expect(API_SETTINGS_SAVED.title).to.equal('API Settings Saved');
    expect(saveFailedToast('settings', new Error('x')).description).to.equal('Failed to save settings');
    const refused = new ApiError(400, '{}', 'Bad Request', { type: 'about:blank', title: 'Invalid request', status: 400, detail: 'stopLoss: must be at most 20' });
    expect(saveFailedToast('API settings', refused)).to.deep.equal({ title: 'Error', description: 'Failed to save API settings: stopLoss: must be at most 20', variant: 'destructive' });
  });
});
