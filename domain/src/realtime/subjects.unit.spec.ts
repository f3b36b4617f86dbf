/** The real-time bus subjects (subjects.ts): built only from a UUID and an upper-case type, routed back exactly. */
import { expect } from 'chai';
import {
  PUBLIC_REALTIME_SUBJECTS,
  USER_REALTIME_SUBJECTS,
  publicRealtimeSubject,
  routeRealtimeSubject,
  userRealtimeSubject,
} from './subjects';

const USER = '0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e';

describe('real-time subjects', function () {
  it('names the wildcard subjects the relay subscribes to', function () {
    expect(USER_REALTIME_SUBJECTS).to.equal('realtime.user.*.*');
    expect(PUBLIC_REALTIME_SUBJECTS).to.equal('realtime.public.*');
  });

  it('builds a user subject and a public subject, and routes each back to its audience', function () {
    expect(userRealtimeSubject(USER, 'BOT_STATUS')).to.equal(`realtime.user.${USER}.BOT_STATUS`);
    expect(publicRealtimeSubject('ML_UPDATE')).to.equal('realtime.public.ML_UPDATE');
    expect(routeRealtimeSubject(`realtime.user.${USER}.BOT_STATUS`)).to.deep.equal({ audience: 'user', userId: USER, type: 'BOT_STATUS' });
    expect(routeRealtimeSubject('realtime.public.ML_UPDATE')).to.deep.equal({ audience: 'public', type: 'ML_UPDATE' });
    expect(routeRealtimeSubject('realtime.public.A')).to.deep.equal({ audience: 'public', type: 'A' });
    expect(routeRealtimeSubject(`realtime.user.${USER}.X_1`)).to.deep.equal({ audience: 'user', userId: USER, type: 'X_1' });
  });

  it('routes an upper-case user id to the lower-case one the sockets are keyed by', function () {
    expect(routeRealtimeSubject(`realtime.user.${USER.toUpperCase()}.BOT_STATUS`)).to.deep.equal({ audience: 'user', userId: USER, type: 'BOT_STATUS' });
  });

  it('refuses to build a subject for a user id that is not a UUID or a type that is not upper case', function () {
    expect(() => userRealtimeSubject('user-1', 'BOT_STATUS')).to.throw();
    expect(() => userRealtimeSubject(USER, 'bot_status')).to.throw(/upper-case message type/);
    expect(() => userRealtimeSubject(USER, '1BOT')).to.throw();
    expect(() => publicRealtimeSubject('Bot')).to.throw(/upper-case message type/);
    expect(() => publicRealtimeSubject('B'.repeat(65))).to.throw();
    expect(publicRealtimeSubject('B'.repeat(64))).to.equal(`realtime.public.${'B'.repeat(64)}`);
  });

  it('routes nothing that is not one of the two shapes', function () {
    for (const subject of [
      'market.tick.ethereum',
      `other.user.${USER}.BOT_STATUS`,
      `realtime.user.${USER}`,
      `realtime.user.${USER}.BOT_STATUS.extra`,
      'realtime.user.not-a-uuid.BOT_STATUS',
      `realtime.user.${USER}.bot_status`,
      `xrealtime.user.${USER}.BOT_STATUS`,
      'realtime.public',
      'realtime.public.A.B',
      'realtime.public.lower',
      `realtime.public.${'B'.repeat(65)}`,
      `realtime.other.${USER}.BOT_STATUS`,
      'realtime.other.A',
      '',
    ]) {
      expect(routeRealtimeSubject(subject), subject).to.equal(null);
    }
  });
});
