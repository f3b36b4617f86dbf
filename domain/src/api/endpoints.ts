/**
 * Every HTTP endpoint of the app, command-api's and query-api's, as contracts (contract.ts). The
 * schemas are the slices' own (domain/src/<slice>/contracts.ts) or shared.ts's: the objects the
 * routes validate with, imported here, never copied. openapi.ts builds GET /api/openapi.json from
 * this list, and query-api/src/openapi/openapi-api.int.spec.ts fails when a registered route is
 * missing here, when an endpoint listed here is not registered, or when a GET answers CSV and its
 * contract does not say so (or the reverse).
 */
import { strategiesResponseSchema as aiStrategiesResponseSchema, strategyCommandResponseSchema, strategyIdSchema, strategyPerformanceResponseSchema, strategySignalsResponseSchema, strategyBacktestRequestSchema, strategyBacktestResponseSchema, toggleStrategyRequestSchema } from '../strategies/contracts';
import { arbitrageConfigurationSchema, neuralConfigurationSchema, technicalConfigurationSchema } from '../strategies/strategy-catalogue';
import { z } from 'zod';
import { CHAT_HISTORY_MAX, CHAT_MESSAGE_MAX_CHARS, chatRequestSchema, chatResponseSchema } from '../assistant/contracts';
import { MAX_BACKTEST_DAYS, backtestHistoryResponseSchema, backtestRequestSchema, comparePaperReportSchema, strategiesResponseSchema, walkForwardRequestSchema } from '../backtest/contracts';
import { backtestDetailSchema, backtestIdSchema, backtestJobResponseSchema, backtestTradesPageSchema, backtestTradesQuerySchema } from '../backtest/service-contracts';
import { createModelRequestSchema, mlStatusResponseSchema, modelTypesResponseSchema, trainingJobResponseSchema } from '../ml/contracts';
import { adminSetAuditorRequestSchema, adminSetAuditorResponseSchema, adminStatsSchema, adminUpdateUserRequestSchema, adminUpdateUserResponseSchema, adminUsersQuerySchema, adminUsersResponseSchema } from '../admin/contracts';
import {
  asOfQuerySchema,
  portfolioAsOfResponseSchema,
  streamNameSchema,
  streamQuerySchema,
  streamResponseSchema,
  subscriptionAsOfResponseSchema,
  timelineQuerySchema,
  timelineResponseSchema,
  userIdSchema,
} from '../audit/contracts';
import { loginRequestSchema, loginResponseSchema, meSchema, signupRequestSchema, signupResponseSchema } from '../auth/contracts';
import {
  chartQuerySchema,
  coinPriceResponseSchema,
  coinPricesResponseSchema,
  coinSummaryResponseSchema,
  historyResponseSchema,
  ohlcResponseSchema,
  priceQuerySchema,
  supportedCoinsResponseSchema,
} from '../market/contracts';
import { coinIdSchema } from '../market/coins';
import { plansResponseSchema } from '../plans/contracts';
import { publicStatsSchema } from '../public-stats/contracts';
import { SIGNAL_CONFIDENCE_DESCRIPTION, indicatorsQuerySchema, indicatorsResponseSchema, signalsQuerySchema, signalsResponseSchema } from '../signals/contracts';
import {
  billingHistoryResponseSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  checkoutSessionIdSchema,
  emptyRequestSchema,
  paymentSuccessRequestSchema,
  paymentSuccessResponseSchema,
  subscriptionChangeResponseSchema,
  subscriptionResponseSchema,
  upgradeRequestSchema,
} from '../subscription/contracts';
import {
  acknowledgeAlertResponseSchema,
  botCommandResponseSchema,
  botSettingsRequestSchema,
  botSettingsResponseSchema,
  clearAlertsResponseSchema,
  placeTradeRequestSchema,
  placeTradeResponseSchema,
  riskParametersChangeResponseSchema,
  riskParametersSchema,
} from '../trading/contracts';
import {
  activeRiskTradesResponseSchema,
  botDecisionsResponseSchema,
  portfolioResponseSchema,
  riskAlertsResponseSchema,
  riskParametersResponseSchema,
  riskResponseSchema,
  tradesQuerySchema,
  tradesResponseSchema,
} from '../trading/read-contracts';
import {
  exchangeConfigRequestSchema,
  exchangeConfigResponseSchema,
  exchangeIdParamSchema,
  exchangeMirrorRequestSchema,
  exchangeMirrorResponseSchema,
  exchangeTestResponseSchema,
  exchangesResponseSchema,
  mirrorOrdersResponseSchema,
} from '../exchanges/contracts';
import {
  accountSettingsResponseSchema,
  apiSettingsRequestSchema,
  apiSettingsResponseSchema,
  notificationSettingsRequestSchema,
  notificationSettingsResponseSchema,
} from '../settings/contracts';
import { endpoint, type EndpointContract } from './contract';
import { alertIdSchema, healthResponseSchema, noBodySchema, noQuerySchema, userIdParamSchema } from './shared';

const command = { service: 'command-api', idempotencyKey: true } as const;
const query = { service: 'query-api', method: 'get' } as const;

// ---------------------------------------------------------------------------------------------
// Auth

export const signup = endpoint({
  ...command,
  method: 'post',
  path: '/api/auth/signup',
  tag: 'Auth',
  summary: 'Create an account',
  description: 'Registers a free account. 409 when the email or username is taken; 429 past the sign-up limits per address.',
  access: 'public',
  body: { schema: signupRequestSchema, required: true },
  success: { status: 201, description: 'The new user id and the position of its events', schema: signupResponseSchema },
  errors: [409, 429],
});

export const login = endpoint({
  service: 'command-api',
  method: 'post',
  path: '/api/auth/login',
  tag: 'Auth',
  summary: 'Sign in',
  description: "Answers a bearer token (send it as `Authorization: Bearer <token>`) and the user's profile. 401 'Invalid email or password'; 429 past the sign-in limits.",
  access: 'public',
  body: { schema: loginRequestSchema, required: true },
  success: { status: 200, description: 'A token and the profile', schema: loginResponseSchema },
  errors: [401, 429, 503],
});

export const logout = endpoint({
  service: 'command-api',
  method: 'post',
  path: '/api/auth/logout',
  tag: 'Auth',
  summary: 'Sign out',
  description: 'Tokens are stateless: the client forgets its token.',
  access: 'public',
  success: { status: 204, description: 'Signed out' },
});

export const me = endpoint({
  ...query,
  path: '/api/auth/me',
  tag: 'Auth',
  summary: 'The signed-in user',
  access: 'signed-in',
  minPosition: true,
  success: { status: 200, description: 'The profile', schema: meSchema },
});

// ---------------------------------------------------------------------------------------------
// Admin

const adminUserParams = { id: userIdParamSchema } as const;

export const adminUsers = endpoint({
  ...query,
  path: '/api/admin/users',
  tag: 'Admin',
  summary: 'Search and page the users',
  description:
    'A search is a prefix of the email, username, full name or last name; newest first. JSON, or CSV with ?format=csv or Accept: text/csv: with page or pageSize that page, otherwise every match (at most 10,000 rows; X-Csv-Truncated: true when cut).',
  access: 'admin-or-auditor',
  query: adminUsersQuerySchema,
  minPosition: true,
  success: {
    status: 200,
    description: 'One page of users',
    schema: adminUsersResponseSchema,
    csv: 'One row per user (id, username, email, firstName, lastName, subscriptionTier, subscriptionStatus, isAdmin, isAuditor, createdAt), with a header row',
    headers: { 'X-Total-Count': 'The number of users matching the search and filters' },
  },
});

export const adminStats = endpoint({
  ...query,
  path: '/api/admin/stats',
  tag: 'Admin',
  summary: 'The Admin Panel counters',
  access: 'admin-or-auditor',
  minPosition: true,
  success: { status: 200, description: 'Total users, premium users, active subscriptions, new this month', schema: adminStatsSchema },
});

export const adminUpdateUser = endpoint({
  ...command,
  method: 'put',
  path: '/api/admin/users/{id}',
  tag: 'Admin',
  summary: "Edit a user's profile, tier and status",
  access: 'admin',
  params: adminUserParams,
  body: { schema: adminUpdateUserRequestSchema, required: true },
  success: { status: 200, description: 'The user id and the position of the last event appended', schema: adminUpdateUserResponseSchema },
  errors: [404, 409],
});

export const adminSetAuditor = endpoint({
  ...command,
  method: 'put',
  path: '/api/admin/users/{id}/auditor',
  tag: 'Admin',
  summary: 'Grant or revoke the auditor role',
  access: 'admin',
  params: adminUserParams,
  body: { schema: adminSetAuditorRequestSchema, required: true },
  success: { status: 200, description: 'The role as it now is', schema: adminSetAuditorResponseSchema },
  errors: [404, 409],
});

// ---------------------------------------------------------------------------------------------
// Trading, bot, risk, settings

export const placeTrade = endpoint({
  ...command,
  method: 'post',
  path: '/api/trades',
  tag: 'Trading',
  summary: 'Place a paper trade',
  description:
    "Buys or sells `amount` coins at the market's current price (never the client's). Give a coinId or a symbol (any case); both only if they agree. A BUY may set stopLossPercent and takeProfitPercent (percent below and above the fill price); without them a manual position has no automatic exit. 409 when the cash or the position is short.",
  access: 'signed-in',
  body: { schema: placeTradeRequestSchema, required: true },
  success: { status: 201, description: 'The trade as filled', schema: placeTradeResponseSchema },
  errors: [409],
});

export const portfolio = endpoint({
  ...query,
  path: '/api/portfolio',
  tag: 'Trading',
  summary: 'The paper portfolio valued at live prices',
  description: "Signed in: the caller's; without an Authorization header: the house demo's (demo: true).",
  access: 'optional',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The portfolio', schema: portfolioResponseSchema },
});

export const trades = endpoint({
  ...query,
  path: '/api/trades',
  tag: 'Trading',
  summary: 'One page of trades, newest first',
  description:
    "Filtered by coin (coinId, or symbol in any case), status (OPEN, CLOSED), type (BUY, SELL) and date range (from / to: ISO dates or date-times, inclusive; a bare `to` date includes that day). page from 1; pageSize 1 to 100 (default 20). Signed in: the caller's trades; without an Authorization header: the house demo's. A bot trade on a user strategy's signal names it (source '<strategy name> strategy', strategyId, strategyType); an arbitrage strategy's pair is two trades, a BUY on the cheaper exchange and a SELL of the same amount on the dearer one, sharing pairId, each with its exchange (and that exchange's fee), the SELL carrying the net spread as its pnl. JSON, or CSV with ?format=csv or Accept: text/csv: with page or pageSize that page, otherwise every match (at most 10,000 rows; X-Csv-Truncated: true when cut).",
  access: 'optional',
  query: tradesQuerySchema,
  minPosition: true,
  success: {
    status: 200,
    description: 'The page and the all-time summary',
    schema: tradesResponseSchema,
    csv: 'One row per trade (time, id, type, symbol, amount, price, value, fee, pnl, status, source, signalId, closeReason, entryPrice, remainingQuantity, soldQuantity, lotRule, strategyId, strategyType, pairId, exchange), with a header row; pnl as in JSON (an open BUY at the live price)',
    headers: { 'X-Total-Count': 'The number of trades matching the filters (CSV answers)' },
  },
});

export const risk = endpoint({
  ...query,
  path: '/api/risk',
  tag: 'Risk',
  summary: "The risk profile as bot settings, today's loss against the daily limit, portfolio risk, the drawdown from the peak",
  access: 'signed-in',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The risk overview', schema: riskResponseSchema },
});

export const riskParameters = endpoint({
  ...query,
  path: '/api/risk/parameters',
  tag: 'Risk',
  summary: 'The risk parameter set (the defaults until changed)',
  access: 'signed-in',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The parameters', schema: riskParametersResponseSchema },
});

export const changeRiskParameters = endpoint({
  ...command,
  method: 'put',
  path: '/api/risk/parameters',
  tag: 'Risk',
  summary: 'Replace the risk parameter set',
  access: 'premium',
  body: { schema: riskParametersSchema, required: true },
  success: { status: 200, description: 'The parameters now in force', schema: riskParametersChangeResponseSchema },
});

export const activeRiskTrades = endpoint({
  ...query,
  path: '/api/risk/active-trades',
  tag: 'Risk',
  summary: 'Open positions with their stop loss and take profit',
  access: 'premium',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The open positions', schema: activeRiskTradesResponseSchema },
});

export const riskAlerts = endpoint({
  ...query,
  path: '/api/risk/alerts',
  tag: 'Risk',
  summary: 'Risk alerts not yet cleared, newest first',
  access: 'premium',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The alerts', schema: riskAlertsResponseSchema },
});

export const botDecisions = endpoint({
  ...query,
  path: '/api/bot/decisions',
  tag: 'Risk',
  summary: "The trading bot's recent refusals of BUY signals, newest first",
  description: 'Each names the rule of the risk profile that refused the signal, in words and figures (the trades carry their own decision in GET /api/trades).',
  access: 'signed-in',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The refusals', schema: botDecisionsResponseSchema },
});

export const acknowledgeRiskAlert = endpoint({
  ...command,
  method: 'post',
  path: '/api/risk/alerts/{id}/acknowledge',
  tag: 'Risk',
  summary: 'Acknowledge a risk alert',
  access: 'premium',
  params: { id: alertIdSchema },
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'The alert acknowledged', schema: acknowledgeAlertResponseSchema },
  errors: [404, 409],
});

export const clearAcknowledgedRiskAlerts = endpoint({
  ...command,
  method: 'delete',
  path: '/api/risk/alerts/acknowledged',
  tag: 'Risk',
  summary: 'Clear the acknowledged risk alerts',
  access: 'premium',
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'The alerts cleared', schema: clearAlertsResponseSchema },
});

export const startBot = endpoint({
  ...command,
  method: 'post',
  path: '/api/bot/start',
  tag: 'Bot',
  summary: 'Start the trading bot',
  description: "403 'Premium subscription required' for others; 409 when it already runs.",
  access: 'premium',
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'Started', schema: botCommandResponseSchema },
  errors: [409],
});

export const stopBot = endpoint({
  ...command,
  method: 'post',
  path: '/api/bot/stop',
  tag: 'Bot',
  summary: 'Stop the trading bot',
  description: 'Any signed-in user: someone whose premium lapsed can still stop a bot that trades their portfolio.',
  access: 'signed-in',
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'Stopped', schema: botCommandResponseSchema },
  errors: [409],
});

export const resetBot = endpoint({
  ...command,
  method: 'post',
  path: '/api/bot/reset',
  tag: 'Bot',
  summary: 'Reset the bot, its settings and the paper portfolio',
  description: 'The risk alerts about the positions the reset discards (position size, concurrent trades, drawdown, volatility) are resolved (reason PORTFOLIO_RESET); a day\'s loss alerts stay.',
  access: 'premium',
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'Reset', schema: botCommandResponseSchema },
  errors: [409],
});

export const changeBotSettings = endpoint({
  ...command,
  method: 'post',
  path: '/api/settings/bot',
  tag: 'Settings',
  summary: 'Change some or all of the bot settings',
  access: 'signed-in',
  body: { schema: botSettingsRequestSchema, required: true },
  success: { status: 200, description: 'The whole set as it now is', schema: botSettingsResponseSchema },
});

// ---------------------------------------------------------------------------------------------
// Exchanges and the Settings screen (issue 21)

const exchangeParams = { id: exchangeIdParamSchema } as const;

export const exchangeConfig = endpoint({
  ...command,
  method: 'post',
  path: '/api/exchanges/{id}/config',
  tag: 'Exchanges',
  summary: "Save an exchange's API keys",
  description:
    'Stores the API key and secret (and Coinbase Exchange\'s passphrase) encrypted with AES-256-GCM; events and answers hold only the key\'s last four characters. Testnet is on by default where the exchange has one (Binance, Coinbase Exchange); Kraken has none, so its connection is read-only. 404 for an unknown exchange.',
  access: 'premium',
  params: exchangeParams,
  body: { schema: exchangeConfigRequestSchema, required: true },
  success: { status: 200, description: 'The connection, untested', schema: exchangeConfigResponseSchema },
  errors: [404],
});

export const exchangeTest = endpoint({
  ...command,
  method: 'post',
  path: '/api/exchanges/{id}/test',
  tag: 'Exchanges',
  summary: 'Test the connection: fetch the balance',
  description: "Fetches the account's balance with the stored keys through ccxt and records the result: connected with the balance (valued at the market's prices), or error with the exchange's message (a 200: the exchange said no). 409 without saved keys.",
  access: 'premium',
  params: exchangeParams,
  body: { schema: noBodySchema, required: false },
  success: { status: 200, description: 'Connected with the balance, or the error', schema: exchangeTestResponseSchema },
  errors: [404, 409],
});

export const exchangeMirror = endpoint({
  ...command,
  method: 'post',
  path: '/api/exchanges/{id}/mirror',
  tag: 'Exchanges',
  summary: 'Mirror to testnet on or off',
  description: "With the mirror on, each paper trade of the bot is also sent as a market order to the exchange's testnet, and Trade History shows the testnet's fill beside the paper fill. 409 without a connected testnet account.",
  access: 'premium',
  params: exchangeParams,
  body: { schema: exchangeMirrorRequestSchema, required: true },
  success: { status: 200, description: 'The switch as it now is', schema: exchangeMirrorResponseSchema },
  errors: [404, 409],
});

export const exchanges = endpoint({
  ...query,
  path: '/api/exchanges',
  tag: 'Exchanges',
  summary: 'The exchanges and your connections',
  description: "Each exchange (fee, testnet availability) with the caller's connection: status, the key's last four characters, testnet, the last balance valued at the market's prices now and the share allocated to coins, the mirror switch. Never a secret.",
  access: 'premium',
  minPosition: true,
  success: { status: 200, description: 'Every exchange', schema: exchangesResponseSchema },
});

export const mirrorOrders = endpoint({
  ...query,
  path: '/api/exchanges/mirror-orders',
  tag: 'Exchanges',
  summary: "The testnet's fills beside the paper fills",
  description: 'The bot trades mirrored to a testnet, newest first (at most 200): the paper price, the testnet price and their difference in percent, or the failure.',
  access: 'premium',
  minPosition: true,
  success: { status: 200, description: 'Mirrored orders', schema: mirrorOrdersResponseSchema },
});

export const apiSettings = endpoint({
  ...command,
  method: 'post',
  path: '/api/settings/api',
  tag: 'Settings',
  summary: 'API settings: exchange keys and the trading mode',
  description:
    "binanceKey + binanceSecret and coinbaseKey + coinbaseSecret + coinbasePassphrase are saved as the exchange connections (testnet on); enablePaperTrading and enableRealTrading set the trading mode. Switching real trading on needs confirmRealTrading: true; this version places no real-money order. Empty strings count as absent.",
  access: 'premium',
  body: { schema: apiSettingsRequestSchema, required: true },
  success: { status: 200, description: "The exchanges whose keys were saved (last four characters) and the trading mode", schema: apiSettingsResponseSchema },
});

export const notificationSettings = endpoint({
  ...command,
  method: 'post',
  path: '/api/settings/notifications',
  tag: 'Settings',
  summary: 'Notification switches',
  description: 'Which events reach you as toasts in the web app: bot trades, bot status, risk alerts, testnet mirror fills.',
  access: 'signed-in',
  body: { schema: notificationSettingsRequestSchema, required: true },
  success: { status: 200, description: 'The switches as they now are', schema: notificationSettingsResponseSchema },
});

export const accountSettings = endpoint({
  ...query,
  path: '/api/settings',
  tag: 'Settings',
  summary: 'Notification switches and trading mode',
  access: 'signed-in',
  minPosition: true,
  success: { status: 200, description: 'The settings (defaults until changed)', schema: accountSettingsResponseSchema },
});

// ---------------------------------------------------------------------------------------------
// Subscription and payments

export const subscription = endpoint({
  ...query,
  path: '/api/subscription',
  tag: 'Subscription',
  summary: 'Plan, status, end date and usage',
  access: 'signed-in',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The subscription', schema: subscriptionResponseSchema },
});

export const billingHistory = endpoint({
  ...query,
  path: '/api/subscription/billing',
  tag: 'Subscription',
  summary: 'Billing history from real payments',
  access: 'signed-in',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'Payments, newest first', schema: billingHistoryResponseSchema },
});

export const checkout = endpoint({
  ...command,
  method: 'post',
  path: '/api/subscription/checkout',
  tag: 'Subscription',
  summary: 'Start a checkout for a paid plan',
  description:
    'Answers the URL to go to: a Stripe Checkout Session, or the built-in test checkout without STRIPE_SECRET_KEY. One open checkout per account: while one can be paid (an hour), a new checkout answers it again (no new session). 409 for the Free plan or when already Premium. A retry with the same Idempotency-Key answers the session the first request opened (409 once that session is paid or expired). 429 past the per-account limit (CHECKOUT_MAX_PER_ACCOUNT, 10 an hour); each call counts in the monthly API calls, never refused for them.',
  access: 'signed-in',
  body: { schema: checkoutRequestSchema, required: true },
  success: { status: 200, description: 'Where to pay', schema: checkoutResponseSchema },
  errors: [409, 429, 503],
});

export const paymentSuccess = endpoint({
  ...command,
  method: 'post',
  path: '/api/subscription/success',
  tag: 'Subscription',
  summary: 'Confirm a paid checkout session',
  description:
    "Activates the subscription once (a repeated call appends nothing) and says what became of the session (outcome): activated now, active (earlier), superseded (the account has moved on since), or cancelled-duplicate (paid while Premium was already active: its subscription was cancelled at the provider). 403 for a session of another account; 409 when it is not paid, with sessionState open, closed or expired.",
  access: 'signed-in',
  body: { schema: paymentSuccessRequestSchema, required: true },
  success: { status: 200, description: 'The plan bought and the subscription now', schema: paymentSuccessResponseSchema },
  errors: [403, 404, 409, 503],
});

export const upgrade = endpoint({
  ...command,
  method: 'post',
  path: '/api/subscription/upgrade',
  tag: 'Subscription',
  summary: 'Change to another tier without payment',
  description: "From an active Premium to Free: a cancellation at the period's end, as POST /api/subscription/cancel (access continues 30 days). 409 for PREMIUM (checkout instead), the current plan, or a Premium already cancelled.",
  access: 'signed-in',
  body: { schema: upgradeRequestSchema, required: true },
  success: { status: 200, description: 'The subscription now', schema: subscriptionChangeResponseSchema },
  errors: [409],
});

export const cancelSubscription = endpoint({
  ...command,
  method: 'post',
  path: '/api/subscription/cancel',
  tag: 'Subscription',
  summary: 'Cancel: access continues for 30 days',
  access: 'signed-in',
  body: { schema: emptyRequestSchema, required: false },
  success: { status: 200, description: 'The subscription now, with its end date', schema: subscriptionChangeResponseSchema },
  errors: [409],
});

export const reactivateSubscription = endpoint({
  ...command,
  method: 'post',
  path: '/api/subscription/reactivate',
  tag: 'Subscription',
  summary: 'Reactivate a cancelled subscription before its end date',
  access: 'signed-in',
  body: { schema: emptyRequestSchema, required: false },
  success: { status: 200, description: 'The subscription now', schema: subscriptionChangeResponseSchema },
  errors: [409],
});

export const stripeWebhook = endpoint({
  service: 'command-api',
  method: 'post',
  path: '/api/stripe/webhook',
  tag: 'Payments',
  summary: "Stripe's notices (signed)",
  description:
    "Verified with STRIPE_WEBHOOK_SECRET on the raw body (400 for a missing or wrong signature); handles checkout.session.completed, checkout.session.async_payment_succeeded and async_payment_failed, invoice.paid, invoice.payment_failed and customer.subscription.deleted, idempotently by Stripe event id. Other types, and signed events it cannot read, are acknowledged with an 'ignored: ...' outcome. 503 when webhooks are not configured.",
  access: 'public',
  headers: { 'Stripe-Signature': { description: "Stripe's signature of the raw body", required: true } },
  rawBody: { contentType: 'application/json', description: 'A Stripe event, exactly as Stripe sent it' },
  success: { status: 200, description: 'Received', schema: z.object({ received: z.literal(true), outcome: z.string() }) },
  errors: [413, 503],
});

const testCheckoutParams = { sessionId: checkoutSessionIdSchema } as const;

export const testCheckoutPage = endpoint({
  service: 'command-api',
  method: 'get',
  path: '/test-checkout/{sessionId}',
  tag: 'Payments',
  summary: 'The built-in test checkout page (no STRIPE_SECRET_KEY)',
  description: "Labelled 'Test payment — no real money'. 404 when Stripe is configured.",
  access: 'public',
  params: testCheckoutParams,
  success: { status: 200, description: 'An HTML page with a Pay button', contentType: 'text/html' },
  errors: [404],
});

export const testCheckoutScript = endpoint({
  service: 'command-api',
  method: 'get',
  path: '/test-checkout/pay.js',
  tag: 'Payments',
  summary: "The test checkout page's Pay script (sends the sign-in with the payment)",
  access: 'public',
  success: { status: 200, description: 'JavaScript', contentType: 'text/javascript' },
  errors: [404],
});

export const testCheckoutPay = endpoint({
  service: 'command-api',
  method: 'post',
  path: '/test-checkout/{sessionId}/pay',
  tag: 'Payments',
  summary: 'Record a test payment; answers the success URL to go to',
  description: "The page's script sends the session owner's bearer token: 401 without one, 403 for another account's session, 409 for a closed or expired session, 404 when Stripe is configured.",
  access: 'signed-in',
  params: testCheckoutParams,
  success: { status: 200, description: 'Paid (or paid already): where the browser goes next', schema: z.object({ sessionId: z.string(), redirectTo: z.string() }) },
  errors: [403, 404, 409],
});

// ---------------------------------------------------------------------------------------------
// Audit

const auditUserParams = { id: userIdSchema } as const;

export const auditStream = endpoint({
  ...query,
  path: '/api/audit/streams/{stream}',
  tag: 'Audit',
  summary: "A stream's events, redacted",
  description: 'Type, data, metadata, position and time of each event; secrets and password hashes never present.',
  access: 'admin-or-auditor',
  params: { stream: streamNameSchema },
  query: streamQuerySchema,
  success: { status: 200, description: 'One page of events', schema: streamResponseSchema },
  errors: [404],
});

export const auditTimeline = endpoint({
  ...query,
  path: '/api/audit/users/{id}/timeline',
  tag: 'Audit',
  summary: "A user's trades, bot, risk and subscription events in order",
  description: 'JSON, or CSV with ?format=csv or Accept: text/csv.',
  access: 'admin-or-auditor',
  params: auditUserParams,
  query: timelineQuerySchema,
  success: {
    status: 200,
    description: 'One page of the timeline',
    schema: timelineResponseSchema,
    csv: 'One row per entry (position, time, category, streamId, revision, type, data and metadata as JSON), with a header row',
    headers: { 'X-Total-Count': 'Entries in the whole timeline (CSV answers)' },
  },
  errors: [404],
});

export const auditPortfolio = endpoint({
  ...query,
  path: '/api/audit/users/{id}/portfolio',
  tag: 'Audit',
  summary: 'The portfolio rebuilt by replay as of a time',
  access: 'admin-or-auditor',
  params: auditUserParams,
  query: asOfQuerySchema,
  success: { status: 200, description: 'The state and the events it was built from', schema: portfolioAsOfResponseSchema },
  errors: [404],
});

export const auditSubscription = endpoint({
  ...query,
  path: '/api/audit/users/{id}/subscription',
  tag: 'Audit',
  summary: 'The subscription rebuilt by replay as of a time',
  access: 'admin-or-auditor',
  params: auditUserParams,
  query: asOfQuerySchema,
  success: { status: 200, description: 'The state and the events it was built from', schema: subscriptionAsOfResponseSchema },
  errors: [404],
});

// ---------------------------------------------------------------------------------------------
// Market

const coinParams = { coinId: coinIdSchema } as const;

export const supportedCoins = endpoint({
  ...query,
  path: '/api/coins/supported',
  tag: 'Market',
  summary: 'The coin catalogue',
  access: 'public',
  success: { status: 200, description: 'Name, symbol, icon and colour by coin id', schema: supportedCoinsResponseSchema },
});

export const coinPrices = endpoint({
  ...query,
  path: '/api/coins/prices',
  tag: 'Market',
  summary: 'Every coin price',
  access: 'public',
  success: { status: 200, description: 'Price and 24 h change by coin id', schema: coinPricesResponseSchema },
  errors: [503],
});

export const coinPrice = endpoint({
  ...query,
  path: '/api/coins/{coinId}/price',
  tag: 'Market',
  summary: "One coin's price",
  access: 'public',
  params: coinParams,
  success: { status: 200, description: 'The price', schema: coinPriceResponseSchema },
  errors: [404, 503],
});

export const priceBySymbol = endpoint({
  ...query,
  path: '/api/price',
  tag: 'Market',
  summary: "A coin's price by symbol (default ETH)",
  access: 'public',
  query: priceQuerySchema,
  success: { status: 200, description: 'The price', schema: coinPriceResponseSchema },
  errors: [404, 503],
});

export const ohlc = endpoint({
  ...query,
  path: '/api/coins/{coinId}/ohlc',
  tag: 'Market',
  summary: 'Candles over a number of days',
  access: 'public',
  params: coinParams,
  query: chartQuerySchema,
  success: { status: 200, description: 'The candles', schema: ohlcResponseSchema },
  errors: [404, 503],
});

export const priceHistory = endpoint({
  ...query,
  path: '/api/coins/{coinId}/history',
  tag: 'Market',
  summary: 'Closing prices over a number of days',
  access: 'public',
  params: coinParams,
  query: chartQuerySchema,
  success: { status: 200, description: 'Time and price points', schema: historyResponseSchema },
  errors: [404, 503],
});

export const coinSummary = endpoint({
  ...query,
  path: '/api/coins/{coinId}/summary',
  tag: 'Market',
  summary: 'Price, 24 h change, high, low and volume',
  access: 'public',
  params: coinParams,
  success: { status: 200, description: 'The summary', schema: coinSummaryResponseSchema },
  errors: [404, 503],
});

// ---------------------------------------------------------------------------------------------
// Signals

export const signals = endpoint({
  ...query,
  path: '/api/signals',
  tag: 'Signals',
  summary: 'The latest signals and the counts of every signal generated',
  description:
    'JSON, or CSV with ?format=csv or Accept: text/csv: with page or pageSize that page, otherwise every match (at most 10,000 rows; X-Csv-Truncated: true when cut). ' +
    'The JSON answer may be kept and asked again (Cache-Control: no-cache, an ETag): with If-None-Match naming its ETag, an unchanged answer is 304 Not Modified without a body (a browser polling every 10 s revalidates so). ' +
    SIGNAL_CONFIDENCE_DESCRIPTION,
  access: 'public',
  query: signalsQuerySchema,
  minPosition: true,
  success: {
    status: 200,
    description: 'Signals with their reasons, and the counts',
    schema: signalsResponseSchema,
    csv: 'One row per signal (candleTime, symbol, type, confidence, price, reasons, signalId), with a header row',
    headers: { 'X-Total-Count': 'The number of signals matching the filters', ETag: 'The JSON answer\'s entity tag, for If-None-Match' },
  },
  errors: [404],
});

export const indicators = endpoint({
  ...query,
  path: '/api/indicators',
  tag: 'Signals',
  summary: 'The latest RSI, MACD, moving averages and volume level',
  description: 'Every reading is of the last closed candle, and `price` is that candle\'s close. `macd` is the MACD line (a number), `macdSignal` its signal line, `macdHistogram` their difference, `ma20` the 20-candle simple moving average (the same as `sma20`), `volume` the level; null where there is too little history.',
  access: 'public',
  query: indicatorsQuerySchema,
  success: { status: 200, description: 'The indicators of the last closed candle', schema: indicatorsResponseSchema },
  errors: [404, 503],
});

// ---------------------------------------------------------------------------------------------
// Plans, public figures, the service itself

export const plans = endpoint({
  ...query,
  path: '/api/plans',
  tag: 'Plans',
  summary: 'The price list',
  access: 'public',
  success: { status: 200, description: 'The plans', schema: plansResponseSchema },
});

export const publicStats = endpoint({
  ...query,
  path: '/api/public/stats',
  tag: 'Plans',
  summary: 'Measured figures for the landing page',
  access: 'public',
  minPosition: true,
  success: { status: 200, description: 'Traders, model accuracy, simulated trades', schema: publicStatsSchema },
});

export const health = endpoint({
  ...query,
  path: '/api/health',
  tag: 'Service',
  summary: 'Liveness',
  description: 'Answered by both services (for orchestrators and the gateway).',
  access: 'public',
  success: { status: 200, description: 'Up', schema: healthResponseSchema },
});

export const openApiDocument = endpoint({
  ...query,
  path: '/api/openapi.json',
  tag: 'Service',
  summary: 'This document (OpenAPI 3.1)',
  access: 'public',
  success: { status: 200, description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
});

/** Every endpoint, in the order the reference lists them (by tag, then as written here). */
// ---------------------------------------------------------------------------------------------
// AI models (issue 19)

export const createModel = endpoint({
  ...command,
  method: 'post',
  path: '/api/ml/create-model',
  tag: 'AI models',
  summary: 'Train a new model of your own (a long job)',
  description:
    'Answers at once (202) with the training job; the model is trained in a workers process and ML_UPDATE reaches your sockets when it ends (then GET /api/ml-status). trainingDays 7 to 365 (default 30); parameters per model type with bounds (GET /api/ml/model-types lists the defaults). 409 while another of your trainings runs; 429 past the daily limit (ML_TRAININGS_PER_DAY, 10).',
  access: 'signed-in',
  body: { schema: createModelRequestSchema, required: true },
  success: { status: 202, description: 'The training job, queued', schema: trainingJobResponseSchema },
  errors: [409, 429],
} as const);

export const retrainModel = endpoint({
  ...command,
  method: 'post',
  path: '/api/ml/retrain',
  tag: 'AI models',
  summary: 'Retrain your model on data up to now (a long job)',
  description: "The same type, days and parameters as your current model (the house model's if you have none). Answers at once (202) like create-model; 409 and 429 likewise.",
  access: 'signed-in',
  body: { schema: noBodySchema, required: false },
  success: { status: 202, description: 'The training job, queued', schema: trainingJobResponseSchema },
  errors: [409, 429],
} as const);

export const mlStatus = endpoint({
  ...query,
  path: '/api/ml-status',
  tag: 'AI models',
  summary: "The model's held-out accuracy beside the majority baseline, with its 95 % interval and verdict",
  description: "Signed in with a model of your own: yours; otherwise the house model's. accuracy and baseline are percents of held-out candles after a time-ordered split with a gap; verdict 'edge' only when the interval's lower bound is above the baseline.",
  access: 'optional',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The model status', schema: mlStatusResponseSchema },
});

export const modelTypesList = endpoint({
  ...query,
  path: '/api/ml/model-types',
  tag: 'AI models',
  summary: 'The model types, each with the measured figures of its last training',
  description: "accuracy, baseline and trainingTime are those of the last training of that type by anyone (the house model or a user), or null and 'not measured yet'.",
  access: 'public',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The model types', schema: modelTypesResponseSchema },
});

// ---------------------------------------------------------------------------------------------
// AI trading strategies (issue 19)

const strategyParams = { id: strategyIdSchema } as const;

export const strategiesList = endpoint({
  ...query,
  path: '/api/strategies',
  tag: 'AI strategies',
  summary: 'Your three strategies with their configuration and measured figures',
  description:
    "neural, technical and arbitrage, each with its configuration (defaults until configured) and the figures of its own round trips: paper since activation, or the latest backtest when it has more (figuresSource, sampleSize). accuracy, profitFactor, sharpeRatio, winRate and maxDrawdown are null below 20 round trips (figuresNote 'not enough trades').",
  access: 'premium',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The strategies', schema: aiStrategiesResponseSchema },
});

export const strategySignals = endpoint({
  ...query,
  path: '/api/strategies/signals',
  tag: 'AI strategies',
  summary: 'The live signals of your active strategies, newest first, each with the strategy that made it and why',
  access: 'premium',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The signals', schema: strategySignalsResponseSchema },
});

export const strategyPerformance = endpoint({
  ...query,
  path: '/api/strategies/{id}/performance',
  tag: 'AI strategies',
  summary: "A strategy's summary and cumulative return over its round trips",
  access: 'premium',
  params: strategyParams,
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The performance', schema: strategyPerformanceResponseSchema },
  errors: [404],
});

export const toggleStrategy = endpoint({
  ...command,
  method: 'post',
  path: '/api/strategies/{id}/toggle',
  tag: 'AI strategies',
  summary: 'Activate or deactivate a strategy (your bot follows the active ones from the next candle)',
  access: 'premium',
  params: strategyParams,
  body: { schema: toggleStrategyRequestSchema, required: true },
  success: { status: 200, description: 'The strategy toggled', schema: strategyCommandResponseSchema },
  errors: [404],
});

export const configureStrategy = endpoint({
  ...command,
  method: 'post',
  path: '/api/strategies/{id}/configure',
  tag: 'AI strategies',
  summary: "Set a strategy's configuration (the fields of its type, each within its bounds; missing fields take the defaults)",
  access: 'premium',
  params: strategyParams,
  body: { schema: z.union([neuralConfigurationSchema, technicalConfigurationSchema, arbitrageConfigurationSchema]), required: true },
  success: { status: 200, description: 'The configuration recorded', schema: strategyCommandResponseSchema },
  errors: [404],
});

export const strategyBacktest = endpoint({
  ...command,
  method: 'post',
  path: '/api/strategies/{id}/backtest',
  tag: 'AI strategies',
  summary: 'Backtest a strategy, any of the three types, over a past period (a long job)',
  description:
    "startDate and endDate as YYYY-MM-DD (the dialog's defaults: 2024-01-01 to 2024-12-31; at most 366 days, not after today), initialCapital 100 to 10,000,000 (10000). The strategy runs on ETH with its configuration, decided by the code its live signals come from, so a backtest of a period equals what the strategy did live. " +
    'Technical: BUY when RSI enters oversold; SELL when it enters overbought, at its stopLoss or at its takeProfit (percent from the entry close, checked at candle closes); the orders fill through the paper engine as the bot fills them, under your risk profile. ' +
    "Neural: walk-forward over the models as they were, with no look-ahead: each candle is decided by the model the live strategy read at its close (your latest model trained by then, else the house model's), never by one trained later; candles before any model are not traded, and the result's notes say which model decided how many candles. " +
    "Arbitrage: at each close the simulated exchange quotes (the reference price plus a mean-reverting basis per exchange); when the best pair's spread net of both exchanges' fees exceeds minSpread, a round trip of maxPositionSize USD (bought on the cheaper exchange, sold on the dearer, each leg with its fee; both legs are listed with their exchange). " +
    "202 with the job; the result, with notes saying what the run assumed, is GET /api/backtest/{backtestId}; its figures follow the backtester's conventions; one run per user at a time (409).",
  access: 'premium',
  params: strategyParams,
  body: { schema: strategyBacktestRequestSchema, required: true },
  success: { status: 202, description: 'The backtest, queued', schema: strategyBacktestResponseSchema },
  errors: [404, 409],
});

// ---------------------------------------------------------------------------------------------
// AI assistant (issue 20)

export const aiChat = endpoint({
  service: 'query-api',
  method: 'post',
  path: '/api/ai-chat',
  tag: 'AI assistant',
  summary: 'Ask the assistant about your own data (nothing is stored)',
  description:
    `Answers from your own portfolio, trades, risk profile, alerts, subscription, the signals and indicators of any coin and the model's measured accuracy, with the facts each answer used (each linked to its screen). message: 1 to ${CHAT_MESSAGE_MAX_CHARS} characters; history: the conversation's last messages, at most ${CHAT_HISTORY_MAX}, oldest first. ` +
    'Answered by query-api (it only reads; the gateway sends this path there). A per-user rate limit (CHAT_MAX_PER_USER a CHAT_WINDOW_MS, 20 a minute) answers 429 with Retry-After. With a language model configured (CHAT_API_URL), 502 when it fails and 504 when it does not answer in time, with the failure text the window shows.',
  access: 'premium',
  body: { schema: chatRequestSchema, required: true },
  minPosition: true,
  success: { status: 200, description: 'The answer and the facts it used', schema: chatResponseSchema },
  errors: [429, 502, 504],
} as const);

// ---------------------------------------------------------------------------------------------
// Strategy backtesting (issue 18)

const BACKTEST_CONVENTIONS =
  'Conventions: totalReturn, winRate and maxDrawdown are fractions (0.12 is 12 %); maxDrawdown is positive, the largest fall from a peak of the equity marked at every candle close and fill; sharpeRatio is the mean of the daily returns over their sample standard deviation times sqrt(365) (daily returns annualised with 365 days, as backtesting.py and vectorbt do for crypto; risk-free rate 0; null with fewer than two varying daily returns); volatility is the daily returns\' standard deviation times sqrt(365); profitFactor = gross profit / gross loss of the closed trades (null without a losing trade); averageLoss is negative. totalTrades, winningTrades and losingTrades count closed trades (a BUY opens; a SELL, stop, target or end-of-test close closes). Money in USD.';
const BACKTEST_LIMITS = `One backtest or walk-forward per user queued or running at a time: a second request is a 409 naming the one under way (it is not queued behind it). Across users runs queue in the order asked; queuePosition is the place among every user's queued runs (1 = next). The longest period is ${MAX_BACKTEST_DAYS} days, from the simulated history's start to now (no future dates).`;

export const backtestStrategiesList = endpoint({
  ...query,
  path: '/api/backtest/strategies',
  tag: 'Backtesting',
  summary: 'The strategies a backtest can run, each parameter with its min, max and default',
  description: 'Public: free users and visitors see the list and the form too.',
  access: 'public',
  query: noQuerySchema,
  success: { status: 200, description: 'The strategy catalogue', schema: strategiesResponseSchema },
});

export const runBacktest = endpoint({
  ...command,
  method: 'post',
  path: '/api/backtest/run',
  tag: 'Backtesting',
  summary: 'Backtest a strategy over the price history (a long job)',
  description:
    "Answers at once (202) with the backtest's id, its job and its place in the queue; a workers process replays the market path through the strategy and the paper bot's engine (the same fills, spreads, stops and risk rules), with progress as JOB_PROGRESS on the socket and BACKTEST_UPDATE when it ends; then GET /api/backtest/{id}. symbol: a supported coin (default ETH); dates YYYY-MM-DD or ISO-8601, within the history and not in the future (a date-only end means the end of that day); initialCapital 100 to 10,000,000 (default 10000); parameters within the strategy's bounds (the defaults for those left out). A missing strategy: 'Strategy Required: Please select a trading strategy'. " +
    BACKTEST_LIMITS,
  access: 'premium',
  body: { schema: backtestRequestSchema, required: true },
  success: { status: 202, description: 'The backtest, queued', schema: backtestJobResponseSchema },
  errors: [409],
} as const);

export const runWalkForward = endpoint({
  ...command,
  method: 'post',
  path: '/api/backtest/walk-forward',
  tag: 'Backtesting',
  summary: 'Walk-forward analysis: optimise in-sample, test out of sample, window by window (a long job)',
  description:
    "Rolling windows over the period: in each, up to parameterSets parameter sets (the defaults first, then a deterministic low-discrepancy sequence within the bounds) are backtested in-sample and the best by the objective is backtested on the following out-of-sample part; the report lists each window's choice with its in-sample and out-of-sample figures, the stitched out-of-sample equity curve and both summaries, so overfitting shows. Answers at once (202) like POST /api/backtest/run; the report is GET /api/backtest/{id}'s `report`. " +
    BACKTEST_LIMITS,
  access: 'premium',
  body: { schema: walkForwardRequestSchema, required: true },
  success: { status: 202, description: 'The walk-forward run, queued', schema: backtestJobResponseSchema },
  errors: [409],
} as const);

export const backtestHistory = endpoint({
  ...query,
  path: '/api/backtest/history',
  tag: 'Backtesting',
  summary: 'Your backtests and walk-forward runs, newest first (the last 100)',
  description: "totalTrades, winRate and totalReturn are null until the run completes (a walk-forward's are its stitched out-of-sample run's); configId is equal for equal settings. " + BACKTEST_CONVENTIONS,
  access: 'premium',
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The history', schema: backtestHistoryResponseSchema },
});

export const backtestById = endpoint({
  ...query,
  path: '/api/backtest/{id}',
  tag: 'Backtesting',
  summary: 'One of your runs: its status, then its result (or walk-forward report)',
  description:
    "status QUEUED (with queuePosition), RUNNING, COMPLETED (result with the equity and drawdown curves, at most 1000 points each, or report) or FAILED (error). Another user's id answers 404, as an unknown one. " + BACKTEST_CONVENTIONS,
  access: 'premium',
  params: { id: backtestIdSchema },
  query: noQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The run', schema: backtestDetailSchema },
  errors: [404],
});

export const backtestTrades = endpoint({
  ...query,
  path: '/api/backtest/{id}/trades',
  tag: 'Backtesting',
  summary: "A page of a backtest's fills, in time order, with each fill's execution details",
  description: 'page from 1; pageSize 1 to 500 (default 50). Each fill has its tick, mid, half spread and impact paid, the level a stop crossed, and for a signal order its intended time and delay.',
  access: 'premium',
  params: { id: backtestIdSchema },
  query: backtestTradesQuerySchema,
  minPosition: true,
  success: { status: 200, description: 'The page', schema: backtestTradesPageSchema },
  errors: [404],
});

export const backtestComparePaper = endpoint({
  ...query,
  path: '/api/backtest/{id}/compare-paper',
  tag: 'Backtesting',
  summary: "The backtest's trades lined up with your paper trades of the same period, each difference explained",
  description:
    'For a period in which your bot paper-traded: matched trades (same side, signal or exit, tick, amount and price to the cent) and each difference with its cause: a signal the bot did not act on and why, a fill at another tick (a late bot), a risk rule that refused, a trade the backtest did not make.',
  access: 'premium',
  params: { id: backtestIdSchema },
  query: noQuerySchema,
  minPosition: true,
  success: {
    status: 200,
    description: 'The comparison (worked out when the backtest completed: its period lies in the past). 409 while the backtest has not completed, when it failed, and for a walk-forward run.',
    schema: comparePaperReportSchema,
    headers: { 'X-Differences-Total': 'How many differences there are; `differences` lists at most the first 250 (by time)' },
  },
  errors: [404, 409],
});

export const endpoints: readonly EndpointContract[] = [
  signup,
  login,
  logout,
  me,
  portfolio,
  trades,
  placeTrade,
  startBot,
  stopBot,
  resetBot,
  changeBotSettings,
  risk,
  riskParameters,
  changeRiskParameters,
  activeRiskTrades,
  riskAlerts,
  botDecisions,
  acknowledgeRiskAlert,
  clearAcknowledgedRiskAlerts,
  exchangeConfig,
  exchangeTest,
  exchangeMirror,
  exchanges,
  mirrorOrders,
  apiSettings,
  notificationSettings,
  accountSettings,
  subscription,
  billingHistory,
  checkout,
  paymentSuccess,
  upgrade,
  cancelSubscription,
  reactivateSubscription,
  stripeWebhook,
  testCheckoutPage,
  testCheckoutScript,
  testCheckoutPay,
  adminUsers,
  adminStats,
  adminUpdateUser,
  adminSetAuditor,
  auditStream,
  auditTimeline,
  auditPortfolio,
  auditSubscription,
  supportedCoins,
  coinPrices,
  coinPrice,
  priceBySymbol,
  ohlc,
  priceHistory,
  coinSummary,
  signals,
  indicators,
  plans,
  publicStats,
  createModel,
  retrainModel,
  mlStatus,
  modelTypesList,
  strategiesList,
  strategySignals,
  strategyPerformance,
  toggleStrategy,
  configureStrategy,
  strategyBacktest,
  aiChat,
  backtestStrategiesList,
  runBacktest,
  runWalkForward,
  backtestHistory,
  backtestById,
  backtestTrades,
  backtestComparePaper,
  health,
  openApiDocument,
];
