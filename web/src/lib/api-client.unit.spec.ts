import { expect } from 'chai';
import { ApiError, READ_YOUR_WRITES_WINDOW_MS, apiRequest, describeError, forgetLastWrite, getQueryFn, onUnauthorized, pathFromQueryKey } from './api-client';
import { AUTH_TOKEN_KEY } from './auth/auth-token';
import { getMe } from './auth/get-me';

interface Call {
  url: string;
  init: RequestInit;
}

/** A Map-backed stand-in for the browser's localStorage. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe('api client', () => {
  const realFetch = globalThis.fetch;
  let calls: Call[];
  let storage: MemoryStorage;

  function answer(status: number, body: string, init: { statusText?: string; contentType?: string } = {}) {
    globalThis.fetch = (async (url: string | URL | Request, requestInit?: RequestInit) => {
      calls.push({ url: String(url), init: requestInit ?? {} });
      return new Response(status === 204 ? null : body, {
        status,
        statusText: init.statusText ?? '',
        headers: { 'Content-Type': init.contentType ?? 'application/json' },
      });
    }) as typeof fetch;
  }

  beforeEach(() => {
    calls = [];
    storage = new MemoryStorage();
    Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  describe('error format', () => {
    it('raises an Error whose message is "status: body-text"', async () => {
      answer(500, 'database exploded', { statusText: 'Internal Server Error', contentType: 'text/plain' });
      const error = await apiRequest('GET', '/api/portfolio').catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ApiError).and.instanceOf(Error);
      expect((error as ApiError).message).to.equal('500: database exploded');
      expect((error as ApiError).status).to.equal(500);
    });

    it('uses the status text when the body is empty', async () => {
      answer(404, '', { statusText: 'Not Found' });
      const error = (await apiRequest('GET', '/api/nothing').catch((e: unknown) => e)) as ApiError;
      expect(error.message).to.equal('404: Not Found');
      expect(error.problem).to.equal(null);
    });

    it('keeps the RFC 7807 problem so toasts can show its detail', async () => {
      const body = JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'Email already registered' });
      answer(409, body, { statusText: 'Conflict', contentType: 'application/problem+json' });
      const error = (await apiRequest('POST', '/api/auth/signup', { email: 'a@b.c' }).catch((e: unknown) => e)) as ApiError;
      expect(error.message).to.equal(`409: ${body}`);
      expect(error.problem?.detail).to.equal('Email already registered');
      expect(describeError(error, 'Signup failed')).to.equal('Email already registered');
    });

    it('falls back to the message, then to the caller text, when there is no problem detail', async () => {
      answer(502, 'Bad gateway', { contentType: 'text/html' });
      const error = await apiRequest('GET', '/api/plans').catch((e: unknown) => e);
      expect(describeError(error, 'Login failed')).to.equal('502: Bad gateway');
      expect(describeError(new Error(''), 'Login failed')).to.equal('Login failed');
      expect(describeError('not an error', 'Login failed')).to.equal('Login failed');
    });

    it('does not read a JSON body that is not a problem as one', async () => {
      answer(400, JSON.stringify({ message: 'nope' }), { statusText: 'Bad Request' });
      const error = (await apiRequest('GET', '/api/x').catch((e: unknown) => e)) as ApiError;
      expect(error.problem).to.equal(null);
      expect(describeError(error, 'x')).to.equal('400: {"message":"nope"}');
    });
  });

  describe('requests', () => {
    it('includes cookies, the bearer token when stored, and a JSON content type for bodies', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'tok-123');
      answer(200, '{}');
      await apiRequest('POST', '/api/auth/login', { email: 'a@b.c', password: 'secret' });
      const { init } = calls[0]!;
      const headers = init.headers as Record<string, string>;
      expect(init.method).to.equal('POST');
      expect(init.credentials).to.equal('include');
      expect(headers.Authorization).to.equal('Bearer tok-123');
      expect(headers['Content-Type']).to.equal('application/json');
      expect(init.body).to.equal(JSON.stringify({ email: 'a@b.c', password: 'secret' }));
    });

    it('sends neither a bearer header without a token nor a content type without a body', async () => {
      answer(200, '[]');
      await apiRequest('GET', '/api/plans');
      const headers = calls[0]!.init.headers as Record<string, string>;
      expect(headers).not.to.have.property('Authorization');
      expect(headers).not.to.have.property('Content-Type');
      expect(calls[0]!.init.credentials).to.equal('include');
    });

    it('on a 401 removes the stored token and tells the listeners', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'expired');
      let told = 0;
      const unsubscribe = onUnauthorized(() => told++);
      answer(401, JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'Invalid token' }), { statusText: 'Unauthorized' });
      try {
        const error = await apiRequest('GET', '/api/portfolio').catch((e: unknown) => e);
        expect((error as ApiError).status).to.equal(401);
        expect(storage.getItem(AUTH_TOKEN_KEY)).to.equal(null);
        expect(told).to.equal(1);
      } finally {
        unsubscribe();
      }
    });

    it('the default query function GETs the query key segments joined by "/"', async () => {
      expect(pathFromQueryKey(['/api/coins', 'bitcoin', 'price'])).to.equal('/api/coins/bitcoin/price');
      answer(200, JSON.stringify({ price: 1 }));
      const data = await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/coins', 'bitcoin', 'price'] });
      expect(calls[0]!.url).to.equal('/api/coins/bitcoin/price');
      expect(calls[0]!.init.method).to.equal('GET');
      expect(data).to.deep.equal({ price: 1 });
    });

    it('the default query function can read a 401 as null', async () => {
      answer(401, '', { statusText: 'Unauthorized' });
      expect(await getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/risk/active-trades'] })).to.equal(null);
      answer(401, '', { statusText: 'Unauthorized' });
      const error = await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/risk'] }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal('401: Unauthorized');
    });
  });

  describe('read-your-writes', () => {
    const realNow = Date.now;
    afterEach(() => {
      Date.now = realNow;
      forgetLastWrite();
    });
    const header = (i: number) => (calls[i]!.init.headers as Record<string, string>)['X-Min-Position'];

    it('sends the position a command answered as X-Min-Position on the requests that follow, for a while', async () => {
      const position = '00000000000000000794-00000000000000000011';
      answer(201, JSON.stringify({ userId: 'u1', position }));
      await apiRequest('POST', '/api/auth/signup', { email: 'a@b.co' });
      expect(header(0)).to.equal(undefined);
      answer(200, '[]');
      await apiRequest('GET', '/api/plans');
      await apiRequest('POST', '/api/auth/login', {});
      expect(header(1)).to.equal(position);
      expect(header(2)).to.equal(position);
      const later = realNow() + READ_YOUR_WRITES_WINDOW_MS + 1;
      Date.now = () => later;
      await apiRequest('GET', '/api/plans');
      expect(header(3)).to.equal(undefined);
    });

    it('ignores answers without a position and GET answers', async () => {
      answer(200, JSON.stringify({ position: 'from-a-get' }));
      await apiRequest('GET', '/api/something');
      answer(204, '');
      await apiRequest('POST', '/api/auth/logout');
      await apiRequest('GET', '/api/plans');
      expect(header(2)).to.equal(undefined);
    });
  });

  describe('me', () => {
    const me = {
      id: 'u1',
      email: 'ada@example.com',
      username: 'ada',
      firstName: 'Ada',
      lastName: null,
      subscriptionTier: 'FREE',
      subscriptionStatus: 'ACTIVE',
      isAdmin: false,
      createdAt: '2025-01-01T00:00:00.000Z',
    };

    it('is null without a stored token, and asks nobody', async () => {
      answer(200, JSON.stringify(me));
      expect(await getMe()).to.equal(null);
      expect(calls).to.have.length(0);
    });

    it('is the user for a valid token', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'tok');
      answer(200, JSON.stringify(me));
      expect(await getMe()).to.deep.equal(me);
      expect((calls[0]!.init.headers as Record<string, string>).Authorization).to.equal('Bearer tok');
    });

    it('reads a 401 as logged out and drops the token', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'bogus');
      answer(401, '', { statusText: 'Unauthorized' });
      expect(await getMe()).to.equal(null);
      expect(storage.getItem(AUTH_TOKEN_KEY)).to.equal(null);
    });

    it('raises on a 5xx and keeps the token', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'tok');
      answer(503, '', { statusText: 'Service Unavailable' });
      const error = await getMe().catch((e: unknown) => e);
      expect((error as Error).message).to.equal('503: Service Unavailable');
      expect(storage.getItem(AUTH_TOKEN_KEY)).to.equal('tok');
    });

    it('rejects a body that breaks the contract', async () => {
      storage.setItem(AUTH_TOKEN_KEY, 'tok');
      answer(200, JSON.stringify({ ...me, subscriptionTier: 'GOLD' }));
      const error = await getMe().catch((e: unknown) => e);
      expect((error as Error).message).to.match(/^Unexpected response from \/api\/auth\/me: subscriptionTier/);
    });
  });
});
