/**
 * GET /api/backtest/{id} is read again every 2 s while the run is queued or running (the one path
 * that cannot miss its end, beside the socket's JOB_PROGRESS) and never again once it has ended;
 * the answer is checked against the service's contract.
 */
import { expect } from 'chai';
import type { Query } from '@tanstack/react-query';
import { backtestQueryOptions, BACKTEST_WHILE_RUNNING_REFETCH_MS, getBacktest } from './get-backtest';

type Interval = (query: Query) => number | false;
const intervalFor = (data: unknown) => (backtestQueryOptions('b1').refetchInterval as unknown as Interval)({ state: { data } } as unknown as Query);

describe('GET /api/backtest/{id}', function () {
  it('is read every 2 s until the run has ended, then never again', function () {
    expect(intervalFor(undefined)).to.equal(BACKTEST_WHILE_RUNNING_REFETCH_MS);
    expect(intervalFor({ status: 'QUEUED' })).to.equal(2_000);
    expect(intervalFor({ status: 'RUNNING' })).to.equal(2_000);
    expect(intervalFor({ status: 'COMPLETED' })).to.equal(false);
    expect(intervalFor({ status: 'FAILED' })).to.equal(false);
  });

  it('asks for the id, escaped, and refuses an answer outside the contract', async function () {
    const realFetch = globalThis.fetch;
    const urls: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ id: 'b1', status: 'DONE' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    try {
      const error = await getBacktest('a/b').then(
        () => null,
        (e: unknown) => e,
      );
      expect(urls).to.deep.equal(['/api/backtest/a%2Fb']);
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/^Unexpected response from \/api\/backtest\/a%2Fb: /);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
