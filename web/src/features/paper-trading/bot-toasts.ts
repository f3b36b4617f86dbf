/**
 * The bot controls' toasts (spec sections 5, 6 and 8), as pure functions of who clicks, which
 * control and how the call ended, so the exact texts are checked without a browser.
 * Start, pause and reset need login and premium on the client (section 5); the server enforces
 * premium as well, and a failure whose message says 'Premium subscription required' reads as the
 * same Premium Required toast.
 */
import type { ToastInput } from '../../components/ui/toast/toast-slice';
import { ApiError } from '../../lib/api-client';

export type BotAction = 'start' | 'stop' | 'reset';
export type Viewer = 'visitor' | 'free' | 'premium';

const SERVER_PREMIUM_TEXT = 'Premium subscription required';

function loginRequired(action: BotAction): ToastInput {
  return { title: 'Login Required', description: action === 'reset' ? 'Please log in to reset the bot' : 'Please log in to use the trading bot', variant: 'destructive' };
}

function premiumRequired(action: BotAction): ToastInput {
  return {
    title: 'Premium Required',
    description: action === 'reset' ? 'Upgrade to Premium to reset the trading bot' : 'Upgrade to Premium to use the trading bot',
    variant: 'destructive',
  };
}

/** The toast that blocks the click before any call, or null when the viewer may go ahead. */
export function botGateToast(action: BotAction, viewer: Viewer): ToastInput | null {
  if (viewer === 'visitor') return loginRequired(action);
  if (viewer === 'free') return premiumRequired(action);
  return null;
}

export function botSuccessToast(action: BotAction): ToastInput {
  switch (action) {
    case 'start':
      return { title: 'Bot Started', description: 'Trading bot is now active and monitoring markets', variant: 'success' };
    case 'stop':
      return { title: 'Bot Stopped', description: 'Trading bot has been paused safely', variant: 'success' };
    case 'reset':
      return { title: 'Bot Reset Complete', description: 'Trading bot has been reset to default settings', variant: 'success' };
  }
}

const FAILURE_TITLES: Record<BotAction, string> = { start: 'Start Failed', stop: 'Stop Failed', reset: 'Reset Failed' };

/**
 * What the server said: the problem's detail, else the `status: body` message of the API client.
 * A failure that never reached the server (network, aborted) has no server message.
 */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.problem?.detail || error.message || null;
}

export function botFailureToast(action: BotAction, error: unknown): ToastInput {
  const message = serverMessage(error);
  if (message?.includes(SERVER_PREMIUM_TEXT)) return premiumRequired(action);
  return { title: FAILURE_TITLES[action], description: message ?? `Failed to ${action} trading bot`, variant: 'destructive' };
}
