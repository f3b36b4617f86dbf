/**
 * The panel shows the held-out figures with one decimal; its verdict says "edge" only when the shown
 * interval's lower bound is above the shown baseline, so it never reads "edge" beside two equal figures
 * (a lower bound above the baseline by less than 0.05 point, recorded with two decimals).
 */
import { expect } from 'chai';
import { shownVerdict } from './ml-status-view';

describe('ml status: the verdict as the panel shows it', function () {
  it('an edge the shown figures show stays an edge; one they cannot show reads no edge; no edge stays no edge', function () {
    expect(shownVerdict({ verdict: 'edge', low: 56.21, baseline: 56.04 })).to.equal('edge'); // 56.2 > 56.0
    expect(shownVerdict({ verdict: 'edge', low: 56.04, baseline: 56.03 })).to.equal('no edge'); // 56.0 and 56.0
    expect(shownVerdict({ verdict: 'edge', low: 56.05, baseline: 56.01 })).to.equal('edge'); // 56.1 > 56.0 (half up)
    expect(shownVerdict({ verdict: 'no edge', low: 58, baseline: 56 })).to.equal('no edge');
  });
});
