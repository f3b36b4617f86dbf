/**
 * Deciders are pure: `decide(command, state)` returns the events a command produces (or throws a
 * DomainError), `evolve(state, event)` folds one event into the state. Time, ids and prices come in
 * through the command; nothing here reads a clock or a random source.
 */
export interface DomainEvent<Type extends string = string, Data extends Record<string, unknown> = Record<string, unknown>> {
  type: Type;
  data: Data;
}

/** An event as stored, before upcasting: its shape may be of an older schema version. */
export interface StoredEventShape {
  type: string;
  data: Record<string, unknown>;
  schemaVersion: number;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  /** Names the decider's snapshots (a stream may be folded by more than one decider). */
  name: string;
  /**
   * Current schema version of the events this decider writes, and of its state: snapshots of the state
   * folded under another version are ignored and rebuilt from the events. The state must be a JSON value.
   */
  schemaVersion: number;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /** Brings events written by older code to the current shape; identity when absent. */
  upcast?(event: StoredEventShape): Event;
}

/**
 * What folding a stream needs: a decider, or a read-only view of the same events under its own name
 * (its own snapshots), such as the account a sign-in checks.
 */
export type Fold<State, Event extends DomainEvent> = Pick<Decider<State, unknown, Event>, 'name' | 'schemaVersion' | 'initialState' | 'evolve' | 'upcast'>;

export function fold<State, Event extends DomainEvent>(decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>, events: Event[]): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}

/** Exhaustiveness guard for `switch` over a union: a missing case does not compile. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
