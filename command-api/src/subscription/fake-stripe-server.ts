/**
 * A local fake of the few Stripe API endpoints checkout uses, for tests that drive the real `stripe`
 * client (pointed here with host/port/protocol): POST /v1/checkout/sessions, GET
 * /v1/checkout/sessions/{id}, POST /v1/checkout/sessions/{id}/expire (an open session only, as
 * Stripe), POST /v1/subscriptions/{id} (update) and DELETE /v1/subscriptions/{id} (cancel). Answers the documented object shapes (the fields our code reads, and their neighbours),
 * Stripe's error shape for an unknown id, and records every request (method, path, form fields, key).
 * `pay(sessionId)` plays the customer completing payment on Stripe's page (refused, as Stripe's page
 * refuses it, for a session that is not open).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FakeStripeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

type Session = Record<string, unknown> & { id: string };

export interface FakeStripe {
  url: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, Session>;
  subscriptions: Map<string, Record<string, unknown>>;
  /** The customer pays: the session completes, paid, with a subscription and a customer. */
  pay(sessionId: string): Session;
  close(): Promise<void>;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's bracket form encoding, flattened: `metadata[userId]` -> value. */
function prefixed(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (k.startsWith(`${prefix}[`)) out[k.slice(prefix.length + 1, -1)] = v;
  return out;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Session>();
  const subscriptions = new Map<string, Record<string, unknown>>();

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req') });
    res.end(JSON.stringify(body));
  };
  const missing = (res: http.ServerResponse, kind: string, id: string) =>
    send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` } });

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ method: req.method ?? '', path: url.pathname, form, authorization: req.headers.authorization });
      const parts = url.pathname.split('/').filter(Boolean);
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${randomBytes(16).toString('hex')}`;
        const session: Session = {
          id,
          object: 'checkout.session',
          mode: form.mode,
          status: 'open',
          payment_status: 'unpaid',
          client_reference_id: form.client_reference_id ?? null,
          customer: null,
          customer_email: form.customer_email ?? null,
          subscription: null,
          metadata: prefixed(form, 'metadata'),
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
          currency: form['line_items[0][price_data][currency]'] ?? 'usd',
          livemode: false,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        };
        sessions.set(id, session);
        return send(res, 200, session);
      }
      if (req.method === 'POST' && parts[0] === 'v1' && parts[1] === 'checkout' && parts[2] === 'sessions' && parts[3] && parts[4] === 'expire') {
        const session = sessions.get(parts[3]);
        if (!session) return missing(res, 'checkout.session', parts[3]);
        if (session.status !== 'open') {
          return send(res, 400, { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".` } });
        }
        Object.assign(session, { status: 'expired', url: null });
        return send(res, 200, session);
      }
      if (req.method === 'GET' && parts[0] === 'v1' && parts[1] === 'checkout' && parts[2] === 'sessions' && parts[3]) {
        const session = sessions.get(parts[3]);
        return session ? send(res, 200, session) : missing(res, 'checkout.session', parts[3]);
      }
      if (parts[0] === 'v1' && parts[1] === 'subscriptions' && parts[2]) {
        const sub = subscriptions.get(parts[2]);
        if (!sub) return missing(res, 'subscription', parts[2]);
        if (req.method === 'POST' && form.cancel_at_period_end !== undefined) sub.cancel_at_period_end = form.cancel_at_period_end === 'true';
        if (req.method === 'DELETE') sub.status = 'canceled';
        return send(res, 200, sub);
      }
      send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    sessions,
    subscriptions,
    pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}: it cannot be paid`);
      const subscription = rid('sub');
      const customer = rid('cus');
      subscriptions.set(subscription, { id: subscription, object: 'subscription', status: 'active', customer, cancel_at_period_end: false, metadata: session.metadata });
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription, customer });
      return session;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
