/**
 * The backtest service's read schemas (service-contracts.ts): the trades page query (whole numbers in
 * their bounds, defaults when absent, nothing else accepted), a backtest id in a path (a UUID), and the
 * answers a client parses: the queued job (QUEUED, a place from 1), and the socket's BACKTEST_UPDATE.
 */
import { expect } from 'chai';
import {
  backtestDetailSchema,
  backtestIdSchema,
  backtestJobResponseSchema,
  backtestTradesPageSchema,
  backtestTradesQuerySchema,
  backtestUpdateSchema,
  DEFAULT_TRADES_PAGE_SIZE,
  MAX_TRADES_PAGE_SIZE,
} from './service-contracts';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => (result.success ? [] : result.error!.issues.map((i) => i.message));

describe('backtest service contracts', function () {
  it('a trades page query: page 1 and 50 a page by default, whole numbers within bounds', function () {
    expect(backtestTradesQuerySchema.parse({})).to.deep.equal({ page: 1, pageSize: DEFAULT_TRADES_PAGE_SIZE });
    expect(DEFAULT_TRADES_PAGE_SIZE).to.equal(50);
    expect(MAX_TRADES_PAGE_SIZE).to.equal(500);
    expect(backtestTradesQuerySchema.parse({ page: '3', pageSize: '500' })).to.deep.equal({ page: 3, pageSize: 500 });
    expect(backtestTradesQuerySchema.parse({ page: '1000000', pageSize: '1' })).to.deep.equal({ page: 1_000_000, pageSize: 1 });
  });

  it('refuses a page out of bounds, not a whole number, a number written otherwise, or another key, naming the field', function () {
    expect(messages(backtestTradesQuerySchema.safeParse({ pageSize: '501' }))).to.deep.equal(['pageSize must be from 1 to 500']);
    expect(messages(backtestTradesQuerySchema.safeParse({ page: '0' }))).to.deep.equal(['page must be from 1 to 1000000']);
    expect(messages(backtestTradesQuerySchema.safeParse({ page: '1000001' }))).to.deep.equal(['page must be from 1 to 1000000']);
    for (const bad of ['1.5', '-1', 'x1', '1x', ' 1', '1e3', '', '1234567890']) {
      expect(messages(backtestTradesQuerySchema.safeParse({ page: bad })), `page=${JSON.stringify(bad)}`).to.deep.equal(['page must be a whole number from 1 to 1000000']);
    }
    expect(messages(backtestTradesQuerySchema.safeParse({ page: ['1', '2'] }))).to.deep.equal(['page must be a whole number']);
    expect(backtestTradesQuerySchema.safeParse({ page: '1', sort: 'desc' }).success).to.equal(false);
  });

  it('a backtest id in a path is a UUID, in either case', function () {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(backtestIdSchema.parse(id)).to.equal(id);
    expect(backtestIdSchema.parse(id.toUpperCase())).to.equal(id.toUpperCase());
    for (const bad of [`x${id}`, `${id}x`, id.slice(1), id.replace(/-/g, ''), '0f8fad5b-d9cb-469f-a165-70867728950', 'g'.repeat(8) + id.slice(8), '0f8fad5b-d9c-469f-a165-70867728950e0', '0f8fad5b-d9cb-469-a165-70867728950e0', '0f8fad5b-d9cb-469f-a16-70867728950e0', '0f8fad5b-zzzz-469f-a165-70867728950e', '0f8fad5b-d9cb-zzzz-a165-70867728950e', '0f8fad5b-d9cb-469f-zzzz-70867728950e', '0f8fad5b-d9cb-469f-a165-zzzzzzzzzzzz']) {
      expect(messages(backtestIdSchema.safeParse(bad)), bad).to.deep.equal(['must be a backtest id']);
    }
  });

  it('the queued job answer: QUEUED, a place in the queue from 1; the update: QUEUED, COMPLETED or FAILED', function () {
    const valid = { id: 'b1', jobId: 'j1', mode: 'backtest', status: 'QUEUED', queuePosition: 1, position: '0-12' };
    expect(backtestJobResponseSchema.parse(valid)).to.deep.equal(valid);
    expect(backtestJobResponseSchema.safeParse({ ...valid, queuePosition: 0 }).success).to.equal(false);
    expect(backtestJobResponseSchema.safeParse({ ...valid, queuePosition: 2 }).success).to.equal(true);
    expect(backtestJobResponseSchema.safeParse({ ...valid, status: 'RUNNING' }).success).to.equal(false);
    expect(backtestJobResponseSchema.safeParse({ ...valid, mode: 'walk-forward' }).success).to.equal(true);
    const update = { id: 'b1', jobId: 'j1', mode: 'backtest', status: 'QUEUED', error: null };
    for (const status of ['QUEUED', 'COMPLETED', 'FAILED']) expect(backtestUpdateSchema.safeParse({ ...update, status }).success, status).to.equal(true);
    expect(backtestUpdateSchema.safeParse({ ...update, status: 'RUNNING' }).success).to.equal(false);
    expect(backtestUpdateSchema.safeParse({ ...update, status: '' }).success).to.equal(false);
  });

  it('a backtest\'s detail and a trades page keep every field they name', function () {
    const config = { strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: '2025-01-01', endDate: '2025-02-01', initialCapital: 10_000, parameters: { rsiPeriod: 14 } };
    const detail = { id: 'b1', mode: 'backtest', status: 'QUEUED', queuePosition: 1, jobId: 'j1', configId: 'c1', config, createdAt: '2026-01-01T00:00:00.000Z', completedAt: null, error: null, result: null, report: null, tradeCount: null };
    expect(backtestDetailSchema.parse(detail)).to.deep.equal(detail);
    expect(backtestDetailSchema.safeParse({ ...detail, config: { ...config, symbol: 'XYZ' } }).success).to.equal(false);
    const page = { id: 'b1', page: 2, pageSize: 50, total: 51, pages: 2, trades: [] };
    expect(backtestTradesPageSchema.parse(page)).to.deep.equal(page);
    expect(backtestTradesPageSchema.safeParse({ ...page, total: 'many' }).success).to.equal(false);
  });
});
