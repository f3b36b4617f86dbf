/**
 * The AI chat window in real Chromium against the embedded app (issue 20; spec sections 2, 4, 5, 8):
 *
 * With the grounded assistant (the default):
 * - closed round button, open window; a visitor reads 'Please log in to use the AI chat feature' and
 *   a free user 'AI Chat is a premium feature. Please upgrade to access it.', the text box disabled;
 * - a premium user, by keyboard alone: the button opens the window with the focus in the text box,
 *   Shift+Enter makes a new line, a blank message is not sent, Enter sends; the answer's figures link
 *   to their screens (one followed); Escape closes and the focus is back on the button;
 * - readable at 390 px (inside the viewport, no sideways scrolling), no serious axe violation.
 *
 * With an OpenAI-compatible endpoint (a local fake in this process, CHAT_API_URL), whose replies the
 * test holds or scripts: the thinking state while a reply is pending with sending blocked, the
 * failure text when the model fails, the apology for an empty reply, and the last five messages sent
 * as history.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { FakeChatServer } from '@papertrade/platform/assistant/fake-chat-server';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { callAs, getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'chat-e2e-admin@example.com', password: 'chat-e2e-admin-pass' };
const VISITOR_ALERT = 'Please log in to use the AI chat feature';
const FREE_ALERT = 'AI Chat is a premium feature. Please upgrade to access it.';
const FAILURE = "I'm sorry, I'm having trouble connecting to the AI service right now. Please try again later.";
const EMPTY = 'I apologize, but I encountered an error. Please try again.';

/** Helpers shared by both suites, on the suite's app and page. */
function chatPage(get: () => { app: StartedApp; page: Page }) {
  const page = () => get().page;
  const app = () => get().app;
  return {
    launcher: () => page().getByTestId('chat-button'),
    window: () => page().getByTestId('chat-window'),
    input: () => page().getByTestId('chat-input'),
    send: () => page().getByTestId('chat-send'),
    answers: () => page().getByTestId('chat-message-assistant'),
    questions: () => page().getByTestId('chat-message-user'),
    thinking: () => page().getByTestId('chat-thinking'),
    async user(premium: boolean): Promise<string> {
      const user = uniqueUser(premium ? 'chatp' : 'chatf');
      const { userId } = await signUpViaApi(app().url, user);
      if (premium) {
        const adminToken = await logInViaApi(app().url, ADMIN.email, ADMIN.password);
        await callAs(app().url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
      }
      const token = await logInViaApi(app().url, user.email, user.password);
      if (premium) {
        await waitUntil(async () => ((await getViaApi(app().url, '/api/auth/me', { Authorization: `Bearer ${token}` })) as { subscriptionTier: string }).subscriptionTier === 'PREMIUM', {
          message: 'the user to read as premium',
        });
      }
      return token;
    },
    async signIn(token: string) {
      await page().goto('/landing');
      await page().evaluate((t) => localStorage.setItem('authToken', t), token);
      await page().goto('/');
      await page().getByTestId('dashboard-layout').waitFor();
    },
    /** Opens the window from the keyboard: Tab to the button would cross the whole dashboard, so it is focused, then Enter. */
    async openByKeyboard() {
      await this.launcher().focus();
      await page().keyboard.press('Enter');
      await this.window().waitFor();
    },
    async ask(text: string) {
      await this.input().fill(text);
      await page().keyboard.press('Enter');
    },
  };
}

describe('web: the AI chat window with the grounded assistant (e2e)', function () {
  this.timeout(240_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, HOUSE_MODEL: 'off' } });
  let page: Page;
  beforeEach(() => ({ page } = suite));
  const chat = chatPage(() => suite);

  it("a visitor: the round button opens the window with the spec's alert and a disabled text box; Escape closes it and returns the focus", async function () {
    await page.goto('/');
    expect(await chat.launcher().getAttribute('aria-expanded')).to.equal('false');
    expect(await chat.window().count()).to.equal(0);
    await chat.openByKeyboard();
    expect(await chat.launcher().getAttribute('aria-expanded')).to.equal('true');
    const alert = chat.window().getByRole('alert');
    expect(await alert.textContent()).to.contain(VISITOR_ALERT);
    expect(await alert.getByRole('link', { name: 'Log in' }).getAttribute('href')).to.equal('/login');
    expect(await chat.input().isDisabled()).to.equal(true);
    expect(await chat.send().isDisabled()).to.equal(true);
    // The focus went to the alert's link (the text box is disabled).
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Log in');
    expect(await seriousViolations(page, 'chat window, visitor')).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await chat.window().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('chat-button');
  });

  it("a free user: 'AI Chat is a premium feature. Please upgrade to access it.', the text box disabled, the way to upgrade", async function () {
    await chat.signIn(await chat.user(false));
    await chat.launcher().click();
    const alert = chat.window().getByRole('alert');
    expect(await alert.textContent()).to.contain(FREE_ALERT);
    expect(await alert.getByRole('link', { name: 'Upgrade to Premium' }).getAttribute('href')).to.equal('/subscription');
    expect(await chat.input().isDisabled()).to.equal(true);
    await chat.window().getByRole('button', { name: 'Close AI chat' }).click();
    await chat.window().waitFor({ state: 'detached' });
  });

  it('a premium user, by keyboard: Shift+Enter is a new line, a blank message is not sent, Enter sends; figures link to their screens', async function () {
    await chat.signIn(await chat.user(true));
    await chat.openByKeyboard();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('chat-input');
    expect(await chat.window().textContent()).to.contain('Conversations are not stored on the server');

    await page.keyboard.type('How is my');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('portfolio?');
    expect(await chat.input().inputValue()).to.equal('How is my\nportfolio?');
    expect(await chat.questions().count()).to.equal(0);
    await chat.input().fill('   \n  ');
    await page.keyboard.press('Enter');
    expect(await chat.send().isDisabled()).to.equal(true);
    expect(await chat.questions().count()).to.equal(0);

    await chat.ask('How is my portfolio?');
    await chat.answers().first().waitFor();
    expect(await chat.questions().first().textContent()).to.contain('How is my portfolio?');
    expect(await chat.input().inputValue()).to.equal('');
    const answer = (await chat.answers().first().textContent())!;
    expect(answer).to.contain('Your paper portfolio is worth $10,000.00: $10,000.00 in cash and $0.00 in 0 open positions.');
    const worth = chat.answers().first().locator('a.chat-figure', { hasText: '$10,000.00' }).first();
    expect(await worth.getAttribute('href')).to.equal('/');

    await chat.ask('What are my risk settings?');
    await chat.answers().nth(1).waitFor();
    const stop = chat.answers().nth(1).locator('a.chat-figure[data-fact="risk.maxDailyLoss"]');
    expect(await stop.textContent()).to.equal('$500.00');
    expect(await stop.getAttribute('href')).to.equal('/risk-management');
    expect(await seriousViolations(page, 'chat window, premium, with answers')).to.deep.equal([]);
    await screenshot(page, 'ai-chat-premium');
    await stop.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/risk-management');
  });

  it('readable at 390 px: the window and its text box inside the viewport, no sideways scrolling', async function () {
    await page.setViewportSize({ width: 390, height: 844 });
    await chat.signIn(await chat.user(true));
    await chat.launcher().click();
    await chat.ask('What is a trailing stop?');
    await chat.answers().first().waitFor();
    for (const part of [chat.window(), chat.input(), chat.send(), chat.answers().first()]) {
      const box = (await part.boundingBox())!;
      expect(box.x, 'left edge').to.be.at.least(0);
      expect(box.x + box.width, 'right edge').to.be.at.most(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    const font = await chat.answers().first().evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(font).to.be.at.least(12);
    await screenshot(page, 'ai-chat-390');
  });
});

describe('web: the AI chat window with a language model that the test holds (e2e)', function () {
  this.timeout(240_000);
  let fake: FakeChatServer;
  const env: Record<string, string> = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, HOUSE_MODEL: 'off', CHAT_MODEL: 'fake-model-1', CHAT_TIMEOUT_MS: '60000' };
  before(async function () {
    fake = await FakeChatServer.start();
    env.CHAT_API_URL = fake.url;
    env.CHAT_API_KEY = fake.apiKey;
  });
  after(async function () {
    await fake?.stop();
  });
  const suite = useBrowserSuite({ env });
  let page: Page;
  beforeEach(() => ({ page } = suite));
  const chat = chatPage(() => suite);

  it('thinking while the reply is pending, sending blocked meanwhile; then the answer', async function () {
    await chat.signIn(await chat.user(true));
    fake.script(() => ({ hang: true }));
    const before = fake.requests.length;
    await chat.launcher().click();
    await chat.ask('How is my portfolio?');
    await chat.thinking().waitFor();
    expect(await chat.window().getByTestId('chat-messages').getAttribute('aria-busy')).to.equal('true');
    await waitUntil(() => fake.held === 1, { message: 'the model to hold the request' });
    await chat.input().fill('Another question');
    expect(await chat.send().isDisabled()).to.equal(true);
    await page.keyboard.press('Enter');
    expect(await chat.questions().count()).to.equal(1);
    expect(await chat.input().inputValue()).to.equal('Another question');
    await screenshot(page, 'ai-chat-thinking');
    fake.release();
    await chat.thinking().waitFor({ state: 'detached' });
    expect(await chat.answers().first().textContent()).to.contain('Released.');
    expect(fake.requests.length - before).to.equal(1);
  });

  it('the failure text when the model fails, the apology for an empty reply', async function () {
    await chat.signIn(await chat.user(true));
    await chat.launcher().click();
    fake.script(() => ({ status: 500, error: { message: 'boom', type: 'server_error' } }));
    await chat.ask('How is my portfolio?');
    await chat.answers().first().waitFor();
    expect(await chat.answers().first().textContent()).to.contain(FAILURE);
    expect(await chat.answers().first().getAttribute('data-kind')).to.equal('failure');
    fake.script(() => ({ content: '' }));
    await chat.ask('And now?');
    await chat.answers().nth(1).waitFor();
    expect(await chat.answers().nth(1).textContent()).to.contain(EMPTY);
    expect(await chat.answers().nth(1).getAttribute('data-kind')).to.equal('empty');
  });

  it('the last five messages go as history with each question', async function () {
    await chat.signIn(await chat.user(true));
    await chat.launcher().click();
    fake.script((request) => ({ content: `Answer to ${request.body.messages!.filter((m) => m.role === 'user').at(-1)!.content}` }));
    for (const [i, q] of ['first', 'second', 'third', 'fourth'].entries()) {
      await chat.ask(q);
      await chat.answers().nth(i).waitFor();
    }
    const last = fake.requests.at(-1)!.body.messages!;
    // System, then the five messages before the question (oldest first), then the question.
    const conversation = last.filter((m) => m.role === 'user' || (m.role === 'assistant' && typeof m.content === 'string'));
    expect(conversation.map((m) => `${m.role}: ${m.content}`)).to.deep.equal([
      'assistant: Answer to first',
      'user: second',
      'assistant: Answer to second',
      'user: third',
      'assistant: Answer to third',
      'user: fourth',
    ]);
  });
});
