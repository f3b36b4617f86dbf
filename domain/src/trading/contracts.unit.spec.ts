/** The trading slice's request schemas: strict objects, bounds naming the field, coin id or symbol. */
import { expect } from 'chai';
import { botSettingsRequestSchema, DEFAULT_RISK_PARAMETERS, placeTradeRequestSchema, riskParameterBounds, riskParametersSchema } from './contracts';

const fieldsOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; code: string; keys?: string[] }> } }) =>
  [...new Set(result.error!.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? (i.keys ?? []) : [i.path.join('.')])))];

describe('trading contracts', function () {
  describe('POST /api/trades', function () {
    it('takes a symbol in any case or a coin id, and answers the domain names', function () {
      expect(placeTradeRequestSchema.parse({ symbol: 'eth', type: 'BUY', amount: 0.5 })).to.deep.equal({ symbol: 'ETH', side: 'BUY', amount: 0.5 });
      expect(placeTradeRequestSchema.parse({ coinId: 'bitcoin', type: 'SELL', amount: 1 })).to.deep.equal({ symbol: 'BTC', side: 'SELL', amount: 1 });
      expect(placeTradeRequestSchema.parse({ coinId: 'bitcoin', symbol: 'btc', type: 'SELL', amount: 1 })).to.deep.equal({ symbol: 'BTC', side: 'SELL', amount: 1 });
    });

    for (const [name, body, field] of [
      ['no coin', { type: 'BUY', amount: 1 }, 'symbol'],
      ['a coin id and a symbol that disagree', { coinId: 'bitcoin', symbol: 'ETH', type: 'BUY', amount: 1 }, 'symbol'],
      ['an unknown coin id', { coinId: 'dogecoin', type: 'BUY', amount: 1 }, 'coinId'],
      ['an unknown symbol', { symbol: 'DOGE', type: 'BUY', amount: 1 }, 'symbol'],
      ['a HOLD', { symbol: 'ETH', type: 'HOLD', amount: 1 }, 'type'],
      ['a zero amount', { symbol: 'ETH', type: 'BUY', amount: 0 }, 'amount'],
      ['a negative amount', { symbol: 'ETH', type: 'BUY', amount: -1 }, 'amount'],
      ['an amount as text', { symbol: 'ETH', type: 'BUY', amount: '1' }, 'amount'],
      ['a huge amount', { symbol: 'ETH', type: 'BUY', amount: 1e12 }, 'amount'],
      ['a price (the server reads the market)', { symbol: 'ETH', type: 'BUY', amount: 1, price: 1 }, 'price'],
    ] as const) {
      it(`refuses ${name}`, function () {
        expect(fieldsOf(placeTradeRequestSchema.safeParse(body))).to.include(field);
      });
    }
  });

  describe('PUT /api/risk/parameters', function () {
    it('accepts the defaults and every bound', function () {
      expect(riskParametersSchema.parse(DEFAULT_RISK_PARAMETERS)).to.deep.equal(DEFAULT_RISK_PARAMETERS);
      for (const [field, bounds] of Object.entries(riskParameterBounds)) {
        expect(riskParametersSchema.safeParse({ ...DEFAULT_RISK_PARAMETERS, [field]: bounds.min }).success, `${field} min`).to.equal(true);
        expect(riskParametersSchema.safeParse({ ...DEFAULT_RISK_PARAMETERS, [field]: bounds.max }).success, `${field} max`).to.equal(true);
      }
    });

    it('refuses each field just outside its bounds, naming it', function () {
      for (const [field, bounds] of Object.entries(riskParameterBounds)) {
        for (const value of [bounds.min - bounds.step / 2, bounds.max + bounds.step / 2]) {
          const result = riskParametersSchema.safeParse({ ...DEFAULT_RISK_PARAMETERS, [field]: value });
          expect(fieldsOf(result), `${field}=${value}`).to.deep.equal([field]);
          expect(result.error!.issues[0]!.message).to.equal(`must be a ${field === 'maxConcurrentTrades' ? 'whole number' : 'number'} from ${bounds.min} to ${bounds.max}`);
        }
      }
    });

    it('refuses a partial set, an unknown field, an unknown stop loss type', function () {
      const { maxDrawdown: _drop, ...partial } = DEFAULT_RISK_PARAMETERS;
      expect(fieldsOf(riskParametersSchema.safeParse(partial))).to.deep.equal(['maxDrawdown']);
      expect(fieldsOf(riskParametersSchema.safeParse({ ...DEFAULT_RISK_PARAMETERS, leverage: 10 }))).to.deep.equal(['leverage']);
      expect(fieldsOf(riskParametersSchema.safeParse({ ...DEFAULT_RISK_PARAMETERS, stopLossType: 'magic' }))).to.deep.equal(['stopLossType']);
    });
  });

  describe('POST /api/settings/bot', function () {
    it('takes any of the settings under the spec names and answers the domain names', function () {
      expect(botSettingsRequestSchema.parse({ maxPositionSize: 10, stopLoss: 3, takeProfit: 6, dailyLossLimit: 1000, enableNotifications: false, autoRetrain: true })).to.deep.equal({
        maxPositionSize: 10,
        stopLossPercent: 3,
        takeProfitPercent: 6,
        dailyLossLimit: 1000,
        enableNotifications: false,
        autoRetrain: true,
      });
      expect(botSettingsRequestSchema.parse({ stopLoss: 2.5 })).to.deep.equal({ stopLossPercent: 2.5 });
    });

    it('refuses an empty body, out-of-bounds values and unknown fields, naming them', function () {
      expect(botSettingsRequestSchema.safeParse({}).success).to.equal(false);
      expect(fieldsOf(botSettingsRequestSchema.safeParse({ stopLoss: 25 }))).to.deep.equal(['stopLoss']);
      expect(fieldsOf(botSettingsRequestSchema.safeParse({ dailyLossLimit: 10 }))).to.deep.equal(['dailyLossLimit']);
      expect(fieldsOf(botSettingsRequestSchema.safeParse({ stopLossPercent: 2 }))).to.include('stopLossPercent');
      expect(fieldsOf(botSettingsRequestSchema.safeParse({ autoRetrain: 'yes' }))).to.deep.equal(['autoRetrain']);
    });
  });
});
