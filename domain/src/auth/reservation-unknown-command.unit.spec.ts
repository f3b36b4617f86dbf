/**
 * A name reservation answers only Reserve and Release: any other command is refused, never taken as
 * "nothing to append" (which a caller would read as the name being reserved or released already).
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { reservationDecider, type ReservationCommand } from './reservation';

describe('reservation decider: unknown commands', function () {
  it('refuses a command it does not know, on a free or a held name', function () {
    const unknown = { type: 'Transfer', data: { ownerId: 'u2' }, metadata: { now: '2026-01-01T00:00:00.000Z' } } as unknown as ReservationCommand;
    expect(() => reservationDecider.decide(unknown, fold(reservationDecider, []))).to.throw(Error, 'unexpected value');
    const held = fold(reservationDecider, [{ type: 'NameReserved', data: { ownerId: 'u1', reservedAt: '2026-01-01T00:00:00.000Z' } }]);
    expect(() => reservationDecider.decide(unknown, held)).to.throw(Error, 'unexpected value');
  });
});
