import { expect } from 'chai';
import { encodePosition } from '../event-store/position';
import { stricterFreshness } from './read-freshness';

describe('read freshness: X-Min-Position and the caller\'s own writes together', () => {
  const early = encodePosition(10, 1);
  const late = encodePosition(12, 3);

  it('asks for the later position, without the actor exception (it answers for the actor\'s writes only)', () => {
    expect(stricterFreshness({ atLeast: early }, { atLeast: late, actor: 'u1' })).to.deep.equal({ atLeast: late });
    expect(stricterFreshness({ atLeast: late }, { atLeast: early, actor: 'u1' })).to.deep.equal({ atLeast: late });
  });

  it('reads the store when either must', () => {
    expect(stricterFreshness({ bypass: true }, { atLeast: late, actor: 'u1' })).to.deep.equal({ bypass: true });
    expect(stricterFreshness({ atLeast: early }, { bypass: true })).to.deep.equal({ bypass: true });
  });

  it('keeps the one requirement there is when the other asks for nothing (an actor who never wrote)', () => {
    expect(stricterFreshness({ atLeast: early }, {})).to.deep.equal({ atLeast: early });
    expect(stricterFreshness({}, { atLeast: late, actor: 'u1' })).to.deep.equal({ atLeast: late, actor: 'u1' });
  });
});
