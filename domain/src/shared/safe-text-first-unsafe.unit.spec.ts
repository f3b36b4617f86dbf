/** Safe text names no character in a text it accepts: there is nothing to report. */
import { expect } from 'chai';
import { firstUnsafeCharacter } from './safe-text';

describe('safe text: the first refused character', function () {
  it('is none for text safe text accepts', function () {
    for (const text of ['Ann Lee', '', 'Ann \u{1F469}\u200D\u{1F4BB}', '\u0639\u0644\u06CC\u200C\u0631\u0636\u0627']) expect(firstUnsafeCharacter(text), text).to.equal(undefined);
  });

  it('is the first refused character, as four or more upper-case hex digits', function () {
    expect(firstUnsafeCharacter('Ann\u00ADLee\u0000')).to.equal('U+00AD');
    expect(firstUnsafeCharacter('a\u001bb')).to.equal('U+001B');
  });
});
