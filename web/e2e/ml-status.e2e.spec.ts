/**
 * The ML model status panel in real Chromium on the embedded app (issue 19). The app's workers train
 * the house model on first start (a long job), and a signed-in user's Create / Retrain run as long
 * jobs in the same process: the POST answers at once, and the toast comes when the job ends (the
 * socket's ML_UPDATE, then GET /api/ml-status).
 * - A visitor sees the house model: 'Never' (or training) until it ends, then its held-out accuracy
 *   with the High / Medium / Low text and, beside it, the baseline, interval and verdict; a visitor's
 *   Retrain is refused by the server (401) and reads 'Retrain Failed'.
 * - A user opens Create New Model (select defaulting to Neural Network, Create and Cancel), cancels,
 *   creates a Logistic Regression model: 'Model Created' ('New Logistic Regression model created with
 *   N% accuracy') when the job ends, the panel shows their own model; Retrain Model: 'Model Retrained'
 *   ('New accuracy: N%'). No serious axe violation with the form open.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const TRAINING_BOUND_MS = 120_000;

describe('web: the ML model status panel (e2e)', function () {
  this.timeout(300_000);
  const suite = useBrowserSuite();
  let app: StartedApp;
  let page: Page;
  beforeEach(() => ({ app, page } = suite));

  const panel = () => page.getByTestId('ml-status-panel');

  it('a visitor sees the house model, then its measured accuracy beside the baseline; Retrain is refused by the server', async () => {
    await page.goto('/');
    await panel().getByTestId('ml-owner').filter({ hasText: 'House model' }).waitFor();
    // Trained by the workers on first start; until then 'Never'.
    await panel().getByTestId('ml-baseline').waitFor({ timeout: TRAINING_BOUND_MS });
    expect(await panel().getByTestId('ml-model-type').textContent()).to.equal('Neural Network');
    expect(await panel().getByTestId('ml-training-days').textContent()).to.equal('30 days');
    expect(await panel().getByTestId('ml-accuracy').textContent()).to.match(/^\d{1,3}\.\d% \((High|Medium|Low)\)$/);
    expect(await panel().getByTestId('ml-baseline').textContent()).to.match(/^Baseline \d{1,3}\.\d% · 95% interval \d{1,3}\.\d%–\d{1,3}\.\d% · (Edge|No edge)$/);
    expect(await panel().getByTestId('ml-last-update').textContent()).not.to.equal('Never');
    await panel().getByRole('button', { name: 'Retrain Model' }).click();
    const toast = await expectToast(page, 'Retrain Failed');
    expect(toast.description).to.match(/^Authentication required/);
  });

  it('a user creates a model (form: select, Create, Cancel) and retrains it; each toast comes when its job ends', async () => {
    const user = uniqueUser('mlweb');
    await signUpViaApi(app.url, user);
    const token = await logInViaApi(app.url, user.email, user.password);
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto('/');
    await page.getByTestId('connection-status').filter({ hasText: 'Live Data' }).waitFor();

    await panel().getByRole('button', { name: 'Create New Model' }).click();
    const form = panel().getByTestId('ml-create-form');
    await form.waitFor();
    const select = form.getByLabel('Model type');
    expect(await select.inputValue()).to.equal('neural_network');
    expect(await select.locator('option').allTextContents()).to.deep.equal(['Neural Network', 'Gradient Boosting', 'Logistic Regression']);
    expect(await seriousViolations(page, 'ML create form')).to.deep.equal([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    await panel().getByRole('button', { name: 'Create New Model' }).click();
    await panel().getByTestId('ml-create-form').getByLabel('Model type').selectOption('logistic_regression');
    await panel().getByTestId('ml-create-form').getByRole('button', { name: 'Create' }).click();
    // The POST answered at once: the form closed, the panel shows the user's own model in training.
    await panel().getByTestId('ml-create-form').waitFor({ state: 'detached' });
    await panel().getByTestId('ml-owner').filter({ hasText: 'Your model' }).waitFor();
    const created = page.getByTestId('toast').filter({ hasText: 'Model Created' });
    await created.waitFor({ timeout: TRAINING_BOUND_MS });
    const createdText = await created.getByTestId('toast-description').textContent();
    expect(createdText).to.match(/^New Logistic Regression model created with \d{1,3}\.\d% accuracy$/);
    await panel().getByTestId('ml-model-type').filter({ hasText: 'Logistic Regression' }).waitFor();
    expect(await panel().getByTestId('ml-training-days').textContent()).to.equal('30 days');
    const accuracy = (await panel().getByTestId('ml-accuracy').textContent())!;
    expect(createdText).to.contain(accuracy.split(' ')[0]!);
    await panel().getByTestId('ml-baseline').waitFor();
    await screenshot(page, 'ml-status-created');

    await panel().getByRole('button', { name: 'Retrain Model' }).click();
    const retrained = page.getByTestId('toast').filter({ hasText: 'Model Retrained' });
    await retrained.waitFor({ timeout: TRAINING_BOUND_MS });
    expect(await retrained.getByTestId('toast-description').textContent()).to.match(/^New accuracy: \d{1,3}\.\d%$/);
  });
});
