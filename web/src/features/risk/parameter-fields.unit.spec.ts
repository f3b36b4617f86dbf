import { expect } from 'chai';
import { riskParameterBounds } from '@papertrade/domain/trading/contracts';
import { numericParameterFields, parseParameterInput } from './parameter-fields';

describe('risk parameter inputs', () => {
  it('has one input per numeric parameter, with the section 5 bounds and steps', () => {
    expect(numericParameterFields.map((f) => f.name)).to.have.members(Object.keys(riskParameterBounds));
    const daily = numericParameterFields.find((f) => f.name === 'maxDailyLoss')!;
    expect(daily.bounds).to.deep.equal({ min: 50, max: 10000, step: 50 });
    expect(numericParameterFields.find((f) => f.name === 'volatilityThreshold')!.bounds.step).to.equal(5);
  });

  it('accepts a number within the bounds, and refuses empty, out of bounds and fractional counts with the server wording', () => {
    expect(parseParameterInput(' 7.5 ', riskParameterBounds.maxPositionSize)).to.deep.equal({ ok: true, value: 7.5 });
    expect(parseParameterInput('50', riskParameterBounds.maxDailyLoss)).to.deep.equal({ ok: true, value: 50 });
    expect(parseParameterInput('5', riskParameterBounds.maxDailyLoss)).to.deep.equal({ ok: false, error: 'must be a number from 50 to 10000' });
    expect(parseParameterInput('', riskParameterBounds.maxDrawdown).ok).to.equal(false);
    expect(parseParameterInput('abc', riskParameterBounds.maxDrawdown).ok).to.equal(false);
    expect(parseParameterInput('2.5', riskParameterBounds.maxConcurrentTrades)).to.deep.equal({ ok: false, error: 'must be a whole number from 1 to 20' });
  });
});
