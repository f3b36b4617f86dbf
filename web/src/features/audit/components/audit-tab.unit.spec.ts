/**
 * The Audit tab rendered to HTML (react-dom/server) with its three reads already in the query
 * cache, shaped by the audit contracts: the timeline rows, the page label, the rebuilt portfolio
 * with the price it was valued at, the subscription, and how many events each came from. Not a
 * browser test: the tab is mounted by the /admin screen, which another slice owns.
 */
import { expect } from 'chai';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { portfolioAsOfResponseSchema, subscriptionAsOfResponseSchema, timelineResponseSchema, type AuditEvent } from '@papertrade/domain/audit/contracts';
import { portfolioAsOfQueryOptions, subscriptionAsOfQueryOptions, timelineCsvUrl, timelineQueryOptions } from '../api/get-audit';
import { asOfFromInput, isoToLocalInput } from '../audit-view';
import { AuditTab } from './audit-tab';

const event = (n: number, streamId: string, type: string, data: Record<string, unknown>): AuditEvent => ({
  streamId,
  revision: String(n),
  position: `0000000000000000000${n}-00000000000000000000`,
  type,
  time: `2026-01-01T0${n}:00:00.000Z`,
  data,
  metadata: { userId: 'u1', at: `2026-01-01T0${n}:00:00.000Z` },
});

describe('AuditTab', function () {
  it('shows the timeline page, and the portfolio and subscription as of the chosen time with their events', function () {
    const userId = 'u1';
    // The key the tab uses: the as-of input keeps seconds in local time; that whole second, up to now.
    const asOf = asOfFromInput(isoToLocalInput('2026-01-01T05:30:00.000Z'), new Date())!;
    expect(asOf).to.equal('2026-01-01T05:30:00.999Z');
    const opened = event(1, 'portfolio-u1', 'PortfolioOpened', { userId, startingCashMicros: 10_000_000_000 });
    const buy = event(2, 'portfolio-u1', 'SimulatedTradePlaced', { userId, side: 'BUY', quantity: 0.5, symbol: 'ETH', price: 3000 });
    const upgrade = event(3, 'subscription-u1', 'SubscriptionChangedByAdmin', { userId, previousTier: 'FREE', previousStatus: 'ACTIVE', tier: 'PREMIUM', status: 'ACTIVE' });
    const client = new QueryClient();
    client.setQueryData(
      timelineQueryOptions(userId, 1).queryKey,
      timelineResponseSchema.parse({
        userId,
        entries: [{ ...opened, category: 'trade' }, { ...buy, category: 'trade' }, { ...upgrade, category: 'subscription' }],
        page: 1,
        pageSize: 25,
        total: 3,
        totalPages: 1,
      }),
    );
    client.setQueryData(
      portfolioAsOfQueryOptions(userId, asOf).queryKey,
      portfolioAsOfResponseSchema.parse({
        userId,
        asOf,
        opened: true,
        state: {
          startingCashMicros: 10_000_000_000,
          cashMicros: 8_498_500_000,
          realisedPnlMicros: 0,
          positions: [{ positionId: 't1', coinId: 'ethereum', symbol: 'ETH', units: 50_000_000, costBasisMicros: 1_501_500_000, entryNotionalMicros: 1_500_000_000, openTradeIds: ['t1'], openedAt: '2026-01-01T02:00:00.000Z' }],
        },
        valuation: { startingCash: 10_000, cash: 8498.5, positionsValue: 1600, totalValue: 10_098.5, realisedPnl: 0, unrealisedPnl: 98.5, totalPnl: 98.5, totalPnlPercent: 0.99 },
        prices: [{ symbol: 'ETH', coinId: 'ethereum', price: 3200, candleTime: '2026-01-01T05:00:00.000Z', intervalMinutes: 60, source: 'simulated' }],
        events: [opened, buy],
        laterEvents: 0,
      }),
    );
    client.setQueryData(subscriptionAsOfQueryOptions(userId, asOf).queryKey, subscriptionAsOfResponseSchema.parse({ userId, asOf, state: { tier: 'PREMIUM', status: 'ACTIVE' }, events: [upgrade], laterEvents: 0 }));

    const html = renderToString(
      createElement(QueryClientProvider, { client }, createElement(AuditTab, { user: { id: userId, username: 'ursula', email: 'ursula@example.com' }, initialAsOf: '2026-01-01T05:30:00.000Z' })),
    );
    expect(html).to.contain('ursula@example.com');
    expect(html).to.contain('class="data-table audit-table"');
    expect(html).to.contain('BUY 0.5 ETH @ 3000');
    expect(html).to.contain('FREE/ACTIVE -&gt; PREMIUM/ACTIVE');
    expect(html).to.contain('Page 1 of 1 (3 events)');
    expect(html.match(/<tr>/g)).to.have.length(4); // header + 3 events
    expect(html).to.contain('Replayed from every event up to 2026-01-01T05:30:00.999Z (UTC), that second included');
    expect(html).to.contain('$10,098.50');
    expect(html).to.contain('ETH 0.5 (cost $1,501.50, opened 2026-01-01T02:00:00.000Z)');
    expect(html).to.contain('ETH at $3,200.00: simulated market, candle opened 2026-01-01T05:00:00.000Z');
    expect(html).to.contain('Portfolio events: built from 2 events');
    expect(html).to.contain('PREMIUM (ACTIVE)');
    expect(html).to.contain('Subscription events: built from 1 event<');
    expect(html).to.contain('Download CSV');
    expect(timelineCsvUrl(userId, 2)).to.equal('/api/audit/users/u1/timeline?page=2&pageSize=25&format=csv');
  });

  it('names a user chosen by a raw id by that id alone', function () {
    const html = renderToString(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(AuditTab, { user: { id: 'u-raw' } })));
    expect(html).to.contain('u-raw');
    expect(html).to.contain('Loading…');
  });
});
