/**
 * given(events).when(command).then(events) | .thenThrows(ErrorClass, message?) for decider specs.
 */
import { expect } from 'chai';
import { fold, type Decider, type DomainEvent } from './decider';

type ErrorClass = abstract new (...args: never[]) => Error;

export function specFor<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(decider, events));
          return {
            then(expected: Event[]) {
              expect(run()).to.deep.equal(expected);
            },
            /** `extra`: the members the error adds to the problem body (a ValidationError's `field`). */
            thenThrows(errorClass: ErrorClass, message?: string | RegExp, extra?: Record<string, unknown>) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown, 'decide should throw').to.be.instanceOf(errorClass);
              if (typeof message === 'string') expect((thrown as Error).message).to.equal(message);
              else if (message) expect((thrown as Error).message).to.match(message);
              if (extra) expect((thrown as { extra?: unknown }).extra).to.deep.equal(extra);
            },
          };
        },
      };
    },
  };
}

/** The events `decider` appends for `commands` one after another from nothing, as the command handler would decide them. */
export function eventsOf<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>, ...commands: Command[]): Event[] {
  const events: Event[] = [];
  let state = decider.initialState();
  for (const command of commands) {
    const appended = decider.decide(command, state);
    state = appended.reduce(decider.evolve, state);
    events.push(...appended);
  }
  return events;
}
