import { expect } from 'chai';
import { SAFE_TEXT_MESSAGE, isSafeText, safeText } from './safe-text';

describe('safe text', function () {
  for (const [name, text] of [
    ['plain ASCII', 'Ann Lee'],
    ['accents and other scripts', 'Zoë Ōtani 山田'],
    ['a surrogate pair (an emoji)', 'rocket \ud83d\ude80'],
    // ZWJ and ZWNJ stay allowed (see safe-text.ts): emoji sequences and Persian or Indic spelling need them.
    ['an emoji ZWJ sequence (woman technologist)', 'Ann \u{1F469}\u200D\u{1F4BB}'],
    ['a Persian name with ZWNJ', '\u0639\u0644\u06CC\u200C\u0631\u0636\u0627'],
    ['a variation selector (a combining mark, not a format character)', 'Ann \u2764\uFE0F'],
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
    ['a line separator (U+2028)', '=HYPERLINK("https://evil.example")\u2028Ann'],
    ['a paragraph separator (U+2029)', 'Ann\u2029Lee'],
    ['a zero-width space', 'Ann\u200BLee'],
    ['a right-to-left override', 'Ann\u202ELee'],
    ['a bidi isolate', 'Ann\u2066Lee'],
    ['a byte order mark inside', 'Ann\uFEFFLee'],
    ['a soft hyphen', 'Ann\u00ADLee'],
    ['a tag character (invisible ASCII)', 'Ann\u{E0041}'],
  ]) {
    it(`refuses ${name}`, function () {
      expect(isSafeText(text!)).to.equal(false);
    });
  }

  it('trims first, then reports only its own issue (no "invalid email" beside it)', function () {
    const schema = safeText().email('must be a valid email address');
    expect(schema.parse('  ann@example.com\n')).to.equal('ann@example.com');
    const result = schema.safeParse('a\u0000@example.com');
    expect(result.error?.issues.map((i) => i.message)).to.deep.equal([`${SAFE_TEXT_MESSAGE} (found U+0000)`]);
  });

  it('names the first character it refuses, as a code point', function () {
    const messages = (text: string) => safeText().safeParse(text).error?.issues.map((i) => i.message);
    expect(messages('Ann\u2028Lee\u0000')).to.deep.equal([`${SAFE_TEXT_MESSAGE} (found U+2028)`]);
    expect(messages('Ann\u{E0041}')).to.deep.equal([`${SAFE_TEXT_MESSAGE} (found U+E0041)`]);
    expect(messages('a\ud800b')).to.deep.equal([`${SAFE_TEXT_MESSAGE} (found U+D800)`]);
  });
});
