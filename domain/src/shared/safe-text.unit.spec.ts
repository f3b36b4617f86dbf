import { expect } from 'chai';
import { SAFE_TEXT_MESSAGE, isSafeText, safeText } from './safe-text';

describe('safe text', function () {
  for (const [name, text] of [
    ['plain ASCII', 'Ann Lee'],
    ['accents and other scripts', 'Zoë Ōtani 山田'],
    ['a surrogate pair (an emoji)', 'rocket \ud83d\ude80'],
  ]) {
    it(`accepts ${name}`, function () {
      expect(isSafeText(text!)).to.equal(true);
    });
  }

  for (const [name, text] of [
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a high surrogate at the end', 'ab\ud83d'],
    ['two high surrogates', '\ud83d\ud83d'],
    ['an escape character', 'a\u001b[31mred'],
    ['a newline inside', 'a\nb'],
    ['DEL', 'a\u007f'],
    ['a C1 control', 'a\u0085b'],
  ]) {
    it(`refuses ${name}`, function () {
      expect(isSafeText(text!)).to.equal(false);
    });
  }

  it('trims first, then reports only its own issue (no "invalid email" beside it)', function () {
    const schema = safeText().email('must be a valid email address');
    expect(schema.parse('  ann@example.com\n')).to.equal('ann@example.com');
    const result = schema.safeParse('a\u0000@example.com');
    expect(result.error?.issues.map((i) => i.message)).to.deep.equal([SAFE_TEXT_MESSAGE]);
  });
});
