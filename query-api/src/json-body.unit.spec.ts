/**
 * JsonBodies keeps a route's JSON text per inputs: built again whenever any input is another object
 * or value (a new page of trades, new prices, another page asked for), never served for inputs it
 * was not built from.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import { JsonBodies } from './json-body';

const context = () => ({ type: '', body: undefined as unknown }) as unknown as Context & { type: string; body: Buffer };

describe('JSON bodies kept per inputs', function () {
  it('serialises once per inputs and again when any of them changes', function () {
    const bodies = new JsonBodies();
    const page = { trades: [1, 2] };
    const otherPage = { trades: [3] };
    let prices = { ETH: 3000 };
    let builds = 0;
    const send = (first: object, pageNo: number) => {
      const ctx = context();
      bodies.send(ctx, [first, prices, pageNo], () => {
        builds++;
        return { first, prices, pageNo };
      });
      expect(ctx.type).to.equal('json');
      return JSON.parse(ctx.body.toString('utf8')) as unknown;
    };
    expect(send(page, 1)).to.deep.equal({ first: page, prices, pageNo: 1 });
    expect(send(page, 1)).to.deep.equal({ first: page, prices, pageNo: 1 });
    expect(builds).to.equal(1);
    prices = { ETH: 3100 }; // a new market step: another object
    expect(send(page, 1)).to.deep.equal({ first: page, prices: { ETH: 3100 }, pageNo: 1 });
    expect(send(page, 2)).to.deep.equal({ first: page, prices: { ETH: 3100 }, pageNo: 2 });
    expect(send(otherPage, 2)).to.deep.equal({ first: otherPage, prices: { ETH: 3100 }, pageNo: 2 });
    expect(builds).to.equal(4);
  });
});

describe('If-None-Match', function () {
  it('matches a listed tag, weakly (W/ ignored), or *; nothing else', async function () {
    const { noneMatch } = await import('./json-body');
    const etag = '"abc"';
    expect(noneMatch('"abc"', etag)).to.equal(true);
    expect(noneMatch('W/"abc"', etag)).to.equal(true);
    expect(noneMatch('"x", "abc"', etag)).to.equal(true);
    expect(noneMatch('*', etag)).to.equal(true);
    expect(noneMatch('', etag)).to.equal(false);
    expect(noneMatch('"abcd"', etag)).to.equal(false);
    expect(noneMatch('abc', etag)).to.equal(false);
  });
});
